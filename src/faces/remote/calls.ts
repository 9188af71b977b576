/**
 * Operation calls of a checkout in remote mode, answered by its team server (docs/team.md,
 * "Remote mode"). Loaded only when a checkout has a remote (./route.ts decides).
 *
 * - An operation with an HTTP route is sent as that route (its declaration says the method, path,
 *   query and body), with the checkout's team repo id as `repo`; the answer is the server's, with
 *   the statuses its declaration gives as answers (a rejected store: 422, exit 5).
 * - A write (store, feedback, forget, edit) carries a request id (the Idempotency-Key header).
 *   When the server cannot be reached it waits in the outbox (remote-outbox.ts) after the local
 *   gates let it through (a secret is refused here, never queued), and is replayed with the same
 *   request id, in order, before the next call that reaches the server (or by `mem remote sync`).
 * - The agent hooks: the session start shows the server's context and keeps it; offline it shows
 *   the last one kept, marked as such. At prompt time the server's recall, under the local hook's
 *   bars (score, shared words, at most two, never one shown already); offline nothing. The wrap-up
 *   reminder runs here without transcript candidates.
 * - Everything else (intake, packs, layers, usage, maintenance, …) runs on the local store.
 */
import {randomUUID} from 'node:crypto'
import {mkdirSync, readFileSync} from 'node:fs'
import {join} from 'node:path'
import {MemApiError, MemClient} from '../../client/index.js'
import type {MemContext} from '../../engines/context.js'
import {ERROR_CODES, MemError, type ErrorCode} from '../../model/errors.js'
import type {OpDef} from '../../operations/define.js'
import type {HookWrapUpInput} from '../../operations/agent-hooks.js'
import type {RemoteTarget} from '../../runtime/remote-config.js'
import {enqueue, listOutbox, refuse, settle, type OutboxEntry} from '../../runtime/remote-outbox.js'
import {hookStateDir, readInjections, readSession, recordInjections, writeSession} from '../../storage/hook-state.js'
import type {Memory} from '../../model/memory.js'
import {writeAtomic} from '../../storage/files.js'
import type {QueuedAnswer} from './queued.js'
import type {RemoteRouteOptions} from './options.js'

/** Writes that wait in the outbox when the server cannot be reached. */
export const QUEUED_WRITES = new Set(['store', 'feedback', 'forget', 'edit'])
/** Operations with an HTTP route answered by the team server. */
const ROUTED = new Set(['store', 'recall', 'context', 'contextPreview', 'stats', 'browse', 'feedback', 'history', 'get', 'edit', 'forget', 'graph', 'quality', 'links', 'linkMemory'])
const HOOKS = new Set(['hook-session-start', 'hook-prompt', 'hook-wrap-up'])


export async function callRemote(ctx: MemContext, target: RemoteTarget, name: string, input: Record<string, unknown>, options: RemoteRouteOptions): Promise<{result: unknown} | undefined> {
  if (HOOKS.has(name)) return hookCall(ctx, target, name, input, options)
  if (!ROUTED.has(name)) return undefined
  const op = await opNamed(name)
  const client = clientFor(target, options.timeoutMs ?? 15_000)
  try {
    const replay = await replayOutbox(client, target, ctx.now())
    if (replay.sent > 0) options.onNotice?.(`Sent ${replay.sent} queued write${replay.sent === 1 ? '' : 's'} to ${target.server}${replay.refused ? ` (${replay.refused} refused: mem remote status lists them)` : ''}.`)
    const requestId = QUEUED_WRITES.has(name) ? randomUUID() : undefined
    if (requestId && replay.offline) return {result: await queue(ctx, target, op, input, requestId)}
    try {
      return {result: await send(client, target, op, input, requestId)}
    } catch (err) {
      if (requestId && offline(err)) return {result: await queue(ctx, target, op, input, requestId)}
      throw asMemError(err, target)
    }
  } finally {
    client.close()
  }
}

export function clientFor(target: RemoteTarget, timeoutMs: number): MemClient {
  return new MemClient(target.server, target.key, {timeoutMs})
}

async function opNamed(name: string): Promise<OpDef<any, any, any>> {
  const {OPERATIONS} = await import('../../operations/catalog/index.js')
  const op = OPERATIONS.find((o) => o.name === name)
  if (!op?.http) throw new MemError('internal', `The operation ${name} has no HTTP route to send it by.`)
  return op
}

