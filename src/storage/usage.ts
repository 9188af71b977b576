import {existsSync, renameSync, statSync, unlinkSync} from 'node:fs'
import {assertMemDir, readInMem, writeInMem} from './mem-dir.js'
import {nodeCrypto} from '../model/lazy-require.js'
import {join} from 'node:path'
import type {Db} from './db.js'

/**
 * Usage statistics: every SQL statement about them, and the usage log.
 *
 * Operations are counted in memory per (hour, operation) and appended as such aggregates to
 * `.mem/usage.log` (no fsync, no lock: losing a few counts in a crash costs nothing acknowledged).
 * A roll-up folds the log into `usage_hourly` through one journal record; the same record moves
 * hourly rows older than the hourly window into `usage_daily` and drops daily rows past the daily
 * window, so the tables never grow without bound. Durations keep a histogram per row, so a p95
 * survives aggregation (to the resolution of its bins).
 */

/** Upper bounds (ms) of the duration histogram's bins; the last bin is open. */
export const DURATION_BINS = [0.25, 0.5, 1, 2, 3, 5, 8, 12, 20, 30, 50, 80, 120, 200, 300, 500, 800, 1200, 2000, 3000, 5000, 8000, 12000, 20000, 30000]
/** Hourly rows are kept this long, then folded into daily rows. */
export const HOURLY_KEEP_DAYS = 35
/** Daily rows are kept this long. */
export const DAILY_KEEP_DAYS = 400
/** A usage log past this size is folded into the database when its store is open. */
export const ROLLUP_LOG_BYTES = 64 * 1024

export const USAGE_LOG = 'usage.log'

/** Counts of one operation in one UTC hour (`bucket` = `YYYY-MM-DDTHH`) or day (`YYYY-MM-DD`). */
export interface UsageDelta {
  bucket: string
  operation: string
  count: number
  totalMs: number
  maxMs: number
  totalResults: number
  /** Counts per DURATION_BINS bin (length DURATION_BINS.length + 1). */
  hist: number[]
}

export function emptyDelta(bucket: string, operation: string): UsageDelta {
  return {bucket, operation, count: 0, totalMs: 0, maxMs: 0, totalResults: 0, hist: new Array(DURATION_BINS.length + 1).fill(0)}
}

export function binOf(ms: number): number {
  let i = 0
  while (i < DURATION_BINS.length && ms > DURATION_BINS[i]) i++
  return i
}

/** Adds `b` into `a` (same bucket and operation). */
export function mergeDelta(a: UsageDelta, b: Pick<UsageDelta, 'count' | 'totalMs' | 'maxMs' | 'totalResults' | 'hist'>): void {
  a.count += b.count
  a.totalMs += b.totalMs
  a.maxMs = Math.max(a.maxMs, b.maxMs)
  a.totalResults += b.totalResults
  for (let i = 0; i < a.hist.length; i++) a.hist[i] += b.hist[i] ?? 0
}

// ---- the log ---------------------------------------------------------------------------------

/**
 * Appends aggregates to `<dir>/usage.log`. Only into a store directory that exists: a read in a
 * repo without a store never creates one. Best effort (a read-only store keeps no usage).
 */
export function appendUsageLog(dir: string, deltas: UsageDelta[]): boolean {
  if (deltas.length === 0 || !existsSync(dir)) return false
  try {
    assertMemDir(dir)
  } catch {
    return false // a linked .mem: no usage is kept (the store's own open reports it)
  }
  const text = deltas
    .map((d) => JSON.stringify({b: d.bucket, o: d.operation, c: d.count, t: round3(d.totalMs), m: round3(d.maxMs), r: d.totalResults, h: d.hist}))
    .join('\n')
  try {
    writeInMem(join(dir, USAGE_LOG), `${text}\n`, 'a')
    return true
  } catch {
    return false
  }
}

export function usageLogBytes(dir: string): number {
  try {
    return statSync(join(dir, USAGE_LOG)).size
  } catch {
    return 0
  }
}

/** The aggregates in a log file; malformed lines (a torn append) are skipped. */
export function parseUsageLog(text: string): UsageDelta[] {
  const out: UsageDelta[] = []
  for (const line of text.split('\n')) {
    if (!line) continue
    try {
      const r = JSON.parse(line) as {b: unknown; o: unknown; c: unknown; t: unknown; m: unknown; r: unknown; h: unknown}
      if (typeof r.b !== 'string' || typeof r.o !== 'string' || typeof r.c !== 'number' || !Array.isArray(r.h)) continue
      const d = emptyDelta(r.b, r.o)
      mergeDelta(d, {count: r.c, totalMs: Number(r.t) || 0, maxMs: Number(r.m) || 0, totalResults: Number(r.r) || 0, hist: r.h.map(Number)})
      out.push(d)
    } catch {
      // a torn last line
    }
  }
  return out
}

export function readUsageLog(dir: string): UsageDelta[] {
  try {
    return parseUsageLog(readInMem(join(dir, USAGE_LOG), 'utf8'))
  } catch {
    return []
  }
}

