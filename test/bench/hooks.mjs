// Agent hooks benchmark (issue 18): the cold `mem hook session-start` on a 10k-memory repo beside
// `node -e 0`, side by side (medians of 15): served from the cached context (the usual case: no
// memory changed since the last session start, recall's access records aside), and rebuilt (a
// memory changed: the store and the tokenizer load). Then a cold `mem hook prompt`. Prints figures,
// asserts nothing. Run: node test/bench/hooks.mjs [memories]
import {rmSync} from 'node:fs'
import {join} from 'node:path'
import {loadavg} from 'node:os'
import {seedRepo} from './lib/seed.mjs'
import {BIN, fmt, tempRepo, wallTimesSideBySide} from './lib/util.mjs'

export async function benchHooks(size = 10_000) {
  const {root, home} = tempRepo('hooks')
  await seedRepo(root, size)
  const env = {MEM_HOME: home, MEM_REPO: ''}
  const input = (extra = {}) => JSON.stringify({session_id: `bench-${Math.random()}`, cwd: root, hook_event_name: 'SessionStart', source: 'startup', ...extra})
  const start = {args: [BIN, 'hook', 'session-start', '--host', 'claude'], env, cwd: root, input: input()}
  const miss = {...start, before: () => rmSync(join(root, '.mem', 'hooks', 'context.json'), {force: true})}
  const prompt = {args: [BIN, 'hook', 'prompt', '--host', 'claude'], env, cwd: root, input: input({hook_event_name: 'UserPromptSubmit', prompt: 'how do I run the integration tests in CI?'})}
  const [nodeMs, hitMs, missMs, promptMs] = wallTimesSideBySide([{args: ['-e', '0']}, start, miss, prompt], {runs: 15})
  console.log(`\n== agent hooks (issue 18): ${size.toLocaleString('en-US')} memories, load ${loadavg().map((l) => l.toFixed(2)).join(' ')} ==`)
  console.log('node -e 0 | session-start, cached context | session-start, context rebuilt | prompt (recall + filter)')
  console.log(`${fmt(nodeMs, 0)} ms | ${fmt(hitMs, 0)} ms (${fmt(hitMs / nodeMs)}×) | ${fmt(missMs, 0)} ms (${fmt(missMs / nodeMs)}×) | ${fmt(promptMs, 0)} ms (${fmt(promptMs / nodeMs)}×)`)
  return {nodeMs, hitMs, missMs, promptMs}
}

if (import.meta.url === `file://${process.argv[1]}`) await benchHooks(Number(process.argv[2] ?? 10_000))
