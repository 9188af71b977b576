// Agent hooks benchmark (issue 18). Prints figures, asserts nothing.
// 1. The cold `mem hook session-start` on a 10k-memory repo beside `node -e 0`, side by side
//    (medians of 15): served from the cached context (the usual case: no memory changed since the
//    last session start, recall's access records aside), and rebuilt (a memory changed: the store
//    and the tokenizer load). Then a cold `mem hook prompt`.
// 2. What the agent sees, in cl100k tokens: the session context, the stop reminder, and the MCP
//    tools/list (lean and all).
// 3. Prompt-time injection on the recall evaluation set (350 memories, 236 questions, each asked as
//    the first prompt of its own session): how many prompts get an injection, how many injected
//    memories are among the question's relevant ones, and the tokens an injection costs; and 20
//    off-topic prompts, which should get none. The bar (src/operations/agent-hooks.ts) was chosen on
//    this same set: the precision is in-sample.
// Run: node test/bench/hooks.mjs [memories]
import {spawnSync} from 'node:child_process'
import {rmSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {loadavg} from 'node:os'
import {encode} from 'gpt-tokenizer/encoding/cl100k_base'
import {seedMemories, seedRepo} from './lib/seed.mjs'
import {loadEvalSet} from './lib/corpus.mjs'
import {BIN, fmt, percentile, tempRepo, wallTimesSideBySide} from './lib/util.mjs'
import {hookStateDir} from '../../dist/src/storage/hook-state.js'

const tokens = (text) => encode(text).length

/** Prompts about nothing the evaluation set's project knows: the hook should add nothing to them. */
const OFF_TOPIC = [
  'Write a haiku about autumn leaves', 'Explain the difference between TCP and UDP', 'Refactor this function to use async iterators',
  'What is the capital of Australia?', 'Translate this paragraph into French', 'How do I center a div with flexbox?',
  'Summarize the plot of Hamlet', 'Write a regex that matches an email address', 'What does the yield keyword do in Python?',
  'Sort this list of numbers in descending order', 'Explain big O notation with an example', 'Draft a polite email declining a meeting',
  'What is a monad?', 'Convert 100 Fahrenheit to Celsius', 'Write a bash one-liner to count lines in all .md files', 'Why is the sky blue?',
  'Implement binary search in Rust', 'What are the SOLID principles?', 'Generate a random password generator in Go',
  'How does garbage collection work in the JVM?',
]

function hookText(root, home, event, input) {
  const r = spawnSync(process.execPath, [BIN, 'hook', event, '--host', 'claude'], {cwd: root, input: JSON.stringify(input), encoding: 'utf8', env: {...process.env, MEM_HOME: home, MEM_REPO: ''}})
  if (!r.stdout.trim()) return ''
  const out = JSON.parse(r.stdout)
  return out.hookSpecificOutput?.additionalContext ?? out.reason ?? ''
}

export async function benchHooks(size = 10_000) {
  const {root, home} = tempRepo('hooks')
  await seedRepo(root, size)
  const env = {MEM_HOME: home, MEM_REPO: ''}
  const input = (extra = {}) => JSON.stringify({session_id: `bench-${Math.random()}`, cwd: root, hook_event_name: 'SessionStart', source: 'startup', ...extra})
  // a new session every run: a session that was given the context is not given it again (it prints nothing)
  const start = {args: [BIN, 'hook', 'session-start', '--host', 'claude'], env, cwd: root, input: () => input()}
  // the context cache lives in MEM_HOME/hooks/<repo key>/ (storage/hook-state.ts), not in the repo
  const miss = {...start, before: () => rmSync(join(hookStateDir(home, root), 'context.json'), {force: true})}
  const prompt = {args: [BIN, 'hook', 'prompt', '--host', 'claude'], env, cwd: root, input: () => input({hook_event_name: 'UserPromptSubmit', prompt: 'how do I run the integration tests in CI?'})}
  const [nodeMs, hitMs, missMs, promptMs] = wallTimesSideBySide([{args: ['-e', '0']}, start, miss, prompt], {runs: 15})
  console.log(`\n== agent hooks (issue 18): ${size.toLocaleString('en-US')} memories, load ${loadavg().map((l) => l.toFixed(2)).join(' ')} ==`)
  console.log('node -e 0 | session-start, cached context | session-start, context rebuilt | prompt (recall + filter)')
  console.log(`${fmt(nodeMs, 0)} ms | ${fmt(hitMs, 0)} ms (${fmt(hitMs / nodeMs)}×) | ${fmt(missMs, 0)} ms (${fmt(missMs / nodeMs)}×) | ${fmt(promptMs, 0)} ms (${fmt(promptMs / nodeMs)}×)`)
  await benchAgentTokens()
  return {nodeMs, hitMs, missMs, promptMs}
}

/** What the agent is shown, in tokens, on the evaluation set's 350 memories; then injection on its 236 questions. */
export async function benchAgentTokens() {
  const {root, home} = tempRepo('hook-tokens')
  const {memories, questions} = loadEvalSet()
  const at = Date.parse('2026-01-01T00:00:00Z')
  await seedMemories(root, memories.map((m, i) => ({...m, createdAt: new Date(at + i * 60_000).toISOString()})))
  const session = hookText(root, home, 'session-start', {session_id: 'tokens', cwd: root, hook_event_name: 'SessionStart', source: 'startup'})
  const transcript = join(root, 'transcript.jsonl')
  const lines = [
    {type: 'assistant', message: {content: [{type: 'tool_use', id: 't1', name: 'Bash', input: {command: 'npm test -- --runInBand'}}]}},
    {type: 'user', message: {content: [{type: 'tool_result', tool_use_id: 't1', is_error: true, content: 'Exit code 1\nError: unknown option --runInBand'}]}},
    {type: 'assistant', message: {content: [{type: 'tool_use', id: 't2', name: 'Bash', input: {command: 'npm test -- --no-file-parallelism'}}]}},
    {type: 'user', message: {content: [{type: 'tool_result', tool_use_id: 't2', content: 'Tests 12 passed'}]}},
  ]
  writeFileSync(transcript, lines.map((l) => JSON.stringify(l)).join('\n'))
  const stop = hookText(root, home, 'stop', {session_id: 'tokens', cwd: root, hook_event_name: 'Stop', stop_hook_active: false, transcript_path: transcript})
  const {listTools} = await import('../../dist/src/faces/mcp/tools.js')
  console.log('\n== what the agent sees (cl100k tokens), on the recall evaluation set\'s 350 memories ==')
  console.log(`session start: ${tokens(session)} (${session.split('\n').length - 2} memory lines) | stop reminder with one candidate: ${tokens(stop)} | MCP tools/list: lean ${tokens(JSON.stringify({tools: listTools('lean')}))}, all ${tokens(JSON.stringify({tools: listTools('all')}))}`)

  // injection on every question, each the first prompt of its own session, in process (the operation the hook runs)
  const [{openMem}, {hookPrompt}] = await Promise.all([import('../../dist/src/index.js'), import('../../dist/src/operations/agent-hooks.js')])
  const ctx = openMem({home, cwd: root})
  const {browse} = await import('../../dist/src/operations/browse.js')
  const all = await browse(ctx, {repo: root, take: 500})
  const keyOf = new Map(all.entries.map((m) => [m.id, memories.find((e) => e.content === m.content)?.key]))
  let prompts = 0
  let injected = 0
  let relevant = 0
  let helped = 0
  const costs = []
  for (const [i, q] of questions.entries()) {
    const r = await hookPrompt(ctx, {repo: root, host: 'claude', session: `q${i}`, prompt: q.q})
    if (r.ids.length === 0) continue
    prompts++
    injected += r.ids.length
    const hits = r.ids.filter((id) => q.relevant.includes(keyOf.get(id))).length
    relevant += hits
    if (hits > 0) helped++
    costs.push(tokens(r.text))
  }
  let offTopic = 0
  for (const [i, prompt] of OFF_TOPIC.entries()) if ((await hookPrompt(ctx, {repo: root, host: 'claude', session: `off${i}`, prompt})).ids.length > 0) offTopic++
  await ctx.close()
  console.log(`prompt injection: ${prompts} of ${questions.length} questions got one (${helped} with a relevant memory), ${injected} memories, ${relevant} relevant (precision ${fmt((100 * relevant) / Math.max(1, injected), 0)}%); tokens per injection median ${percentile(costs, 50)}, max ${Math.max(0, ...costs)}; off-topic prompts with an injection: ${offTopic} of ${OFF_TOPIC.length}`)
}

if (import.meta.url === `file://${process.argv[1]}`) await benchHooks(Number(process.argv[2] ?? 10_000))
