// A separate writer process for durability tests: stores `count` memories into `repo`, printing
// each acknowledged id on its own line as soon as the store returns.
import {openMem} from '../../dist/src/runtime/open-mem.js'
import {store} from '../../dist/src/operations/store.js'

const [repo, home, label, countArg] = process.argv.slice(2)
const count = Number(countArg)
const ctx = openMem({home, cwd: repo})
for (let i = 0; i < count; i++) {
  const r = await store(ctx, {repo, content: `${label} writer memory number ${i}: the ${label} subsystem note ${i * 7919}`, type: 'observation'})
  if (!r.success) {
    process.stderr.write(`not stored: ${JSON.stringify(r)}\n`)
    process.exit(1)
  }
  process.stdout.write(`${r.id}\n`)
}
await ctx.close()
