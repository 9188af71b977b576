// A separate writer process for durability tests: stores `count` memories into `repo`, printing
// each acknowledged id on its own line as soon as the store returns. It prints `ready` once loaded
// and waits for a line on standard input before the first store, so two writers start together.
// With `pauseEvery` N > 0 it rests 60 ms after every N stores: longer than the store keeps the
// writer lock after a write (20 ms, storage/writer-lock.ts) plus a waiting process's retry (at most
// 40 ms), so a writer waiting for the lock takes it then, and two writers hand it back and forth
// (each catching up on the other's records) instead of one holding it through its whole burst.
import {createInterface} from 'node:readline'
import {openMem} from '../../dist/src/runtime/open-mem.js'
import {store} from '../../dist/src/operations/store.js'

const [repo, home, label, countArg, pauseArg = '0'] = process.argv.slice(2)
const count = Number(countArg)
const pauseEvery = Number(pauseArg)
const ctx = openMem({home, cwd: repo})
process.stdout.write('ready\n')
const lines = createInterface({input: process.stdin})
await new Promise((resolve) => lines.once('line', resolve))
lines.close()
for (let i = 0; i < count; i++) {
  const r = await store(ctx, {repo, content: `${label} writer memory number ${i}: the ${label} subsystem note ${i * 7919}`, type: 'observation'})
  if (!r.success) {
    process.stderr.write(`not stored: ${JSON.stringify(r)}\n`)
    process.exit(1)
  }
  process.stdout.write(`${r.id}\n`)
  if (pauseEvery > 0 && (i + 1) % pauseEvery === 0) await new Promise((resolve) => setTimeout(resolve, 60))
}
await ctx.close()
