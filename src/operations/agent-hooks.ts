/**
 * What mem does at an agent host's hook (issue 18): the session context at session start, a few
 * relevant memories at prompt time, a reminder to store what was learned at stop and before a
 * compaction. Each is an operation with its usage counted; `mem hook` (src/faces/cli/hook.ts)
 * speaks the host's protocol around them. Like recall, this module loads no zod: the hook starts
 * cold for every event, and its declarations (catalog/agents.ts) carry the schemas.
 *
 * Per-session state (what the agent was shown) lives in small files under MEM_HOME, in a folder
 * of the repository's own (storage/hook-state.ts), keyed by the host's session id and pruned after
 * a week: never in the work tree, where a clone could forge it.
 */
import {createHash} from 'node:crypto'
import {closeSync, fstatSync, openSync} from 'node:fs'
import type {MemContext} from '../engines/context.js'
import type {RecallFields} from '../storage/memories.js'
import type {RepoStore} from '../storage/repo-store.js'
import {TYPE_LETTER, type MemoryType} from '../model/memory.js'
import type {OpCall} from './define.js'
import {
  hookStateDir,
  journalMark,
  pruneSessions,
  readCachedContext,
  readInjections,
  readSession,
  recordInjections,
  writeCachedContext,
  writeSession,
  type CachedContext,
  type JournalMark,
} from '../storage/hook-state.js'
import {stripHostWrappers} from '../engines/agents/hosts.js'
import {readRange} from '../storage/journal.js'
import {heldBack, originSuffix} from '../engines/agents/provenance.js'

/**
 * Token budget of the context a session-start hook shows: the spec's 600 less what the note before
 * it costs (~35 tokens), so all the agent is shown stays under 600.
 */
export const HOOK_CONTEXT_TOKENS = 560
/** Most a prompt-time injection may cost, in cl100k tokens (counted conservatively, see below). */
export const INJECT_MAX_TOKENS = 150
/** The relevance bar: recall's score (0..1) a memory needs to be injected unasked. */
export const INJECT_MIN_SCORE = 0.8
/** At most this many memories per prompt. */
export const INJECT_MAX = 2
/**
 * Recall's score ranks within one query (the best hit of any query scores high), so the bar also
 * asks for absolute evidence: the prompt and the memory (content and tags) share at least
 * INJECT_MIN_SHARED distinct stemmed words making up INJECT_MIN_OVERLAP of the smaller side's
 * words, or two words making up INJECT_CLOSE_OVERLAP of it (a short prompt that says little else).
 * Measured on the recall evaluation set (test/bench/hooks.mjs), where these values were chosen.
 */
export const INJECT_MIN_SHARED = 3
export const INJECT_MIN_OVERLAP = 0.3
export const INJECT_CLOSE_OVERLAP = 0.6

export interface HookSessionInput {
  repo: string
  host: string
  session: string
}

export interface HookSessionStartInput extends HookSessionInput {
  /** Why the session (re)started, as the host says: `startup`, `resume`, `clear`, `compact`. */
  source?: string
  /**
   * The host keeps what a session-start hook gave in the session's history (Claude Code, Codex,
   * Gemini CLI): a session that already has the context does not get a second one when it resumes,
   * only after a clear or a compaction dropped it. False for a host that asks for the context on
   * every model call (mem's OpenCode plugin puts it into each request itself).
   */
  keptByHost?: boolean
}

/** Where this repository's hook state lives: MEM_HOME/hooks/<repo key>; null in a context with no home (nothing is kept). */
export function hookDir(ctx: MemContext, root: string): string | null {
  return ctx.home ? hookStateDir(ctx.home, root) : null
}

export interface HookAnswer {
  /** What the agent is shown ('' for nothing). */
  text: string
  /** The memories it shows. */
  ids: string[]
}

const FEEDBACK_NOTE = 'Lines end with a [ref]: after using one, report it (memory_feedback id=<ref> used=true|false, or `mem feedback <ref> --used|--unused`).'

/**
 * The session context as a session-start hook shows it: served from the cache in this machine's
 * hook folder when no memory changed since it was built (recall's access records aside), so a cold
 * hook reads a few small files and loads no database; else built (loading the store and the
 * tokenizer) and cached.
 */
