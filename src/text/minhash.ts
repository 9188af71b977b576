/**
 * MinHash banding for near-duplicate candidates: memories whose word-shingle sets are ≥ 0.9
 * similar share at least one band key with probability ≥ 0.99 (4 bands of 3 hashes), so a store
 * looks up four keys instead of comparing against every memory. Candidates are then verified with
 * the exact Jaccard similarity.
 */
import {shingleSet} from './shingles.js'
import {factShape, subjectKeys, type FactShape} from './values.js'

export const BANDS = 4
const ROWS = 3
const SEEDS = Array.from({length: BANDS * ROWS}, (_, i) => mix(0x9e3779b9 ^ (i * 0x85ebca6b)))

function mix(h: number): number {
  h ^= h >>> 16
  h = Math.imul(h, 0x85ebca6b)
  h ^= h >>> 13
  h = Math.imul(h, 0xc2b2ae35)
  h ^= h >>> 16
  return h >>> 0
}

function fnv1a(s: string): number {
  let h = 0x811c9dc5
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i)
    h = Math.imul(h, 0x01000193)
  }
  return h >>> 0
}

let last: {content: string; shingles: ReadonlySet<string>; bands: readonly number[]; shape: FactShape} | undefined

/**
 * The shingle set and band keys of a memory's content. A store computes them twice for the same
 * text (the duplicate gate, then the band index), so the last answer is kept. Callers must not
 * modify what they get.
 */
export function contentBands(content: string): {shingles: ReadonlySet<string>; bands: readonly number[]; shape: FactShape} {
  if (last?.content !== content) {
    const shingles = shingleSet(content)
    const shape = factShape(content)
    // the near-duplicate keys, then the subject keys (values.ts) that find updates of a fact
    last = {content, shingles, shape, bands: [...new Set([...bandKeys(shingles), ...subjectKeys(shape)])]}
  }
  return last
}

/** The band keys of a shingle set (empty for an empty set). */
export function bandKeys(shingles: Iterable<string>): number[] {
  const mins = new Array<number>(BANDS * ROWS).fill(0xffffffff)
  let any = false
  for (const s of shingles) {
    any = true
    const base = fnv1a(s)
    for (let i = 0; i < mins.length; i++) {
      const v = mix(base ^ SEEDS[i])
      if (v < mins[i]) mins[i] = v
    }
  }
  if (!any) return []
  const keys: number[] = []
  for (let b = 0; b < BANDS; b++) {
    let h = mix(0x1234567 + b)
    for (let r = 0; r < ROWS; r++) h = mix(h ^ mins[b * ROWS + r])
    // signed 32-bit, as SQLite stores it compactly
    keys.push(h | 0)
  }
  return keys
}
