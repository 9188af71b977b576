import type {EmbeddingsConfig, EnrichmentConfig, EnrichProvider} from '../../config/user-config.js'
import {MAX_EMBED_DIMS} from '../../config/limits.js'
import {MemError} from '../../model/errors.js'
import {requestJson} from './http.js'

/**
 * An embedding model on the enrichment runtime: Ollama's `POST /api/embed {model, input}` →
 * `{embeddings: [[…]]}`, or an OpenAI-compatible `POST /v1/embeddings {model, input}` →
 * `{data: [{embedding: […]}]}`. The answer is untrusted data: it must hold exactly one vector per
 * input, each an array of finite numbers of one length (the configured `dims` when set, at most
 * MAX_EMBED_DIMS), not all zero; anything else is a MemError('unavailable'). Vectors come back
 * as unit-length Float32Arrays, so a cosine similarity is a dot product.
 */
export interface Embedder {
  provider: EnrichProvider
  model: string
  url: string
  /** For a recall query (short: recall answers without the vector when it passes). */
  queryTimeoutMs: number
  /** For a batch of memories (`mem enrich`, maintenance). */
  batchTimeoutMs: number
  embed(texts: string[], timeoutMs: number): Promise<Float32Array[]>
}

export {MAX_EMBED_DIMS} from '../../config/limits.js'
/** Memories sent per embedding request. */
export const EMBED_BATCH = 16
/** How much of a memory is embedded (as much as the chat prompt shows). */
export const MAX_EMBED_TEXT = 8_000
/** The most of an embedding answer that is read (16 vectors of the longest length, as JSON). */
export const MAX_EMBED_ANSWER_BYTES = 8 * 1024 * 1024

export function createEmbedder(config: EnrichmentConfig): Embedder | null {
  const e: EmbeddingsConfig | null | undefined = config.embeddings
  if (!e) return null
  const root = config.url.replace(/(?<!\/)\/+$/, '')
  const openai = config.provider === 'openai'
  const base = openai ? (/\/v\d+$/.test(root) ? root : `${root}/v1`) : root
  const label = {provider: config.provider, model: e.model, url: base}
  const endpoint = openai ? `${base}/embeddings` : `${base}/api/embed`
  return {
    provider: config.provider,
    model: e.model,
    url: base,
    queryTimeoutMs: e.timeoutMs,
    batchTimeoutMs: Math.max(config.timeoutMs, e.timeoutMs),
    async embed(texts, timeoutMs) {
      if (texts.length === 0) return []
      const input = texts.map((t) => (t.length > MAX_EMBED_TEXT ? t.slice(0, MAX_EMBED_TEXT) : t))
      const body = await requestJson(label, endpoint, {method: 'POST', timeoutMs, maxBytes: MAX_EMBED_ANSWER_BYTES, body: {model: e.model, input}})
      const raw = openai ? openAiVectors(body) : (body as {embeddings?: unknown})?.embeddings
      return checkVectors(raw, texts.length, e.dims, `${config.provider} (embedding model ${e.model} at ${base})`)
    },
  }
}

function openAiVectors(body: unknown): unknown {
  const data = (body as {data?: unknown})?.data
  if (!Array.isArray(data)) return undefined
  // OpenAI returns an index per item; order by it when every item has one
  const items = data as Array<{index?: unknown; embedding?: unknown}>
  const indexed = items.every((d) => Number.isInteger(d?.index))
  const ordered = indexed ? [...items].sort((a, b) => (a.index as number) - (b.index as number)) : items
  return ordered.map((d) => d?.embedding)
}

/** Validates an answer's vectors and returns them unit-length. Throws MemError('unavailable'). */
export function checkVectors(raw: unknown, count: number, dims: number | null, who: string): Float32Array[] {
  const bad = (why: string) =>
    new MemError('unavailable', `The embedding runtime ${who} answered with ${why}; no vector was stored.`, {
      hint: 'Check enrichment.embeddings.model names an embedding model (and enrichment.embeddings.dims its vector length).',
    })
  if (!Array.isArray(raw)) throw bad('no list of vectors')
  if (raw.length !== count) throw bad(`${raw.length} vectors for ${count} inputs`)
  let length = dims
  const out: Float32Array[] = []
  for (const v of raw) {
    if (!Array.isArray(v) || v.length === 0) throw bad('an item that is not a list of numbers')
    if (v.length > MAX_EMBED_DIMS) throw bad(`a vector of ${v.length} numbers (at most ${MAX_EMBED_DIMS} are accepted)`)
    if (length === null) length = v.length
    if (v.length !== length) throw bad(`a vector of ${v.length} numbers where ${length} were expected`)
    const f = new Float32Array(v.length)
    let norm = 0
    for (let i = 0; i < v.length; i++) {
      const x = v[i]
      if (typeof x !== 'number' || !Number.isFinite(x) || Math.abs(x) > 1e30) throw bad('a value that is not a finite number')
      f[i] = x
      norm += f[i] * f[i]
    }
    if (!(norm > 0) || !Number.isFinite(norm)) throw bad('a zero vector')
    const inv = 1 / Math.sqrt(norm)
    for (let i = 0; i < f.length; i++) f[i] *= inv
    out.push(f)
  }
  return out
}

/** The cosine similarity of two unit-length vectors of the same length. */
export function dot(a: Float32Array, b: Float32Array): number {
  let s = 0
  for (let i = 0; i < a.length; i++) s += a[i] * b[i]
  return s
}