async function sessionContext(ctx: MemContext, repo: string, root: string, dir: string | null, now: Date): Promise<{context: CachedContext; cached: boolean}> {
  const found = dir ? readCachedContext(dir, root, HOOK_CONTEXT_TOKENS, now) : null
  if (found) return {context: found, cached: true}
  const [{contextWithIds}, {layerSources}] = await Promise.all([import('./session-context.js'), import('./layers.js')])
  const handle = await ctx.repo(repo, 'read')
  // marks first: a write landing while the context is built leaves the cache stale, never wrong
  const marks = [handle.store.dir, ...(await layerSources(ctx, handle)).map((l) => l.store.dir)].map(journalMark)
  const built = await contextWithIds(ctx, {repo, tokens: HOOK_CONTEXT_TOKENS})
  const context: CachedContext = {root, tokens: built.tokens, budget: HOOK_CONTEXT_TOKENS, context: built.context, ids: built.ids, writtenAt: now.toISOString(), marks: marks.filter((m): m is JournalMark => m !== null)}
  // a store never written has no journal to watch: nothing to cache yet
  if (dir && marks.every((m) => m !== null)) writeCachedContext(dir, context)
  return {context, cached: false}
}

/** Sources after which the host no longer holds the context it was given. */
const CONTEXT_DROPPED = new Set(['clear', 'compact'])

/**
 * The session context under its budget, each line ending with its ref, and a note on feedback.
 * Remembers the ids shown for this session. A session that already got it (a resume, or a host that
 * runs the hook twice) gets nothing the second time when the host keeps it in the session's history
 * (`keptByHost`), unless a clear or a compaction dropped it.
 */
export async function hookSessionStart(ctx: MemContext, input: HookSessionStartInput): Promise<HookAnswer & {cached: boolean}> {
  const now = ctx.now()
  const {root} = await ctx.locate(input.repo, 'read')
  const dir = hookDir(ctx, root)
  if (dir) pruneSessions(dir, now)
  const state = readSession(dir, input.host, input.session, now)
  if (state.contextAt && input.keptByHost !== false && !CONTEXT_DROPPED.has(input.source ?? '')) {
    return {text: '', ids: [], cached: true}
  }
  const {context, cached} = await sessionContext(ctx, input.repo, root, dir, now)
  if (dir) {
    state.shown = [...new Set([...state.shown, ...context.ids])]
    state.contextAt = now.toISOString()
    writeSession(dir, state)
  }
  const text = context.ids.length > 0 ? `Project memory (mem). ${FEEDBACK_NOTE}\n${context.context}` : `Project memory (mem): ${context.context.split('\n')[0]}. Store lessons a later session needs with memory_store or \`mem store\`.`
  return {text, ids: context.ids, cached}
}

export interface HookPromptInput extends HookSessionInput {
  prompt: string
}

/** Characters per token assumed when capping an injection: cl100k averages ~4 for English; 2.5 keeps code-heavy text under the cap too. */
const CHARS_PER_TOKEN = 2.5

/**
 * Whether `text` still fits the injection's budget (INJECT_MAX_TOKENS) after `chars` characters
 * already taken, with room for its line's type letter and reference. Read by the local hook and, in
 * remote mode, on the server's answer (faces/remote/calls.ts).
 */
export function fitsInjection(chars: number, text: string): boolean {
  return (chars + text.length + 80) / CHARS_PER_TOKEN <= INJECT_MAX_TOKENS
}

/**
 * Whether a memory's terms (its content's and tags', analyzed) share enough with the prompt's to be
 * shown with it: INJECT_MIN_SHARED terms over INJECT_MIN_OVERLAP of the smaller set, or two over
 * INJECT_CLOSE_OVERLAP. Read by the local hook and, in remote mode, on the server's answer.
 */
export function sharesEnoughWithPrompt(promptTerms: ReadonlySet<string>, terms: ReadonlySet<string>): boolean {
  const shared = [...terms].filter((t) => promptTerms.has(t)).length
  const overlap = shared / Math.min(terms.size, promptTerms.size)
  return (shared >= INJECT_MIN_SHARED && overlap >= INJECT_MIN_OVERLAP) || (shared >= 2 && overlap >= INJECT_CLOSE_OVERLAP)
}

/**
 * Whether the agent keeps not using a memory the prompt hook would show: two or more "unused"
 * reports since its first injection (`first`: its counts then) and no "used", or the quality
 * report's dead rule (unused ≥ 3 and over twice used). Read by the local hook and, in remote mode,
 * on the counts the team server gives (faces/remote/calls.ts).
 */
export function keepsNotUsing(m: {usedCount: number; unusedCount: number}, first: {used0: number; unused0: number} | undefined): boolean {
  const unusedSince = first ? m.unusedCount - first.unused0 : 0
  const usedSince = first ? m.usedCount - first.used0 : 0
  return (unusedSince >= 2 && usedSince === 0) || (m.unusedCount >= 3 && m.unusedCount > 2 * m.usedCount)
}

/**
 * Memories relevant to the prompt, for the agent to see with it: only those recall scores at
 * INJECT_MIN_SCORE or more, at most INJECT_MAX and ~INJECT_MAX_TOKENS, never one this session was
 * already shown, and never one the agent keeps not using (two or more "unused" reports since it was
 * first injected and no "used", or the quality report's dead rule: unused ≥ 3 and over twice used).
 * Nothing when nothing clears the bar. Injected memories count as recalled (their access is
 * recorded) and go into the injection record that `mem quality` reads.
 *
 * What a host wrapped around the user's words (Gemini CLI's `<hook_context>` blocks, which carry
 * the session context into the prompt) is taken out before matching. A prompt that comes before the
 * session's context (OpenCode asks for both, prompt first) never injects what that context will
 * show: the context's memories count as shown already.
 */
