// What meaning costs a cold command (issue 30's cost rows): at 10,000 memories, every one with its
// vector from the model MEM_BENCH_MEANING_MODEL names (static, the default, or builtin), the wall time of `mem recall` (a question whose words a memory
// holds, and one only meaning answers), of the prompt hook and of the session-start hook, each
// beside `node -e 0` and the same command with MEM_MEANING=off, run side by side. The memories'
// vectors are random unit vectors under the model's id (embedding 10,000 notes with USE-lite takes
// minutes and the cost of a recall does not depend on their values); the question's vector is the model's.
import {join} from 'node:path'
import {rmSync} from 'node:fs'
import {loadavg} from 'node:os'
import {openMem} from '../../../dist/src/runtime/open-mem.js'
import {BUILTIN_ID} from '../../../dist/src/engines/meaning/builtin.js'
import {loadStaticTable} from '../../../dist/src/engines/meaning/static-table.js'
import {liveWithoutVectorFrom, vectorBytes} from '../../../dist/src/storage/vectors.js'
import {hookStateDir} from '../../../dist/src/storage/hook-state.js'
import {loadEvalSet, rng} from '../lib/corpus.mjs'
import {recall} from '../../../dist/src/operations/recall.js'
import {percentile} from '../lib/util.mjs'
import {seedRepo} from '../lib/seed.mjs'
import {BIN, fmt, tempRepo, wallTimesSideBySide} from '../lib/util.mjs'

export async function benchMeaningCost(size = Number(process.env.MEM_BENCH_MEANING_SIZE ?? 10_000), setting = process.env.MEM_BENCH_MEANING_MODEL ?? 'static') {
  const staticModel = setting === 'static' ? loadStaticTable() : null
  const MODEL_ID = staticModel ? staticModel.id : BUILTIN_ID
  const DIMS = staticModel ? staticModel.dims : 512
  const {root, home} = tempRepo('meaning-cost')
  await seedRepo(root, size)
  const ctx = openMem({home, cwd: root, meaning: {model: 'off'}})
  const handle = await ctx.repo(root, 'read')
  const rand = rng(3)
  let embedded = 0
  for (;;) {
    const batch = handle.store.read((db) => liveWithoutVectorFrom(db, MODEL_ID, 0, 2_000))
    if (batch.length === 0) break
    const at = new Date().toISOString()
    await handle.store.write(() => ({
      ops: batch.map((m) => {
        const v = new Float32Array(DIMS).map(() => rand() - 0.5)
        const n = Math.hypot(...v)
        return {op: 'vector', id: m.id, model: MODEL_ID, dims: DIMS, vector: Buffer.from(vectorBytes(v.map((x) => x / n))).toString('base64'), at}
      }),
      result: null,
    }))
    embedded += batch.length
  }
  await ctx.close()
  // one recall to leave the recall index current
  wallTimesSideBySide([{args: [BIN, 'recall', 'warm up', '--json'], env: {MEM_HOME: home, MEM_REPO: ''}, cwd: root}], {runs: 1})
  const on = {MEM_HOME: home, MEM_REPO: '', MEM_MEANING: setting}
  const off = {...on, MEM_MEANING: 'off'}
  const words = 'integration tests'
  const meaning = 'where do the nightly numbers get written down?'
  // a new session every run (a session given the context is not given it again), and the context cache
  // where it lives, MEM_HOME/hooks/<repo key>/ (storage/hook-state.ts)
  const hookInput = (extra) => JSON.stringify({session_id: `bench-${Math.random()}`, cwd: root, hook_event_name: 'SessionStart', source: 'startup', ...extra})
  const prompt = (env) => ({args: [BIN, 'hook', 'prompt', '--host', 'claude'], env, cwd: root, input: () => hookInput({hook_event_name: 'UserPromptSubmit', prompt: 'how do I run the integration tests in CI?'})})
  const start = (env) => ({args: [BIN, 'hook', 'session-start', '--host', 'claude'], env, cwd: root, input: () => hookInput({}), before: () => rmSync(join(hookStateDir(home, root), 'context.json'), {force: true})})
  const runs = Number(process.env.MEM_BENCH_MEANING_RUNS ?? 7)
  const cmds = [
    ['node -e 0', {args: ['-e', '0']}],
    ['mem recall, meaning off', {args: [BIN, 'recall', meaning, '--json'], env: off, cwd: root}],
    [`mem recall "${words}" (words answer)`, {args: [BIN, 'recall', words, '--json'], env: on, cwd: root}],
    [`mem recall, the model asked`, {args: [BIN, 'recall', meaning, '--json'], env: on, cwd: root}],
    ['prompt hook, meaning off', prompt(off)],
    ['prompt hook, meaning on', prompt(on)],
    ['session-start hook (context rebuilt), off', start(off)],
    ['session-start hook (context rebuilt), on', start(on)],
  ]
  const times = wallTimesSideBySide(cmds.map(([, c]) => c), {runs})
  console.log(`\n-- cost (MEM_MEANING=${setting}): ${size} memories (${embedded} with a vector); median of ${runs} cold runs, side by side; load ${loadavg().map((l) => l.toFixed(1)).join(' ')} --`)
  console.log('command                                   | wall     | × node -e 0')
  cmds.forEach(([name], i) => console.log(`${name.padEnd(41).slice(0, 41)} | ${fmt(times[i], 0).padStart(5)} ms | ${fmt(times[i] / times[0], 1)}×`))
  // a cold `mem store` (a new text each run), after the rows above (a store leaves the recall index behind)
  let n = 0
  const storeCmd = (env) => ({
    get args() {
      n++
      return [BIN, 'store', `Bench note ${n}: the nightly export job ${n % 7} writes its totals to table report_${n}`, '--type', 'observation', '--json']
    },
    env,
    cwd: root,
  })
  const stores = [
    ['node -e 0', {args: ['-e', '0']}],
    ['mem store, meaning off', storeCmd(off)],
    ['mem store, meaning on', storeCmd(on)],
  ]
  const storeTimes = wallTimesSideBySide(stores.map(([, c]) => c), {runs})
  stores.forEach(([name], i) => i > 0 && console.log(`${name.padEnd(41).slice(0, 41)} | ${fmt(storeTimes[i], 0).padStart(5)} ms | ${fmt(storeTimes[i] / storeTimes[0], 1)}×`))
  // warm, in process, as `mem serve` answers (the model loaded once): per-question latency
  const server = openMem({home, cwd: root, longLived: true, meaning: {model: setting}})
  const {questions} = loadEvalSet()
  const kinds = {'own set, lexical questions': questions.filter((q) => q.kind === 'lexical').slice(0, 40), 'own set, paraphrase questions': questions.filter((q) => q.kind === 'paraphrase').slice(0, 40)}
  for (const q of questions.slice(0, 5)) await recall(server, {repo: root, q: q.q, touch: false})
  console.log('warm, in process (longLived, as mem serve) | p50 | p95')
  for (const [name, qs] of Object.entries(kinds)) {
    const ms = []
    for (let round = 0; round < 2; round++) {
      for (const q of qs) {
        const t = performance.now()
        await recall(server, {repo: root, q: q.q, touch: false})
        ms.push(performance.now() - t)
      }
    }
    console.log(`${name.padEnd(41)} | ${fmt(percentile(ms, 50), 1)} ms | ${fmt(percentile(ms, 95), 1)} ms`)
  }
  await server.close()
  rmSync(join(root, '..'), {recursive: true, force: true})
  return times
}

if (import.meta.url === `file://${process.argv[1]}`) await benchMeaningCost()