/** The call as its route: path parameters into the path, the rest into the query (GET, DELETE) or the body. */
function request(op: OpDef<any, any, any>, target: RemoteTarget, raw: Record<string, unknown>) {
  const http = op.http!
  const input: Record<string, unknown> = {...raw}
  // the checkout is the team repo on the server; a call by memory id names no repo there
  if (typeof input.repo === 'string') input.repo = target.repo
  let path = http.path
  for (const m of http.path.matchAll(/:([A-Za-z]+)/g)) {
    path = path.replace(m[0], encodeURIComponent(String(input[m[1]] ?? '')))
    delete input[m[1]]
  }
  for (const k of Object.keys(input)) if (input[k] === undefined) delete input[k]
  // a route that declares its query takes only those fields there (GET /api/mem/context: repo alone)
  if (http.query && !http.body) for (const k of Object.keys(input)) if (!(k in http.query.shape)) delete input[k]
  if (http.method === 'GET' || http.method === 'DELETE') return {method: http.method, path, query: scalars(input)}
  if (http.query && !http.body) return {method: http.method, path, query: scalars(input)}
  return {method: http.method, path, body: input}
}

function scalars(input: Record<string, unknown>): Record<string, string | number | boolean> {
  const out: Record<string, string | number | boolean> = {}
  for (const [k, v] of Object.entries(input)) {
    if (typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean') out[k] = v
    else if (v !== null) throw new MemError('internal', `The ${k} of this call cannot be sent in a query.`)
  }
  return out
}

async function send(client: MemClient, target: RemoteTarget, op: OpDef<any, any, any>, input: Record<string, unknown>, requestId?: string): Promise<unknown> {
  const req = request(op, target, input)
  const accept = (op.outcomes ?? []).map((o) => o.status)
  return (await client.request(req.method, req.path, {query: req.query, body: req.body, accept, requestId})).body
}

/** No answer, or the server (or a proxy before it) saying it cannot answer now: try again later. */
function offline(err: unknown): boolean {
  return err instanceof MemApiError && (err.status === 0 || err.status === 502 || err.status === 503 || err.status === 504)
}

/** A client failure as mem's error: the server's own error as it sent it, or why no answer came. */
export function asMemError(err: unknown, target: RemoteTarget): unknown {
  if (!(err instanceof MemApiError)) return err
  if (err.status === 0) {
    return new MemError('unavailable', `The team server ${target.server} cannot be reached: ${err.message.replace(/^\w+ \S+ failed: /, '')}.`, {
      hint: 'Check the network or the server; writes wait in the outbox meanwhile (mem remote status). `mem remote unset` goes back to the local store.',
    })
  }
  const body = typeof err.body === 'object' && err.body ? err.body : undefined
  const code = body?.code && body.code in ERROR_CODES ? (body.code as ErrorCode) : err.status === 401 ? 'unauthorized' : err.status === 403 ? 'forbidden' : err.status === 404 ? 'not_found' : err.status >= 500 ? 'unavailable' : 'invalid_input'
  const message = body?.error ?? (typeof err.body === 'string' && err.body ? err.body.slice(0, 300) : `HTTP ${err.status}`)
  if (code === 'unauthorized') {
    return new MemError('unauthorized', `The team server ${target.server} refused the key: ${message}`, {
      hint: target.key ? 'Set a valid team key: mem remote set URL --key KEY (or MEM_KEY).' : 'No key is set for it: mem remote set URL --key KEY (or MEM_KEY).',
    })
  }
  return new MemError(code, `${message} (team server ${target.server})`, body?.hint ? {hint: body.hint} : {})
}

// ---- the outbox ------------------------------------------------------------------------------

async function queue(ctx: MemContext, target: RemoteTarget, op: OpDef<any, any, any>, input: Record<string, unknown>, requestId: string): Promise<unknown> {
  // the server's gates are the ones that count, but a secret must not wait on this disk either
  if (op.name === 'store' || (op.name === 'edit' && (input.content !== undefined || input.tags !== undefined))) {
    const {gate} = await import('../../engines/gates/admit.js')
    const rejected = await gate(ctx, {content: input.content as string | undefined, tags: input.tags as string[] | undefined, source: input.source as string | undefined, sessionId: input.sessionId as string | undefined})
    if (rejected) return rejected
  }
  if (op.name === 'forget' && typeof input.reason === 'string' && input.reason) {
    // the reason is kept beside the memory: the server scans it too (a 422, exit 5, nothing queued)
    const {admitNote} = await import('../../engines/gates/admit.js')
    await admitNote(ctx, 'the reason', input.reason)
  }
  // what the server takes: the input validated now, so a malformed write is refused here, not at replay
  const {parseInput} = await import('../../model/validate.js')
  const checked = parseInput(op.input, input) as Record<string, unknown>
  const kept: Record<string, unknown> = {...input}
  for (const k of Object.keys(kept)) if (kept[k] === undefined || !(k in checked)) delete kept[k]
  if (typeof kept.repo === 'string') kept.repo = target.repo
  enqueue(target.root, {requestId, op: op.name, input: kept, queuedAt: ctx.now().toISOString()})
  const answer: QueuedAnswer = {queued: true, requestId, server: target.server, waiting: listOutbox(target.root).length}
  return answer
}

/**
 * Sends the queued writes, oldest first, each with its request id: an answer (a success, a
 * duplicate, a rejection) takes it out of the line; a refusal for good (4xx) moves it to
 * `outbox/refused/`; no answer stops the replay there (`offline`), keeping it and those after it.
 */
export async function replayOutbox(client: MemClient, target: RemoteTarget, now: Date): Promise<{sent: number; refused: number; offline: boolean; waiting: number}> {
  const entries = listOutbox(target.root)
  let sent = 0
  let refused = 0
  for (const [i, entry] of entries.entries()) {
    try {
      await sendQueued(client, target, entry)
      settle(target.root, entry)
      sent++
    } catch (err) {
      if (offline(err)) return {sent, refused, offline: true, waiting: entries.length - i}
      if (err instanceof MemApiError && (err.status === 401 || err.status === 403)) throw asMemError(err, target) // a key problem: the writes wait
      const e = asMemError(err, target)
      refuse(target.root, entry, err instanceof MemApiError ? err.status : 0, e instanceof Error ? e.message : String(e), now)
      refused++
    }
  }
  return {sent, refused, offline: false, waiting: 0}
}

async function sendQueued(client: MemClient, target: RemoteTarget, entry: OutboxEntry): Promise<unknown> {
  const op = await opNamed(entry.op)
  if (!QUEUED_WRITES.has(op.name)) throw new MemError('invalid_input', `The outbox holds a call of ${op.name}, which is no write mem queues.`)
  return send(client, target, op, {...entry.input, ...(typeof entry.input.repo === 'string' ? {repo: target.repo} : {})}, entry.requestId)
}

// ---- the agent hooks -------------------------------------------------------------------------

const REMOTE_CONTEXT_FILE = 'remote-context.json'

interface KeptContext {
  server: string
  repo: string
  context: string
  at: string
}

const FEEDBACK_NOTE = 'Report memories you use with memory_feedback (or `mem feedback <id> --used|--unused`).'

async function hookCall(ctx: MemContext, target: RemoteTarget, name: string, input: Record<string, unknown>, options: RemoteRouteOptions): Promise<{result: unknown}> {
  if (name === 'hook-prompt') return {result: await promptHook(ctx, target, input, options)}
  const local: MemContext = {...ctx, remote: undefined}
  if (name === 'hook-wrap-up') {
    // the reminder, without transcript candidates: telling which are new needs the team's memories
    const {hookWrapUp} = await import('../../operations/agent-hooks.js')
    return {result: await hookWrapUp(local, {...(input as unknown as HookWrapUpInput), transcriptPath: undefined})}
  }
  const now = ctx.now()
  const dir = ctx.home ? hookStateDir(ctx.home, target.root) : null
  const state = readSession(dir, String(input.host), String(input.session), now)
  if (state.contextAt && input.keptByHost !== false && !['clear', 'compact'].includes(String(input.source ?? ''))) return {result: {text: '', ids: [], cached: true}}
  const client = clientFor(target, options.timeoutMs ?? 15_000)
  let text: string
  let cached = false
  try {
    const context = ((await client.request('GET', '/api/mem/context', {query: {repo: target.repo}})).body as {context: string}).context
    if (dir) {
      mkdirSync(dir, {recursive: true})
      writeAtomic(join(dir, REMOTE_CONTEXT_FILE), Buffer.from(JSON.stringify({server: target.server, repo: target.repo, context, at: now.toISOString()} satisfies KeptContext)))
    }
    text = `Project memory (mem, team server ${target.server}). ${FEEDBACK_NOTE}\n${context}`
  } catch (err) {
    if (!offline(err) || !dir) throw asMemError(err, target)
    options.onNotice?.(`mem hook: the team server did not answer (${(err as Error).message}): the kept context, if any`)
    let kept: KeptContext | undefined
    try {
      kept = JSON.parse(readFileSync(join(dir, REMOTE_CONTEXT_FILE), 'utf8')) as KeptContext
    } catch {
      kept = undefined
    }
    if (!kept || kept.server !== target.server || kept.repo !== target.repo) return {result: {text: '', ids: [], cached: false}}
    cached = true
    text = `Project memory (mem; the team server ${target.server} cannot be reached: this is the context it gave at ${kept.at}, and may be out of date). ${FEEDBACK_NOTE}\n${kept.context}`
  } finally {
    client.close()
  }
  if (dir) {
    state.contextAt = now.toISOString()
    // what the context showed, by the refs its lines end with: the prompt hook does not show them again
    state.shown = [...new Set([...state.shown, ...[...text.matchAll(/\[([0-9a-f]{8,12})\]$/gm)].map((m) => `ref:${m[1]}`)])]
    writeSession(dir, state)
  }
  return {result: {text, ids: [], cached}}
}

/**
 * Memories relevant to the prompt, from the team server's recall, under the bars the local hook
 * uses (operations/agent-hooks.ts): a score of INJECT_MIN_SCORE, words shared with the prompt, at
 * most INJECT_MAX within about INJECT_MAX_TOKENS, never one this session was shown, and never one
 * the agent keeps not using (two "unused" reports since its first injection here and no "used", or
 * the quality report's dead rule), read from the memory as the server has it: one request per
 * memory that clears the other bars, sent together. Injections are recorded in this checkout's
 * hook state, as the local hook records them. Offline, or on any failure: nothing (a prompt hook
 * never holds up a prompt); a memory whose counts did not come is shown as the other bars allow.
 */
async function promptHook(ctx: MemContext, target: RemoteTarget, input: Record<string, unknown>, options: RemoteRouteOptions): Promise<{text: string; ids: string[]}> {
  const hooks = await import('../../operations/agent-hooks.js')
  const [{stripHostWrappers}, {analyze}] = await Promise.all([import('../../engines/agents/hosts.js'), import('../../text/tokenize.js')])
  const now = ctx.now()
  const dir = ctx.home ? hookStateDir(ctx.home, target.root) : null
  const state = readSession(dir, String(input.host), String(input.session), now)
  state.prompts++
  const out = {text: '', ids: [] as string[]}
  const prompt = stripHostWrappers(String(input.prompt ?? '')).trim()
  if (prompt.split(/\s+/).filter((w) => w.length > 2).length >= 2) {
    const client = clientFor(target, options.timeoutMs ?? 15_000)
    try {
      let results: Array<{id: string; type: string; content: string; tags: string[]; score: number}> = []
      try {
        results = ((await client.request('GET', '/api/mem/recall', {query: {repo: target.repo, q: prompt.slice(0, 2_000), limit: 8}})).body as {results: typeof results}).results
      } catch (err) {
        options.onNotice?.(`mem hook: the team server did not answer the prompt's recall (${(err as Error).message})`)
      }
      const promptTerms = new Set(analyze(prompt))
      const shown = new Set(state.shown)
      // the bars read from the answer alone
      const clear = results.filter((r) => {
        if (r.score < hooks.INJECT_MIN_SCORE) return false
        const key = r.id.slice(r.id.lastIndexOf('/') + 1)
        if (shown.has(r.id) || [...shown].some((s) => s.startsWith('ref:') && key.startsWith(s.slice(4)))) return false
        return hooks.sharesEnoughWithPrompt(promptTerms, new Set(analyze(`${r.content} ${r.tags.join(' ')}`)))
      })
      // the counts of those, as the server has them now
      const get = clear.length > 0 ? await opNamed('get') : undefined
      const entries = await Promise.all(clear.map((r) => send(client, target, get!, {id: r.id}).then((m) => m as Memory, () => undefined)))
      const record = dir ? readInjections(dir) : {}
      const picked: Array<{id: string; usedCount: number; unusedCount: number; counted: boolean}> = []
      const lines: string[] = []
      let chars = 0
      for (const [i, r] of clear.entries()) {
        if (picked.length >= hooks.INJECT_MAX) break
        const m = entries[i]
        if (m && (m.forgottenAt || m.supersededBy || hooks.keepsNotUsing(m, record[m.id]))) continue
        const one = r.content.replace(/\s+/g, ' ').trim()
        const line = `[${r.type.charAt(0).toUpperCase()}] ${one.length > 300 ? `${one.slice(0, 299)}…` : one} [${r.id}]`
        if (!hooks.fitsInjection(chars, line)) continue
        lines.push(line)
        picked.push({id: r.id, usedCount: m?.usedCount ?? 0, unusedCount: m?.unusedCount ?? 0, counted: m !== undefined})
        chars += line.length + 1
      }
      if (lines.length > 0) {
        out.ids = picked.map((p) => p.id)
        out.text = `Memories relevant to this prompt (mem, team server); report the ones you use with memory_feedback:\n${lines.join('\n')}`
        state.shown.push(...out.ids)
        // a memory whose counts did not come is recorded at its next injection, with the counts then
        if (dir) recordInjections(dir, picked.filter((p) => p.counted), now)
      }
    } finally {
      client.close()
    }
  }
  if (dir) writeSession(dir, state)
  return out
}
