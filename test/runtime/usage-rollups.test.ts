// The roll-ups of large usage logs in a process (src/runtime/usage-rollups.ts), driven directly on
// real stores: only stores open here, only logs past the threshold, failures left for next time.
import {describe, expect, it} from 'vitest'
import {UsageRollUps} from '../../src/runtime/usage-rollups.js'
import {usageLogBytes} from '../../src/storage/usage.js'
import {madeStore, logOf} from '../helpers/usage.js'

const NOW = new Date('2026-03-01T12:00:00.000Z')


describe('UsageRollUps', () => {
  it('rolls up only the open stores whose log passed the threshold, and ignores a store that fails', async () => {
    const a = await madeStore()
    const b = await madeStore()
    const c = await madeStore()
    const open = new Map([[a.root, a.store], [b.root, b.store]]) // c is not open in this process
    const rollUps = new UsageRollUps((root) => (open.has(root) ? Promise.resolve(open.get(root)!) : undefined), () => NOW)
    try {
      logOf(a.dir, ['2026-03-01T11', '2026-03-01T10', '2026-03-01T09'])
      logOf(b.dir, ['2026-03-01T11'])
      logOf(c.dir, ['2026-03-01T11', '2026-03-01T10', '2026-03-01T09'])
      const threshold = usageLogBytes(a.dir)
      expect(usageLogBytes(b.dir)).toBeLessThan(threshold)
      await rollUps.rollUpLarge([a.root, b.root, c.root], threshold)
      await rollUps.settled()
      expect(usageLogBytes(a.dir)).toBe(0) // folded
      expect(usageLogBytes(b.dir)).toBeGreaterThan(0) // below the threshold
      expect(usageLogBytes(c.dir)).toBe(threshold) // not open here
      // a closed store refuses the roll-up: the error is swallowed and its log waits
      await b.store.close()
      await rollUps.rollUpLarge([b.root], 1)
      expect(usageLogBytes(b.dir)).toBeGreaterThan(0)
    } finally {
      await a.store.close()
      await b.store.close()
      await c.store.close()
    }
  })
})
