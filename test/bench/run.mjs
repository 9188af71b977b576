// `npm run bench`: every benchmark, printing figures. Nothing here asserts a timing.
import {benchStorage} from './storage.mjs'
import {benchRecallLatency, benchRecallQuality} from './recall.mjs'
import {benchMcp} from './mcp.mjs'
import {benchServer} from './server.mjs'
import {benchMaintenance} from './maintenance.mjs'
import {benchUi} from './ui.mjs'
import {benchIntake} from './intake.mjs'
import {benchPacks} from './packs.mjs'
import {benchUsage} from './usage.mjs'
import {benchTui} from './tui.mjs'
import {benchLocomo} from './recall/locomo.mjs'
import {benchCurrency} from './currency/run.mjs'
import {benchIntakeReplay} from './currency/intake-replay.mjs'
import {ablation} from './recall/ablation.mjs'
import {benchRecallKinds} from './recall/kinds.mjs'
import {benchHooks} from './hooks.mjs'
import {benchMeaning} from './recall/meaning.mjs'
import {benchAdversarial} from './adversarial.mjs'
import {benchTeamAppend} from './team-append.mjs'

const started = performance.now()
console.log(`mem benchmarks — node ${process.version}, ${(await import('node:os')).cpus().length} cores`)
await benchRecallQuality()
await benchLocomo()
await benchMeaning()
// an ONNX model of MiniLM's shape beside the built-in one: its encoder is written by a TypeScript test helper (tsx)
{
  const {spawnSync} = await import('node:child_process')
  const r = spawnSync(process.execPath, ['--import', 'tsx', new URL('./recall/onnx-cost.mjs', import.meta.url).pathname], {stdio: 'inherit'})
  if (r.status !== 0) throw new Error(`test/bench/recall/onnx-cost.mjs failed (exit ${r.status})`)
}
await ablation()
await benchCurrency()
await benchIntakeReplay()
await benchStorage()
await benchRecallLatency()
await benchRecallKinds()
await benchServer()
await benchMcp()
await benchMaintenance()
await benchUi()
await benchIntake()
await benchPacks()
await benchUsage()
await benchTui()
await benchHooks()
await benchAdversarial()
await benchTeamAppend()
console.log(`\ndone in ${((performance.now() - started) / 1000).toFixed(0)} s`)
