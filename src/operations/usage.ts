import {join} from 'node:path'
import {z} from 'zod'
import {histPercentile, mergeAll, readUsageLog, usageRows, type UsageDelta} from '../storage/usage.js'
import type {MemContext, RepoHandle} from '../engines/context.js'
import {RepoRef} from '../model/schemas.js'
import {parseInput} from '../model/validate.js'
import type {UsageResult, DailyBucket, UsageTimeseries, UsageHourly} from '../model/shapes/insight.js'
export type {OperationUsage, UsageResult, DailyBucket, UsageTimeseries, UsageHourly} from '../model/shapes/insight.js'

const DAY_MS = 24 * 60 * 60 * 1000
export const DEFAULT_USAGE_DAYS = 30
export const DEFAULT_HOURLY_DAYS = 7
export const MAX_USAGE_DAYS = 365
export const MAX_HOURLY_DAYS = 31

export const UsageInput = z.object({
  repo: RepoRef,
  days: z.number().int().min(1, `days must be 1 to ${MAX_USAGE_DAYS}`).max(MAX_USAGE_DAYS, `days must be 1 to ${MAX_USAGE_DAYS}`).default(DEFAULT_USAGE_DAYS),
})
export type UsageInput = z.input<typeof UsageInput>

export const UsageHourlyInput = z.object({
  repo: RepoRef,
  days: z.number().int().min(1, `days must be 1 to ${MAX_HOURLY_DAYS}`).max(MAX_HOURLY_DAYS, `days must be 1 to ${MAX_HOURLY_DAYS}`).default(DEFAULT_HOURLY_DAYS),
})
export type UsageHourlyInput = z.input<typeof UsageHourlyInput>

/**
 * The aggregates of a repo from `fromDay` (YYYY-MM-DD) on: the tables, the log, and this process's
 * pending counts (a recorder that keeps them apart gives them; else it writes them to the log first).
 */
function aggregates(ctx: MemContext, handle: RepoHandle, fromDay: string): UsageDelta[] {
  const fromHour = `${fromDay}T00`
  const unwritten = ctx.usage?.pendingOf?.(handle.root) ?? null
  if (!unwritten) ctx.usage?.flush()
  const pending = (unwritten ?? []).filter((d) => d.bucket >= fromHour)
  const stored = handle.store.read((db) => usageRows(db, fromHour, fromDay))
  const logged = readUsageLog(join(handle.root, '.mem')).filter((d) => d.bucket >= fromHour)
  return mergeAll([...stored, ...logged, ...pending])
}

function windowStart(now: Date, days: number): Date {
  const today = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate())
  return new Date(today - (days - 1) * DAY_MS)
}

const round = (n: number, digits = 2) => Math.round(n * 10 ** digits) / 10 ** digits

/**
 * Usage of a repo over the last `days` UTC days (today included): calls per operation with
 * their mean and 95th-percentile duration and mean result count. Every operation of every face
 * (CLI, HTTP, MCP) is counted; counts reach this answer within seconds (a long-lived process
 * appends them every 5 s) and in the same process at once.
 */
export async function usage(ctx: MemContext, raw: UsageInput): Promise<UsageResult> {
  const input = parseInput(UsageInput, raw)
  const handle = await ctx.repo(input.repo, 'read')
  const result = usageSummary(ctx, handle, ctx.now(), input.days, input.repo)
  return result
}

/** The usage summary of an open repo (the portal includes it). */
export function usageSummary(ctx: MemContext, handle: RepoHandle, now: Date, days: number, repo: string): UsageResult {
  const from = windowStart(now, days)
  const byOp = new Map<string, UsageDelta>()
  for (const d of aggregates(ctx, handle, from.toISOString().slice(0, 10))) {
    const cur = byOp.get(d.operation)
    if (cur) {
      cur.count += d.count
      cur.totalMs += d.totalMs
      cur.maxMs = Math.max(cur.maxMs, d.maxMs)
      cur.totalResults += d.totalResults
      for (let i = 0; i < cur.hist.length; i++) cur.hist[i] += d.hist[i] ?? 0
    } else byOp.set(d.operation, {...d, hist: [...d.hist]})
  }
  const operations = [...byOp.values()]
    .filter((d) => d.count > 0)
    .sort((a, b) => b.count - a.count || a.operation.localeCompare(b.operation))
    .map((d) => ({
      operation: d.operation,
      count: d.count,
      avgDurationMs: round(d.totalMs / d.count),
      p95DurationMs: round(histPercentile(d.hist, 95, d.maxMs)),
      avgResults: round(d.totalResults / d.count),
    }))
  return {
    repo,
    days,
    from: from.toISOString(),
    to: now.toISOString(),
    total: operations.reduce((n, o) => n + o.count, 0),
    operations,
  }
}

/** Calls per UTC day over the last `days` days, oldest first; every day is present (zeros included). */
export async function usageTimeseries(ctx: MemContext, raw: UsageInput): Promise<UsageTimeseries> {
  const input = parseInput(UsageInput, raw)
  const handle = await ctx.repo(input.repo, 'read')
  const buckets = dailyBuckets(ctx, handle, ctx.now(), input.days)
  return {repo: input.repo, days: input.days, buckets}
}

/** The daily buckets of a repo (also part of the portal). */
export function dailyBuckets(ctx: MemContext, handle: RepoHandle, now: Date, days: number): DailyBucket[] {
  const from = windowStart(now, days)
  const buckets: DailyBucket[] = []
  const index = new Map<string, DailyBucket>()
  for (let i = 0; i < days; i++) {
    const date = new Date(from.getTime() + i * DAY_MS).toISOString().slice(0, 10)
    const bucket = {date, count: 0, byOperation: {} as Record<string, number>}
    buckets.push(bucket)
    index.set(date, bucket)
  }
  for (const d of aggregates(ctx, handle, buckets[0].date)) {
    const bucket = index.get(d.bucket.slice(0, 10))
    if (!bucket || d.count === 0) continue
    bucket.count += d.count
    bucket.byOperation[d.operation] = (bucket.byOperation[d.operation] ?? 0) + d.count
  }
  return buckets
}

/** Calls per UTC hour over the last `days` × 24 hours (the current hour last); every hour is present. */
export async function usageHourly(ctx: MemContext, raw: UsageHourlyInput): Promise<UsageHourly> {
  const input = parseInput(UsageHourlyInput, raw)
  const handle = await ctx.repo(input.repo, 'read')
  const now = ctx.now()
  const hourMs = 60 * 60 * 1000
  const last = Math.floor(now.getTime() / hourMs) * hourMs
  const hours = input.days * 24
  const first = last - (hours - 1) * hourMs
  const buckets: Array<{hour: string; count: number}> = []
  const index = new Map<string, {hour: string; count: number}>()
  for (let i = 0; i < hours; i++) {
    const iso = new Date(first + i * hourMs).toISOString()
    const bucket = {hour: iso, count: 0}
    buckets.push(bucket)
    index.set(iso.slice(0, 13), bucket)
  }
  for (const d of aggregates(ctx, handle, new Date(first).toISOString().slice(0, 10))) {
    const bucket = index.get(d.bucket)
    if (bucket) bucket.count += d.count
  }
  return {repo: input.repo, days: input.days, buckets}
}