/**
 * Moves the log aside and returns its aggregates (merged per bucket and operation). Called under
 * the writer lock, so two roll-ups never fold the same lines.
 */
export function takeUsageLog(dir: string): UsageDelta[] {
  const from = join(dir, USAGE_LOG)
  const aside = `${from}.${nodeCrypto().randomBytes(4).toString('hex')}.rolling`
  try {
    renameSync(from, aside)
  } catch {
    return []
  }
  try {
    return mergeAll(parseUsageLog(readInMem(aside, 'utf8')))
  } finally {
    try {
      unlinkSync(aside)
    } catch {
      // already gone
    }
  }
}

export function mergeAll(deltas: UsageDelta[]): UsageDelta[] {
  const byKey = new Map<string, UsageDelta>()
  for (const d of deltas) {
    const key = `${d.bucket}\0${d.operation}`
    const cur = byKey.get(key)
    if (cur) mergeDelta(cur, d)
    else byKey.set(key, {...d, hist: [...d.hist]})
  }
  return [...byKey.values()]
}

// ---- the tables ------------------------------------------------------------------------------

const UPSERT = (table: string, key: string) => `
  INSERT INTO ${table} (${key}, operation, count, total_ms, max_ms, total_results, hist) VALUES (?, ?, ?, ?, ?, ?, ?)
  ON CONFLICT(${key}, operation) DO UPDATE SET count = count + excluded.count, total_ms = total_ms + excluded.total_ms,
    max_ms = max(max_ms, excluded.max_ms), total_results = total_results + excluded.total_results, hist = ?`

function upsert(db: Db, table: 'usage_hourly' | 'usage_daily', d: UsageDelta): void {
  const key = table === 'usage_hourly' ? 'hour' : 'day'
  const existing = db.get<{hist: string}>(`SELECT hist FROM ${table} WHERE ${key} = ? AND operation = ?`, [d.bucket, d.operation])
  const hist = [...d.hist]
  if (existing) {
    const old = JSON.parse(existing.hist) as number[]
    for (let i = 0; i < hist.length; i++) hist[i] += old[i] ?? 0
  }
  const histText = JSON.stringify(hist)
  db.run(UPSERT(table, key), [d.bucket, d.operation, d.count, d.totalMs, d.maxMs, d.totalResults, histText, histText])
}

/**
 * Applies a roll-up (the journal's `usage` op): adds the hourly aggregates, folds hourly rows
 * before `hourlyBefore` into daily rows, and drops daily rows before `dailyBefore`.
 * Deterministic given its arguments, so a replay gives the same tables.
 */
export function applyUsage(db: Db, rows: UsageDelta[], hourlyBefore: string, dailyBefore: string): void {
  for (const d of rows) upsert(db, d.bucket.length > 10 ? 'usage_hourly' : 'usage_daily', d)
  const old = db.all<Record<string, unknown>>(`SELECT * FROM usage_hourly WHERE hour < ?`, [hourlyBefore])
  for (const r of old) upsert(db, 'usage_daily', rowToDelta(r, (r.hour as string).slice(0, 10)))
  db.run(`DELETE FROM usage_hourly WHERE hour < ?`, [hourlyBefore])
  db.run(`DELETE FROM usage_daily WHERE day < ?`, [dailyBefore])
}

function rowToDelta(r: Record<string, unknown>, bucket: string): UsageDelta {
  return {
    bucket,
    operation: r.operation as string,
    count: r.count as number,
    totalMs: r.total_ms as number,
    maxMs: r.max_ms as number,
    totalResults: r.total_results as number,
    hist: JSON.parse(r.hist as string) as number[],
  }
}

/** Hourly rows from `fromHour` (`YYYY-MM-DDTHH`) and daily rows from `fromDay` on. */
export function usageRows(db: Db, fromHour: string, fromDay: string): UsageDelta[] {
  const hourly = db.all<Record<string, unknown>>(`SELECT * FROM usage_hourly WHERE hour >= ?`, [fromHour]).map((r) => rowToDelta(r, r.hour as string))
  const daily = db.all<Record<string, unknown>>(`SELECT * FROM usage_daily WHERE day >= ?`, [fromDay]).map((r) => rowToDelta(r, r.day as string))
  return [...hourly, ...daily]
}

/** The p-th percentile (0..100) of a histogram, as the upper bound of its bin, capped by the maximum seen. */
export function histPercentile(hist: number[], p: number, maxMs: number): number {
  const total = hist.reduce((a, b) => a + b, 0)
  if (total === 0) return 0
  const rank = Math.ceil((p / 100) * total)
  let seen = 0
  for (let i = 0; i < hist.length; i++) {
    seen += hist[i]
    if (seen >= rank) return Math.min(i < DURATION_BINS.length ? DURATION_BINS[i] : maxMs, maxMs)
  }
  return maxMs
}

function round3(n: number): number {
  return Math.round(n * 1000) / 1000
}
