import {z} from 'zod'
import {heuristicOneLiner} from '../engines/enrichment/heuristic.js'
import {MEMORY_TYPES, TYPE_LETTER, type Memory, type MemoryType} from '../model/memory.js'
import {contextPriority} from '../engines/search/rank.js'
import {newestVersions} from '../engines/currency.js'
import type {Db} from '../storage/db.js'
import {loadTokenCounter} from '../engines/search/tokens.js'
import {liveCounts, topLiveChanged, topLiveOfTypes} from '../storage/memories.js'
import {layerSources, listLayers} from './layers.js'
import type {MemContext, RepoHandle} from '../engines/context.js'
import {readOnlySources} from '../engines/sharing/sources.js'
import {heldBack, originSuffix} from '../engines/agents/provenance.js'
import {RepoRef} from '../model/schemas.js'
import {parseInput} from '../model/validate.js'
import {shortRef} from '../storage/refs.js'
import type {ContextPreview} from '../model/shapes/memories.js'
export type {ContextPreview} from '../model/shapes/memories.js'

export const DEFAULT_CONTEXT_TOKENS = 600
export const MIN_CONTEXT_TOKENS = 32
/** The share of the context's budget that the current versions of changed facts may take first. */
const CHANGED_SHARE = 0.5
/** The types the context leads with (observations fill what is left). */
const RULE_TYPES: MemoryType[] = ['insight', 'procedure', 'heuristic']

export const ContextInput = z.object({
  repo: RepoRef,
  tokens: z
    .number()
    .int()
    .min(MIN_CONTEXT_TOKENS, `tokens must be at least ${MIN_CONTEXT_TOKENS}`)
    .max(100_000, 'tokens must be at most 100,000')
    .default(DEFAULT_CONTEXT_TOKENS),
})
export type ContextInput = z.input<typeof ContextInput>

const PLURAL: Record<MemoryType, string> = {observation: 'observations', insight: 'insights', procedure: 'procedures', heuristic: 'heuristics'}

/**
 * The session context an agent loads at start: a counts line, then one line per memory
 * (`[I]`, `[P]`, `[H]`; `[O]` only when the others leave room), best first, always under the
 * token budget as counted by a cl100k BPE tokenizer.
 */
export async function context(ctx: MemContext, raw: ContextInput): Promise<{context: string}> {
  const built = await buildContext(ctx, raw)
  return {context: built.context}
}

/** The context and the ids of the memories its lines show, in order (the agent hooks keep them per session). */
export async function contextWithIds(ctx: MemContext, raw: ContextInput): Promise<{context: string; ids: string[]; tokens: number}> {
  const built = await buildContext(ctx, raw)
  return {context: built.context, ids: built.ids, tokens: built.tokens}
}

/** The context with what went into it: the spec's context preview. */
export async function contextPreview(ctx: MemContext, raw: ContextInput): Promise<ContextPreview> {
  const input = parseInput(ContextInput, raw)
  const built = await buildContext(ctx, input)
  const {layers} = await listLayers(ctx, {repo: input.repo})
  const others = await readOnlySources(ctx, built.handle)
  return {
    repo: input.repo,
    maxTokens: input.tokens,
    context: built.context,
    estimatedTokens: built.tokens,
    // the layers read besides the repo's own store (which `mem layers list` shows as `local`)
    layers: layers.filter((l) => l.type !== 'local').map((l) => ({id: l.id, name: l.name, type: l.type})),
    crossRepoScope: others.map((o) => o.id),
  }
}

/** The memories no newer live memory updates: the context holds only the newest of each subject (currency.ts). */
function current(db: Db, memories: Memory[]): Memory[] {
  const outdated = newestVersions(db, memories)
  return outdated.size === 0 ? memories : memories.filter((m) => !outdated.has(m.id))
}