export async function hookPrompt(ctx: MemContext, input: HookPromptInput): Promise<HookAnswer> {
  const now = ctx.now()
  const {root} = await ctx.locate(input.repo, 'read')
  const dir = hookDir(ctx, root)
  const state = readSession(dir, input.host, input.session, now)
  state.prompts++
  const prompt = stripHostWrappers(input.prompt).trim()
  const out: HookAnswer = {text: '', ids: []}
  if (prompt.split(/\s+/).filter((w) => w.length > 2).length >= 2) {
    const upcoming = state.contextAt ? [] : (await sessionContext(ctx, input.repo, root, dir, now)).context.ids
    const [{recallHits, shownScore}, {analyze}] = await Promise.all([import('./recall.js'), import('../text/tokenize.js')])
    const promptTerms = new Set(analyze(prompt))
    // words only: what is injected must share words with the prompt (below), so the meaning model would cost and add nothing
    const {hits, store} = await recallHits(ctx, {repo: input.repo, q: prompt.slice(0, 2_000), limit: 8}, {meaning: false})
    const record = dir ? readInjections(dir) : {}
    const shown = new Set([...state.shown, ...upcoming])
    const lines: string[] = []
    const picked: Array<{id: string; usedCount: number; unusedCount: number}> = []
    let chars = 0
    for (const hit of hits) {
      const id = hit.memory.id
      if (picked.length >= INJECT_MAX || shownScore(hit.score) < INJECT_MIN_SCORE) break
      if (shown.has(id) || id.startsWith('memories/layer-')) continue
      const m = await injectable(store, hit.memory)
      if (!m || heldBack(m)) continue
      if (!sharesEnoughWithPrompt(promptTerms, new Set(analyze(`${m.content} ${m.tags.join(' ')}`)))) continue
      if (keepsNotUsing(m, record[m.id])) continue
      const ref = m.ref
      // the whole memory when it fits what is left of the budget (the agent can act on it), else its one-liner
      const fits = (t: string) => fitsInjection(chars, t)
      const lineOf = (t: string) => {
        const one = t.replace(/\s+/g, ' ').trim()
        return `[${TYPE_LETTER[m.type as MemoryType]}] ${one.length > 300 ? `${one.slice(0, 299)}…` : one}${originSuffix(m.origin)} [${ref}]`
      }
      const line = [lineOf(m.content), ...(m.oneLiner ? [lineOf(m.oneLiner)] : [])].find(fits)
      if (!line) continue
      lines.push(line)
      picked.push({id: m.id, usedCount: m.usedCount, unusedCount: m.unusedCount})
      chars += line.length + 1
    }
    if (picked.length > 0) {
      out.text = `Memories relevant to this prompt (mem); report the ones you use with memory_feedback:\n${lines.join('\n')}`
      out.ids = picked.map((p) => p.id)
      state.shown.push(...out.ids)
      if (dir) recordInjections(dir, picked, now)
    }
  }
  if (dir) writeSession(dir, state)
  return out
}

/**
 * What the prompt hook reads of a recalled memory: a hit the recall index answered carries it (the
 * index answers only when current, and holds live memories only), any other is read from the store
 * (loaded then); null when the memory is not this repo's, forgotten or superseded.
 */
async function injectable(store: RepoStore, f: RecallFields): Promise<(RecallFields & {ref: string; unusedCount: number}) | null> {
  if (f.ref !== undefined && f.unusedCount !== undefined) return {...f, ref: f.ref, unusedCount: f.unusedCount}
  const [{getMemory}, {shortRef}] = await Promise.all([import('../storage/memories.js'), import('../storage/refs.js')])
  await store.ready()
  const m = store.read((db) => getMemory(db, f.id))
  if (!m || m.forgottenAt || m.supersededBy) return null
  return {...m, ref: store.read((db) => shortRef(db, m.id))}
}

export interface HookWrapUpInput extends HookSessionInput {
  /** `stop` reminds once per session; `pre-compact` before every compaction. */
  moment: 'stop' | 'pre-compact'
  transcriptPath?: string
  /** The host is already continuing because of a stop hook: answer nothing. */
  stopActive?: boolean
}

/** How many turns a session needs before a stop reminds without candidates. */
const REMIND_AFTER_TURNS = 3

