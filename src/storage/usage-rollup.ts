import type {Db} from './db.js'
import type {Op} from './memories.js'
import {DAILY_KEEP_DAYS, HOURLY_KEEP_DAYS, takeUsageLog} from './usage.js'

const DAY_MS = 24 * 60 * 60 * 1000

/** The buckets a roll-up at `now` compacts: hourly rows before `hourlyBefore` become daily rows, daily rows before `dailyBefore` go. */
export function usageCutoffs(now: Date): {hourlyBefore: string; dailyBefore: string} {
  return {
    hourlyBefore: new Date(now.getTime() - HOURLY_KEEP_DAYS * DAY_MS).toISOString().slice(0, 13),
    dailyBefore: new Date(now.getTime() - DAILY_KEEP_DAYS * DAY_MS).toISOString().slice(0, 10),
  }
}

/**
 * The write that folds the store's `usage.log` (in `dir`, its `.mem` folder) into the usage tables
 * and compacts them as of `now`: one `usage` op, whose result is how many aggregates the log held.
 * Runs under the writer lock (RepoStore.write): it takes the log, so no other process folds it twice.
 * No op when the log is empty and nothing is old enough to compact.
 */
export function planUsageRollUp(dir: string, db: Db, now: Date): {ops: Op[]; result: number} {
  const {hourlyBefore, dailyBefore} = usageCutoffs(now)
  const rows = takeUsageLog(dir)
  const stale = db.get(`SELECT 1 AS x FROM usage_hourly WHERE hour < ? LIMIT 1`, [hourlyBefore]) ?? db.get(`SELECT 1 AS x FROM usage_daily WHERE day < ? LIMIT 1`, [dailyBefore])
  if (rows.length === 0 && !stale) return {ops: [], result: 0}
  return {ops: [{op: 'usage', rows, hourlyBefore, dailyBefore}], result: rows.length}
}
