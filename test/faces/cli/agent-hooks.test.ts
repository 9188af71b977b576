// `mem hook <event> --host <host>` as each host runs it (issue 18): a fake host feeds the hook the
// JSON its documentation describes (docs/agents.md cites the pages) and checks the answer: only
// protocol on stdout, nothing on stderr, exit 0 always, within the hard limit.
import {spawnSync} from 'node:child_process'
import {readdirSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {encode} from 'gpt-tokenizer/encoding/cl100k_base'
import {BIN, cliRepo} from '../../helpers/cli.js'

function hook(args: string[], input: unknown, opts: {cwd: string; home: string; env?: Record<string, string>}) {
  const r = spawnSync(process.execPath, [BIN, 'hook', ...args], {
    cwd: opts.cwd,
    input: typeof input === 'string' ? input : JSON.stringify(input),
    encoding: 'utf8',
    env: {...process.env, MEM_HOME: opts.home, MEM_REPO: '', NO_COLOR: '1', ...opts.env},
    timeout: 30_000,
  })
  return {code: r.status, stdout: r.stdout, stderr: r.stderr}
}

async function seeded() {
  const r = cliRepo()
  const ids: Record<string, string> = {}
  for (const [name, content, type] of [
    ['docker', 'Run the integration tests with npm run test:int; they need docker running', 'procedure'],
    ['clock', 'The checkout test is flaky because it depends on the system clock; use fake timers', 'insight'],
    ['pnpm', 'Use pnpm, never npm install, in this monorepo', 'heuristic'],
  ]) {
    const s = await r.mem(['store', content, '--type', type, '--json'])
    ids[name] = s.json().id
  }
  return {...r, ids}
}

const claudeCommon = (root: string, event: string) => ({
  session_id: 'abc123',
  transcript_path: join(root, 'transcript.jsonl'),
  cwd: root,
  permission_mode: 'default',
  hook_event_name: event,
})

describe('mem hook: Claude Code', () => {
  it('SessionStart: the context under its budget as additionalContext, each line with its ref; nothing on stderr', async () => {
    const {root, home, ids} = await seeded()
    const r = hook(['session-start', '--host', 'claude'], {...claudeCommon(root, 'SessionStart'), source: 'startup', model: 'claude-opus-5'}, {cwd: root, home})
    expect(r.code).toBe(0)
    expect(r.stderr).toBe('')
    const out = JSON.parse(r.stdout)
    expect(out.hookSpecificOutput.hookEventName).toBe('SessionStart')
    const ctx = out.hookSpecificOutput.additionalContext as string
    expect(ctx).toMatch(/\[Memory: 3 entries/)
    for (const id of Object.values(ids)) expect(ctx).toContain(`[${id.split('/').pop()!.slice(0, 8)}`)
    expect(encode(ctx).length).toBeLessThan(600)
    // served from the cache the second time, the same text
    const again = hook(['session-start', '--host', 'claude'], {...claudeCommon(root, 'SessionStart'), session_id: 'other', source: 'startup'}, {cwd: root, home})
    expect(JSON.parse(again.stdout).hookSpecificOutput.additionalContext).toBe(ctx)
  })

  it('UserPromptSubmit: relevant memories above the bar, at most ~150 tokens, never twice a session, nothing when nothing is relevant', async () => {
    const {root, home, ids} = await seeded()
    const ask = (session: string, prompt: string) => hook(['prompt', '--host', 'claude'], {...claudeCommon(root, 'UserPromptSubmit'), session_id: session, prompt}, {cwd: root, home})
    const first = ask('s1', 'How do I run the integration tests? Does it need docker?')
    expect(first.code).toBe(0)
    const text = JSON.parse(first.stdout).hookSpecificOutput.additionalContext as string
    expect(JSON.parse(first.stdout).hookSpecificOutput.hookEventName).toBe('UserPromptSubmit')
    expect(text).toContain(ids.docker.split('/').pop()!.slice(0, 8))
    expect(text).not.toContain('fake timers')
    expect(encode(text).length).toBeLessThanOrEqual(150)
    // the same memory is not injected twice in one session; another session gets it again
    expect(ask('s1', 'How do I run the integration tests? Does it need docker?').stdout).toBe('')
    expect(ask('s2', 'run the integration tests with docker').stdout).toContain('test:int')
    // nothing relevant: nothing at all on stdout
    const none = ask('s3', 'Please refactor the payment module to use async iterators')
    expect(none.code).toBe(0)
    expect(none.stdout).toBe('')
    expect(none.stderr).toBe('')
  })

  it('after the session context, the prompt hook skips what the context already showed', async () => {
    const {root, home} = await seeded()
    hook(['session-start', '--host', 'claude'], {...claudeCommon(root, 'SessionStart'), session_id: 'same', source: 'startup'}, {cwd: root, home})
    const r = hook(['prompt', '--host', 'claude'], {...claudeCommon(root, 'UserPromptSubmit'), session_id: 'same', prompt: 'run the integration tests with docker'}, {cwd: root, home})
    expect(r.stdout).toBe('')
  })

  it('Stop: once a session, a reminder with candidates from the transcript (a command that failed, then one that worked); never while stop_hook_active', async () => {
    const {root, home} = await seeded()
    const transcript = [
      {type: 'assistant', message: {content: [{type: 'tool_use', id: 't1', name: 'Bash', input: {command: 'npm test -- --runInBand'}}]}},
      {type: 'user', message: {content: [{type: 'tool_result', tool_use_id: 't1', is_error: true, content: 'Exit code 1\nError: unknown option --runInBand'}]}},
      {type: 'assistant', message: {content: [{type: 'tool_use', id: 't2', name: 'Bash', input: {command: 'npm test -- --no-file-parallelism'}}]}},
      {type: 'user', message: {content: [{type: 'tool_result', tool_use_id: 't2', is_error: false, content: 'Tests 12 passed'}]}},
    ]
    writeFileSync(join(root, 'transcript.jsonl'), transcript.map((t) => JSON.stringify(t)).join('\n') + '\n')
    const input = {...claudeCommon(root, 'Stop'), stop_hook_active: false, last_assistant_message: 'Done.'}
    expect(hook(['stop', '--host', 'claude'], {...input, stop_hook_active: true}, {cwd: root, home}).stdout).toBe('')
    const r = hook(['stop', '--host', 'claude'], input, {cwd: root, home})
    expect(r.code).toBe(0)
    // Stop's way to reach Claude: block the stop with a reason, which Claude reads as its next instruction
    const out = JSON.parse(r.stdout)
    expect(out).toEqual({decision: 'block', reason: expect.stringContaining('memory_store')})
    expect(out.reason).toContain('npm test -- --no-file-parallelism')
    expect(out.reason).toContain('unknown option --runInBand')
    expect(hook(['stop', '--host', 'claude'], input, {cwd: root, home}).stdout).toBe('')
  })
})

describe('mem hook: the other hosts', () => {
  it('Codex: SessionStart and UserPromptSubmit as hookSpecificOutput; Stop as a block with a reason', async () => {
    const {root, home} = await seeded()
    const common = {session_id: 'c1', transcript_path: null, cwd: root, model: 'gpt-5', permission_mode: 'default', turn_id: 't-1'}
    const start = JSON.parse(hook(['session-start', '--host', 'codex'], {...common, hook_event_name: 'SessionStart', source: 'startup'}, {cwd: root, home}).stdout)
    expect(start.hookSpecificOutput.hookEventName).toBe('SessionStart')
    expect(start.hookSpecificOutput.additionalContext).toMatch(/\[Memory: 3 entries/)
    const prompt = hook(['prompt', '--host', 'codex'], {...common, session_id: 'c2', hook_event_name: 'UserPromptSubmit', prompt: 'why is the checkout test flaky around midnight?'}, {cwd: root, home})
    expect(JSON.parse(prompt.stdout).hookSpecificOutput).toEqual({hookEventName: 'UserPromptSubmit', additionalContext: expect.stringContaining('fake timers')})
    // a session of a few turns ends: one reminder, as Codex's Stop wants it
    for (const p of ['one', 'two', 'three']) hook(['prompt', '--host', 'codex'], {...common, session_id: 'c3', hook_event_name: 'UserPromptSubmit', prompt: p}, {cwd: root, home})
    const stop = JSON.parse(hook(['stop', '--host', 'codex'], {...common, session_id: 'c3', hook_event_name: 'Stop', stop_hook_active: false, last_assistant_message: 'ok'}, {cwd: root, home}).stdout)
    expect(stop).toEqual({decision: 'block', reason: expect.stringContaining('memory_store')})
  })

  it('Cursor: sessionStart answers additional_context; stop answers {} until there is something to offer', async () => {
    const {root, home} = await seeded()
    const common = {conversation_id: 'conv-1', generation_id: 'gen-1', model: 'gpt-5', cursor_version: '2.0.77', workspace_roots: [root], user_email: null, transcript_path: null}
    const start = hook(['session-start', '--host', 'cursor'], {...common, hook_event_name: 'sessionStart', session_id: 'conv-1', is_background_agent: false, composer_mode: 'agent'}, {cwd: '/', home})
    expect(start.code).toBe(0)
    expect(JSON.parse(start.stdout).additional_context).toMatch(/\[Memory: 3 entries/)
    const stop = hook(['stop', '--host', 'cursor'], {...common, hook_event_name: 'stop', status: 'completed', loop_count: 0}, {cwd: '/', home})
    expect(JSON.parse(stop.stdout)).toEqual({})
  })

  it('Gemini CLI: JSON only on stdout, {} when there is nothing to add', async () => {
    const {root, home} = await seeded()
    const common = {session_id: 'g1', transcript_path: join(root, 'none.json'), cwd: root, timestamp: '2026-11-24T10:00:00Z'}
    const start = JSON.parse(hook(['session-start', '--host', 'gemini'], {...common, hook_event_name: 'SessionStart', source: 'startup'}, {cwd: root, home}).stdout)
    expect(start.hookSpecificOutput.hookEventName).toBe('SessionStart')
    const none = hook(['prompt', '--host', 'gemini'], {...common, session_id: 'g2', hook_event_name: 'BeforeAgent', prompt: 'write a haiku about autumn leaves'}, {cwd: root, home})
    expect(none.stdout.trim()).toBe('{}')
    const some = JSON.parse(hook(['prompt', '--host', 'gemini'], {...common, session_id: 'g3', hook_event_name: 'BeforeAgent', prompt: 'should I use pnpm or npm install here?'}, {cwd: root, home}).stdout)
    expect(some.hookSpecificOutput).toEqual({hookEventName: 'BeforeAgent', additionalContext: expect.stringContaining('pnpm')})
  })

  it('OpenCode (mem\'s plugin): plain text; pre-compact reminds', async () => {
    const {root, home} = await seeded()
    const start = hook(['session-start', '--host', 'opencode'], {session_id: 'o1', cwd: root}, {cwd: root, home})
    expect(start.stdout).toMatch(/^Project memory \(mem\)/)
    const compact = hook(['pre-compact', '--host', 'opencode'], {session_id: 'o1', cwd: root}, {cwd: root, home})
    expect(compact.stdout).toMatch(/store what this session learned/)
  })
})

describe('mem hook never breaks the host', () => {
  it('a broken store, bad input, an unknown event or host, and a hit time limit all exit 0 with the neutral answer and a silent stderr', async () => {
    const {root, home} = await seeded()
    writeFileSync(join(root, '.mem', 'journal'), 'this is not a journal\n')
    const claude = {...claudeCommon(root, 'SessionStart'), source: 'startup'}
    const broken = hook(['session-start', '--host', 'claude'], claude, {cwd: root, home})
    expect(broken).toEqual({code: 0, stdout: '', stderr: ''})
    expect(hook(['session-start', '--host', 'gemini'], claude, {cwd: root, home})).toEqual({code: 0, stdout: '{}\n', stderr: ''})
    expect(hook(['prompt', '--host', 'claude'], 'not json {', {cwd: root, home})).toEqual({code: 0, stdout: '', stderr: ''})
    expect(hook(['nonsense', '--host', 'claude'], {}, {cwd: root, home})).toEqual({code: 0, stdout: '', stderr: ''})
    expect(hook(['stop', '--host', 'vim'], {}, {cwd: root, home})).toEqual({code: 0, stdout: '', stderr: ''})
    const debug = hook(['session-start', '--host', 'claude', '--debug'], claude, {cwd: root, home})
    expect(debug.code).toBe(0)
    expect(debug.stderr).toMatch(/mem hook: session-start/)
    const started = Date.now()
    const limited = hook(['session-start', '--host', 'cursor', '--timeout', '1'], claude, {cwd: root, home})
    expect(limited).toEqual({code: 0, stdout: '{}\n', stderr: ''})
    expect(Date.now() - started).toBeLessThan(5_000)
  })

  it('session state lives in small files under .mem/hooks, one per host session', async () => {
    const {root, home} = await seeded()
    hook(['session-start', '--host', 'claude'], {...claudeCommon(root, 'SessionStart'), session_id: 'x1'}, {cwd: root, home})
    hook(['session-start', '--host', 'codex'], {...claudeCommon(root, 'SessionStart'), session_id: 'x1', turn_id: 't', model: 'm'}, {cwd: root, home})
    expect(readdirSync(join(root, '.mem', 'hooks', 'sessions')).sort()).toEqual([expect.stringMatching(/^claude-/), expect.stringMatching(/^codex-/)])
  })
})