/**
 * A short reminder to store what the session learned, with candidates found in the transcript
 * (engines/agents/transcript.ts) that the secret scanner, the content gate and the duplicate check
 * all let through and that were not offered before. Never stores anything. At stop: once per
 * session, when there are candidates or the session had a few turns; never while the host is
 * already continuing because of a stop hook.
 */
export async function hookWrapUp(ctx: MemContext, input: HookWrapUpInput): Promise<HookAnswer & {candidates: number}> {
  const now = ctx.now()
  const {root} = await ctx.locate(input.repo, 'read')
  const dir = hookDir(ctx, root)
  const state = readSession(dir, input.host, input.session, now)
  const save = () => dir && writeSession(dir, state)
  const none = {text: '', ids: [], candidates: 0}
  if (input.stopActive || (input.moment === 'stop' && state.reminded)) return none
  if (input.moment === 'stop') state.stops++
  const candidates = input.transcriptPath ? await transcriptCandidates(ctx, input.repo, input.transcriptPath, new Set(state.offered)) : []
  if (input.moment === 'stop' && candidates.length === 0 && Math.max(state.prompts, state.stops) < REMIND_AFTER_TURNS) {
    save()
    return none
  }
  const lines = [
    input.moment === 'stop'
      ? 'Before you finish: if this session taught something a later session needs (how the build or tests really work, a pitfall, a decision and why), store it with memory_store or `mem store "…" --type procedure|insight|heuristic|observation` — one short fact per memory. Report memories you used with memory_feedback.'
      : 'Keep in the summary: the agent should store what this session learned that a later session needs (memory_store or `mem store`), one short fact per memory.',
  ]
  if (candidates.length > 0) {
    lines.push('Candidates from this session (store only what is true):')
    for (const c of candidates) lines.push(`- ${c.type}: ${c.content}`)
  }
  state.reminded = state.reminded || input.moment === 'stop'
  state.offered.push(...candidates.map((c) => hashOf(c.content)))
  save()
  return {text: lines.join('\n'), ids: [], candidates: candidates.length}
}

function hashOf(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 16)
}

const TRANSCRIPT_TAIL_BYTES = 8 * 1024 * 1024

async function transcriptCandidates(ctx: MemContext, repo: string, path: string, offered: Set<string>) {
  let text: string
  try {
    const fd = openSync(path, 'r')
    try {
      const size = fstatSync(fd).size
      const from = Math.max(0, size - TRANSCRIPT_TAIL_BYTES)
      text = readRange(fd, from, size - from).toString('utf8')
    } finally {
      closeSync(fd)
    }
  } catch {
    return [] // no transcript (yet): a reminder without candidates
  }
  const [{commandRuns, candidatesFrom}, {gate}, {findDuplicate}] = await Promise.all([
    import('../engines/agents/transcript.js'),
    import('../engines/gates/admit.js'),
    import('../engines/gates/duplicates.js'),
  ])
  const handle = await ctx.repo(repo, 'read')
  const out = []
  for (const c of candidatesFrom(commandRuns(text), 5)) {
    if (offered.has(hashOf(c.content))) continue
    if (await gate(ctx, c.content)) continue // a secret or junk: never offered
    if (handle.store.read((db) => findDuplicate(db, c.content))) continue
    out.push(c)
    if (out.length >= 3) break
  }
  return out
}

/** The injection record as `mem quality` reports it: how often injected memories were then reported used. */
export interface InjectionPrecision {
  /** Memories injected at least once. */
  injected: number
  /** Injections in all. */
  injections: number
  /** Used / unused reports received since their first injection. */
  used: number
  unused: number
  /** used / (used + unused); null before any report. */
  precision: number | null
}

export function injectionPrecision(dir: string | null, counts: (id: string) => {usedCount: number; unusedCount: number} | undefined): InjectionPrecision {
  const record = dir ? readInjections(dir) : {}
  let used = 0
  let unused = 0
  let injections = 0
  const ids = Object.keys(record)
  for (const id of ids) {
    const r = record[id]
    injections += r.n
    const now = counts(id)
    if (!now) continue
    used += Math.max(0, now.usedCount - r.used0)
    unused += Math.max(0, now.unusedCount - r.unused0)
  }
  return {injected: ids.length, injections, used, unused, precision: used + unused > 0 ? Math.round((used / (used + unused)) * 10_000) / 10_000 : null}
}

export const hookSessionStartCall: OpCall<HookSessionStartInput, HookAnswer & {cached: boolean}> = {name: 'hook-session-start', track: {count: (r) => r.ids.length}, run: hookSessionStart}
export const hookPromptCall: OpCall<HookPromptInput, HookAnswer> = {name: 'hook-prompt', track: {count: (r) => r.ids.length}, run: hookPrompt}
export const hookWrapUpCall: OpCall<HookWrapUpInput, HookAnswer & {candidates: number}> = {name: 'hook-wrap-up', track: {count: (r) => r.candidates}, run: hookWrapUp}
