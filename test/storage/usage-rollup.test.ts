// The usage roll-up (src/storage/usage-rollup.ts), driven directly: which buckets a roll-up
// compacts, and the write it plans from `.mem/usage.log`.
import {existsSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {USAGE_LOG} from '../../src/storage/usage.js'
import {planUsageRollUp, usageCutoffs} from '../../src/storage/usage-rollup.js'
import {madeStore, logOf} from '../helpers/usage.js'

const NOW = new Date('2026-03-01T12:00:00.000Z')


describe('usage roll-up', () => {
  it('keeps hourly rows 35 days and daily rows 400 days back from now', () => {
    expect(usageCutoffs(NOW)).toEqual({hourlyBefore: '2026-01-25T12', dailyBefore: '2025-01-25'})
    expect(usageCutoffs(new Date('2026-01-01T00:30:00.000Z'))).toEqual({hourlyBefore: '2025-11-27T00', dailyBefore: '2024-11-27'})
  })

  it('plans nothing for an empty log and tables with nothing old, and leaves the folder alone', async () => {
    const {dir, store} = await madeStore()
    try {
      expect(store.read((db) => planUsageRollUp(dir, db, NOW))).toEqual({ops: [], result: 0})
      expect(existsSync(join(dir, USAGE_LOG))).toBe(false)
    } finally {
      await store.close()
    }
  })

  it('takes the log (merged per bucket and operation) into one usage op with the cutoffs', async () => {
    const {dir, store} = await madeStore()
    try {
      logOf(dir, ['2026-03-01T11', '2026-03-01T11', '2026-03-01T10'])
      const plan = store.read((db) => planUsageRollUp(dir, db, NOW))
      expect(plan.result).toBe(2)
      expect(plan.ops).toHaveLength(1)
      expect(plan.ops[0]).toMatchObject({op: 'usage', hourlyBefore: '2026-01-25T12', dailyBefore: '2025-01-25'})
      const rows = (plan.ops[0] as {rows: Array<{bucket: string; count: number}>}).rows
      expect(rows.map((r) => [r.bucket, r.count]).sort()).toEqual([['2026-03-01T10', 2], ['2026-03-01T11', 4]])
      // taken: a second plan finds no log
      expect(existsSync(join(dir, USAGE_LOG))).toBe(false)
      expect(store.read((db) => planUsageRollUp(dir, db, NOW))).toEqual({ops: [], result: 0})
    } finally {
      await store.close()
    }
  })

  it('plans a compaction when only old rows wait, with no log', async () => {
    const {dir, store} = await madeStore()
    try {
      logOf(dir, ['2026-01-10T08'])
      expect(await store.rollUpUsage(new Date('2026-01-11T00:00:00.000Z'))).toBe(1) // an hour then
      expect(store.read((db) => planUsageRollUp(dir, db, NOW))).toEqual({ops: [{op: 'usage', rows: [], hourlyBefore: '2026-01-25T12', dailyBefore: '2025-01-25'}], result: 0})
      expect(await store.rollUpUsage(NOW)).toBe(0) // compacted into its day
      expect(store.read((db) => planUsageRollUp(dir, db, NOW))).toEqual({ops: [], result: 0})
    } finally {
      await store.close()
    }
  })
})
