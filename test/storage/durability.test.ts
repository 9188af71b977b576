import {spawn} from 'node:child_process'
import {mkdirSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {get} from '../../src/operations/get.js'
import {stats} from '../../src/operations/stats.js'
import {store} from '../../src/operations/store.js'
import {openMem} from '../../src/runtime/open-mem.js'
import {tempDir} from '../helpers/mem.js'

const WRITER = join(import.meta.dirname, '..', 'helpers', 'writer.mjs')

function writer(repo: string, home: string, label: string, count: number) {
  const child = spawn(process.execPath, [WRITER, repo, home, label, String(count)], {stdio: ['ignore', 'pipe', 'pipe']})
  const acked: string[] = []
  let buf = ''
  let stderr = ''
  child.stdout.on('data', (d: Buffer) => {
    buf += d.toString()
    const lines = buf.split('\n')
    buf = lines.pop()!
    acked.push(...lines.filter(Boolean))
  })
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
  const done = new Promise<number | null>((resolve) => child.on('close', (code) => resolve(code)))
  return {child, acked, done, stderr: () => stderr}
}

function setup() {
  const base = tempDir()
  const repo = join(base, 'repo')
  const home = join(base, 'home')
  mkdirSync(join(repo, '.git'), {recursive: true})
  return {repo, home}
}

describe('durability across processes', () => {
  it('two processes storing 500 memories each at the same time end with all 1,000', async () => {
    const {repo, home} = setup()
    const a = writer(repo, home, 'alpha', 500)
    const b = writer(repo, home, 'beta', 500)
    const [ca, cb] = await Promise.all([a.done, b.done])
    expect(a.stderr()).toBe('')
    expect(b.stderr()).toBe('')
    expect([ca, cb]).toEqual([0, 0])
    expect(a.acked.length + b.acked.length).toBe(1000)

    const ctx = openMem({home, cwd: repo})
    try {
      expect((await stats(ctx, {repo})).counts.observation).toBe(1000)
      for (const id of [...a.acked, ...b.acked]) expect((await get(ctx, {id})).id).toBe(id)
    } finally {
      await ctx.close()
    }
  }, 120_000)

  it('a writer killed with SIGKILL mid-stream loses no acknowledged store; the repo opens and writes cleanly', async () => {
    const {repo, home} = setup()
    const w = writer(repo, home, 'doomed', 100_000)
    await new Promise<void>((resolve, reject) => {
      const started = Date.now()
      const poll = setInterval(() => {
        if (w.acked.length >= 300) {
          clearInterval(poll)
          w.child.kill('SIGKILL')
          resolve()
        } else if (Date.now() - started > 60_000) {
          clearInterval(poll)
          w.child.kill('SIGKILL')
          reject(new Error(`writer acknowledged only ${w.acked.length} stores: ${w.stderr()}`))
        }
      }, 2)
    })
    await w.done
    const acked = [...w.acked]
    expect(acked.length).toBeGreaterThanOrEqual(300)

    const ctx = openMem({home, cwd: repo})
    try {
      const total = (await stats(ctx, {repo})).total
      expect(total).toBeGreaterThanOrEqual(acked.length)
      for (const id of acked) expect((await get(ctx, {id})).id).toBe(id)
      // The dead writer's lock goes stale and a new write succeeds.
      const r = await store(ctx, {repo, content: 'written after the crash', type: 'insight'})
      expect(r.success).toBe(true)
    } finally {
      await ctx.close()
    }
    const again = openMem({home, cwd: repo})
    try {
      expect((await stats(again, {repo})).counts.insight).toBe(1)
    } finally {
      await again.close()
    }
  }, 120_000)
})
