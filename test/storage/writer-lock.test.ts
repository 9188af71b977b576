// The store's writer lock (src/storage/writer-lock.ts), driven directly: one section at a time,
// in call order, kept for a burst and given up after it, and what runs before it is given up.
import {existsSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {acquireWriteLock} from '../../src/storage/lock.js'
import {LingeringWriterLock} from '../../src/storage/writer-lock.js'
import {eventually} from '../helpers/server.js'
import {tempDir} from '../helpers/mem.js'

const lockDir = (dir: string) => join(dir, 'write.lock')

describe('LingeringWriterLock', () => {
  it('runs sections one at a time in call order, holding write.lock, and returns their values', async () => {
    const dir = tempDir()
    const lock = new LingeringWriterLock(dir, {staleMs: 5_000, lingerMs: 0})
    const order: number[] = []
    const held: boolean[] = []
    const runs = [1, 2, 3].map((i) =>
      lock.run(() => {
        order.push(i)
        held.push(existsSync(lockDir(dir)))
        return i * 10
      }),
    )
    expect(await Promise.all(runs)).toEqual([10, 20, 30])
    expect(order).toEqual([1, 2, 3])
    expect(held).toEqual([true, true, true])
    await eventually(() => !existsSync(lockDir(dir))) // lingerMs 0: given up after each section, without waiting
    await lock.close()
    expect(existsSync(lockDir(dir))).toBe(false)
  })

  it('a section that throws rejects its own run only; the next section runs', async () => {
    const dir = tempDir()
    const lock = new LingeringWriterLock(dir, {staleMs: 5_000, lingerMs: 0})
    const failing = lock.run(() => {
      throw new Error('planned failure')
    })
    const next = lock.run(() => 'after')
    await expect(failing).rejects.toThrow('planned failure')
    expect(await next).toBe('after')
    await lock.close()
  })

  it('keeps the lock after a section while lingering, and gives it up after (beforeRelease runs while held, once per burst)', async () => {
    const dir = tempDir()
    const released: boolean[] = []
    const lock = new LingeringWriterLock(dir, {staleMs: 5_000, lingerMs: 30, beforeRelease: () => released.push(existsSync(lockDir(dir)))})
    await lock.run(() => undefined)
    await lock.run(() => undefined)
    expect(lock.isHeld).toBe(true)
    expect(existsSync(lockDir(dir))).toBe(true)
    await eventually(() => !lock.isHeld)
    // isHeld turns false as the release starts; close() waits for the release under way to finish
    await lock.close()
    expect(existsSync(lockDir(dir))).toBe(false)
    expect(released).toEqual([true])
    // another holder can take it now
    const release = await acquireWriteLock(dir, 5_000, 1_000)
    await release()
    expect(released).toEqual([true]) // nothing held at close: nothing more to run
  })

  it('close gives the lock up at once, after the sections already asked for', async () => {
    const dir = tempDir()
    let beforeRelease = 0
    const lock = new LingeringWriterLock(dir, {staleMs: 5_000, lingerMs: 60_000, beforeRelease: () => beforeRelease++})
    const ran: string[] = []
    const pending = lock.run(() => ran.push('a'))
    await lock.close()
    await pending
    expect(ran).toEqual(['a'])
    expect(lock.isHeld).toBe(false)
    expect(existsSync(lockDir(dir))).toBe(false)
    expect(beforeRelease).toBe(1)
  })

  it('waits for a lock another holder has, and fails with a named error when it cannot be taken', async () => {
    const dir = tempDir()
    const other = await acquireWriteLock(dir, 5_000, 1_000)
    const lock = new LingeringWriterLock(dir, {staleMs: 5_000, lingerMs: 0})
    let ran = false
    const waiting = lock.run(() => (ran = true))
    await new Promise((r) => setTimeout(r, 50))
    expect(ran).toBe(false) // still held by the other
    await other()
    await waiting
    expect(ran).toBe(true)
    await lock.close()
    // a folder that cannot hold the lock: the error names the store and says nothing was written
    const missing = new LingeringWriterLock(join(dir, 'no', 'such'), {staleMs: 5_000, lingerMs: 0})
    await expect(missing.run(() => 1)).rejects.toThrow(/Could not lock the memory store .*no\/such/)
  })
})
