/**
 * `mem hook <event> --host <host>`: the one entry every agent host's hook runs (issue 18). It reads
 * the host's JSON on stdin, runs the event's operation, and prints what that host expects on
 * stdout: JSON in the host's shape (or plain text for mem's OpenCode plugin), and nothing else.
 * It always exits 0, within a hard time limit, whatever happens: a broken store, a bad input or a
 * slow disk must never break or stall the host's session, so a failure answers "nothing to add".
 * Nothing goes to stderr unless asked (--debug or MEM_HOOK_DEBUG=1).
 *
 * Like `mem recall`, it starts without oclif or zod (bin/run.js sends `hook` here): the session-start
 * hook runs cold at the start of every session and serves the cached context without loading the
 * store.
 */
import {parseArgs} from 'node:util'
import {findRepoRoot} from '../../config/paths.js'
import {HOOK_EVENTS, HOST_SPECS, HOSTS, readHookInput, type HookEvent, type HostId} from '../../engines/agents/hosts.js'
import type {MemRuntime} from '../../runtime/open-mem.js'

/** Default hard limits per event, in milliseconds (MEM_HOOK_TIMEOUT_MS or --timeout override). */
export const HOOK_LIMIT_MS: Record<HookEvent, number> = {'session-start': 4_000, prompt: 3_000, 'pre-compact': 5_000, stop: 5_000}
const MAX_INPUT_BYTES = 1024 * 1024

interface HookArgs {
  event: HookEvent
  host: HostId
  repo?: string
  limitMs: number
  debug: boolean
}

function parse(argv: string[]): HookArgs | string {
  let parsed
  try {
    parsed = parseArgs({
      args: argv,
      options: {host: {type: 'string'}, repo: {type: 'string'}, timeout: {type: 'string'}, debug: {type: 'boolean'}},
      allowPositionals: true,
      strict: true,
    })
  } catch (err) {
    return (err as Error).message
  }
  const event = parsed.positionals[0] as HookEvent
  const host = parsed.values.host as HostId
  if (!HOOK_EVENTS.includes(event)) return `unknown event ${parsed.positionals[0] ?? '(none)'}: one of ${HOOK_EVENTS.join(', ')}`
  if (!HOSTS.includes(host)) return `unknown host ${host ?? '(none)'}: --host one of ${HOSTS.join(', ')}`
  const limit = Number(parsed.values.timeout ?? process.env.MEM_HOOK_TIMEOUT_MS ?? HOOK_LIMIT_MS[event])
  return {
    event,
    host,
    repo: parsed.values.repo ?? (process.env.MEM_REPO?.trim() || undefined),
    limitMs: Number.isFinite(limit) && limit > 0 ? limit : HOOK_LIMIT_MS[event],
    debug: parsed.values.debug === true || process.env.MEM_HOOK_DEBUG === '1',
  }
}

function readStdin(limitMs: number): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = []
    let size = 0
    const done = () => {
      clearTimeout(timer)
      resolve(Buffer.concat(chunks).toString('utf8'))
    }
    // a host that never closes stdin: take what came
    const timer = setTimeout(done, Math.min(limitMs / 2, 1_000))
    if (process.stdin.isTTY) return done()
    process.stdin.on('data', (chunk: Buffer) => {
      size += chunk.length
      if (size <= MAX_INPUT_BYTES) chunks.push(chunk)
    })
    process.stdin.once('end', done)
    process.stdin.once('error', done)
  })
}

/** Writes the answer and ends the process with exit code 0, once stdout has taken it. */
function answer(text: string): Promise<void> {
  return new Promise((resolve) => {
    process.exitCode = 0
    if (!text) return resolve()
    process.stdout.write(text.endsWith('\n') ? text : `${text}\n`, () => resolve())
  })
}

/**
 * Runs one hook: always resolves, with process.exitCode 0. `exit` is called when the hard limit
 * passes first (default process.exit; tests pass their own).
 */
export async function runHook(argv: string[], options: {exit?: (code: number) => void} = {}): Promise<void> {
  const exit = options.exit ?? ((code: number) => process.exit(code))
  const args = parse(argv.slice(argv[0] === 'hook' ? 1 : 0))
  if (typeof args === 'string') {
    if (process.env.MEM_HOOK_DEBUG === '1' || argv.includes('--debug')) process.stderr.write(`mem hook: ${args}\n`)
    return answer('')
  }
  const spec = HOST_SPECS[args.host]
  const neutral = spec.answer(args.event, '')
  let settled = false
  const timer = setTimeout(() => {
    if (settled) return
    settled = true
    if (args.debug) process.stderr.write(`mem hook: ${args.event} passed its ${args.limitMs} ms limit; answered nothing\n`)
    void answer(neutral).then(() => exit(0))
  }, args.limitMs)
  let mem: MemRuntime | undefined
  try {
    const raw = await readStdin(args.limitMs)
    let json: unknown = {}
    try {
      json = raw.trim() ? JSON.parse(raw) : {}
    } catch {
      throw new Error('the hook input is not JSON')
    }
    const input = readHookInput(args.host, json)
    const repo = args.repo ?? findRepoRoot(input.cwd ?? process.cwd())
    const [{openMem}, {invoke}, hooks, {remoteRouteHere}] = await Promise.all([
      import('../../runtime/open-mem.js'),
      import('../../operations/define.js'),
      import('../../operations/agent-hooks.js'),
      import('../remote/here.js'),
    ])
    // remote mode: the team server answers within half the hook's limit, else the kept context does
    const remote = remoteRouteHere({timeoutMs: Math.min(2_500, args.limitMs / 2), quiet: !args.debug})
    mem = openMem({remote, env: process.env, cwd: input.cwd ?? process.cwd(), usage: {elapsed: () => Number(process.hrtime.bigint()) / 1e6}, onNotice: (m) => process.stderr.write(`${m}\n`)})
    const session = {repo, host: args.host, session: input.sessionId}
    let text = ''
    if (args.event === 'session-start') {
      text = (await invoke(mem, hooks.hookSessionStartCall, {...session, source: input.source, keptByHost: spec.contextKept})).text
    } else if (args.event === 'prompt') {
      text = input.prompt ? (await invoke(mem, hooks.hookPromptCall, {...session, prompt: input.prompt})).text : ''
    } else if (!(args.host === 'cursor' && args.event === 'stop' && input.status !== undefined && input.status !== 'completed')) {
      text = (await invoke(mem, hooks.hookWrapUpCall, {...session, moment: args.event, transcriptPath: input.transcriptPath, stopActive: input.stopActive})).text
    }
    await mem.close()
    mem = undefined
    if (!settled) {
      settled = true
      clearTimeout(timer)
      await answer(spec.answer(args.event, text))
    }
  } catch (err) {
    if (args.debug) process.stderr.write(`mem hook: ${args.event}: ${(err as Error)?.stack ?? err}\n`)
    try {
      await mem?.close()
    } catch {
      // the store is broken: the host still gets its answer
    }
    if (!settled) {
      settled = true
      clearTimeout(timer)
      await answer(neutral)
    }
  }
}