async function buildContext(ctx: MemContext, raw: ContextInput): Promise<{context: string; tokens: number; handle: RepoHandle; lines: number; ids: string[]}> {
  const input = parseInput(ContextInput, raw)
  const handle = await ctx.repo(input.repo, 'read')
  const now = ctx.now()
  // A context line is ≥ 5 tokens, so no budget can hold more than budget / 5 lines; recency
  // re-orders within this pool.
  const pool = Math.ceil(input.tokens / 5) + 50
  const {counts, primary, changed} = handle.store.read((db) => ({
    counts: liveCounts(db),
    primary: current(db, topLiveOfTypes(db, RULE_TYPES, pool)).map((m) => ({m, w: 1})),
    changed: current(db, topLiveChanged(db, RULE_TYPES, pool)).map((m) => ({m, w: 1})),
  }))
  // Synced layers add their best memories, weighted below local ones, and count in the header.
  const layers = await layerSources(ctx, handle)
  for (const layer of layers) {
    layer.store.read((db) => {
      const c = liveCounts(db)
      for (const t of MEMORY_TYPES) counts[t] += c[t]
      for (const m of current(db, topLiveOfTypes(db, RULE_TYPES, pool))) primary.push({m, w: layer.weight})
      for (const m of current(db, topLiveChanged(db, RULE_TYPES, pool))) changed.push({m, w: layer.weight})
    })
  }
  const count = await loadTokenCounter()
  const total = MEMORY_TYPES.reduce((n, t) => n + counts[t], 0)
  const header = `[Memory: ${total} entries, ${MEMORY_TYPES.map((t) => `${counts[t]} ${PLURAL[t]}`).join(', ')}]`
  const budget = input.tokens
  const lines = [header]
  const ids: string[] = []
  let used = count(header)
  // issue 18: a line of this repo's own store ends with the memory's short ref (a unique key prefix,
  // see storage/refs.ts), so the agent can give feedback or read it by ref; a layer's line has none
  // (a ref resolves within the request's repository only)
  const refOf = (m: Memory) => (m.id.startsWith('memories/layer-') ? null : handle.store.read((db) => shortRef(db, m.id)))

  const seen = new Set<string>()
  const shown = new Set<string>()
  /** Adds lines best first until one would pass `limit` tokens; true when the context is full. */
  const add = (memories: Array<{m: Memory; w: number}>, limit = budget): boolean => {
    // priorities to 3 decimals: memories a few hours apart tie and go newest first, so two calls a
    // moment apart (the CLI and the server) list them in one order
    const ranked = memories
      .map(({m, w}) => ({m, p: Math.round(contextPriority(m, now) * w * 1000)}))
      .sort((a, b) => b.p - a.p || (a.m.createdAt < b.m.createdAt ? 1 : -1))
    for (const {m} of ranked) {
      if (shown.has(m.id) || heldBack(m)) continue
      const text = (m.oneLiner ?? heuristicOneLiner(m.content)).replace(/\s+/g, ' ').trim()
      if (!text || seen.has(text)) continue
      const ref = refOf(m)
      const line = `[${TYPE_LETTER[m.type]}] ${text}${originSuffix(m.origin)}${ref ? ` [${ref}]` : ''}`
      const cost = count(`\n${line}`)
      if (used + cost >= limit) return true // full: the next best would not fit either way
      seen.add(text)
      shown.add(m.id)
      lines.push(line)
      ids.push(m.id)
      used += cost
    }
    return false
  }
  // The current version of a fact that changed leads, in up to half the budget: it is what an agent
  // is least likely to know already (its older notes, the code written before and its training
  // state the outdated value). See docs/currency.md.
  add(changed, Math.floor(budget * CHANGED_SHARE))
  const full = add(primary)
  if (!full) {
    const observations = handle.store.read((db) => current(db, topLiveOfTypes(db, ['observation'], pool))).map((m) => ({m, w: 1}))
    for (const layer of layers) observations.push(...layer.store.read((db) => current(db, topLiveOfTypes(db, ['observation'], pool))).map((m) => ({m, w: layer.weight})))
    add(observations)
  }

  // Line-by-line counts can differ from the whole by a merge at a boundary; check the whole.
  let text = lines.join('\n')
  let tokens = count(text)
  while (tokens >= budget && lines.length > 1) {
    lines.pop()
    ids.pop()
    text = lines.join('\n')
    tokens = count(text)
  }
  return {context: text, tokens, handle, lines: lines.length - 1, ids}
}
