/**
 * Candidates for "the same subject" by meaning (issue 30 item 4): with a meaning model on, the live
 * memories whose vectors are nearest a new text's — above SAME_SUBJECT_COSINE, at most
 * MEANING_CANDIDATES of them — are looked at beside those its words find, and the rules (rules.ts:
 * the `meaning` rule and its guards) decide update, or nothing. With meaning off there are none,
 * and update detection is the words' alone. See docs/currency.md.
 */
import type {Db} from '../../storage/db.js'
import type {MemContext} from '../context.js'
import {embedsSlowly} from '../meaning/load.js'
import {meaningModel} from '../meaning/use.js'
import {duplicateCandidatesBySeq, type DuplicateCandidate} from '../../storage/memories.js'
import {dotProducts, liveVectors} from '../../storage/vectors.js'
import {SAME_SUBJECT_COSINE} from './rules.js'

/** At most this many nearest memories are looked at for a store. */
export const MEANING_CANDIDATES = 8

/** A text's vector from the model in use. */
export interface MeaningVector {
  model: string
  vector: Float32Array
}

/** A candidate by meaning: its row, and its cosine to the new text. */
export type MeaningCandidate = DuplicateCandidate & {similarity: number}

/** The live memories nearest `q` by cosine, at least `min`, most similar first (ties: newest first), at most `limit`. */
export function nearestByMeaning(db: Db, q: MeaningVector, {min = SAME_SUBJECT_COSINE, limit = MEANING_CANDIDATES, exclude}: {min?: number; limit?: number; exclude?: string | null} = {}): MeaningCandidate[] {
  const dims = q.vector.length
  const {seqs, matrix} = liveVectors(db, q.model, dims)
  const dots = dotProducts(matrix, q.vector, seqs.length)
  const near: Array<{seq: number; similarity: number}> = []
  for (let r = 0; r < seqs.length; r++) if (dots[r] >= min) near.push({seq: seqs[r], similarity: dots[r]})
  near.sort((a, b) => b.similarity - a.similarity || b.seq - a.seq)
  const top = near.slice(0, limit + 1)
  const rows = new Map(duplicateCandidatesBySeq(db, top.map((n) => n.seq)).map((r) => [r.seq, r]))
  const out: MeaningCandidate[] = []
  for (const n of top) {
    const row = rows.get(n.seq)
    if (!row || row.id === exclude) continue
    out.push({id: row.id, content: row.content, createdAt: row.createdAt, type: row.type, links: row.links, similarity: n.similarity})
  }
  return out.slice(0, limit)
}

/**
 * A new text's vector from the context's meaning model (loaded on first use), to store with it and
 * to find its candidates by; null when meaning is off or the model cannot load or answer (then the
 * store is the words' alone, as with meaning off; a model that fails is told once, through ctx.notice).
 * Only a cheap model in process (the static table, a local one) is asked: the enrichment runtime's is a
 * request to another server, which a store does not wait for — its vectors come as before (`mem
 * enrich`, the next recall, the server's drain), and its stores compare words alone. Nor is the
 * built-in model (nor an ONNX model the user brings, embedsSlowly): it takes about 25 ms a text (and half a second to load in a one-shot command),
 * several times a whole store, so the memory waits in the queue (engines/meaning/pending.ts) and
 * gets its vector, and the update links meaning finds for it (gates/admit.ts planMeaningLinks),
 * from the next recall that asks the model or a long-lived process's drain when it is idle.
 */
export async function vectorOfNewText(ctx: MemContext, content: string): Promise<MeaningVector | null> {
  if (await slowSetting(ctx)) return null
  const model = await meaningModel(ctx)
  if (!model || model.about.kind === 'runtime') return null
  try {
    const [vector] = await model.embed([content])
    return vector ? {model: model.id, vector} : null
  } catch (err) {
    ctx.notice?.(`The meaning model failed (${err instanceof Error ? err.message.split('\n')[0] : String(err)}); this store compares words alone.`)
    return null
  }
}

/**
 * Whether the context's meaning model is one a store does not wait for: the built-in model, or a
 * sentence-transformer the user brings as ONNX (a network as costly as it, or more). False when the
 * setting cannot be read: the model step says why.
 */
async function slowSetting(ctx: MemContext): Promise<boolean> {
  try {
    return ctx.meaning !== undefined && embedsSlowly((await ctx.meaning()).setting)
  } catch {
    return false
  }
}
