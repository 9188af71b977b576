import type {Db} from '../storage/db.js'
import {findLiveByNormHash, liveContaining} from '../storage/memories.js'
import {analyze, NEGATIONS} from '../search/tokenize.js'

/** Word-shingle Jaccard similarity at or above which a new memory is a near-duplicate. */
export const NEAR_DUPLICATE_THRESHOLD = 0.9
const CANDIDATES_PER_PROBE = 64

/**
 * Finds a live memory of the repo that says the same thing: the same text once case, whitespace
 * and punctuation are folded, or a near-duplicate by word-shingle similarity. Candidates for the
 * near test come from the full-text index (memories containing the text's most specific terms),
 * so the cost does not grow with the size of the store.
 */
export function findDuplicate(db: Db, content: string, exclude?: string | null): string | undefined {
  const exact = findLiveByNormHash(db, content)
  if (exact && exact !== exclude) return exact

  const shingles = shingleSet(content)
  const terms = [...new Set(analyze(content))].sort((a, b) => b.length - a.length || (a < b ? -1 : 1))
  if (terms.length < 3) return undefined
  // Two probes of four terms each: a near-duplicate shares almost every term, so it holds one set.
  const probes = [terms.slice(0, 4), terms.slice(4, 8)].filter((p) => p.length >= 3)
  const seen = new Set<string>()
  for (const probe of probes) {
    for (const candidate of liveContaining(db, probe, CANDIDATES_PER_PROBE)) {
      if (candidate.id === exclude || seen.has(candidate.id)) continue
      seen.add(candidate.id)
      if (jaccard(shingles, shingleSet(candidate.content)) >= NEAR_DUPLICATE_THRESHOLD) return candidate.id
    }
  }
  return undefined
}

/** Word 3-shingles of the stemmed text without stop words, negations kept ("do" ≠ "do not"). */
export function shingleSet(text: string): Set<string> {
  const words = analyze(text, {keep: NEGATIONS})
  const out = new Set<string>()
  if (words.length < 3) {
    for (const w of words) out.add(w)
    return out
  }
  for (let i = 0; i + 3 <= words.length; i++) out.add(`${words[i]} ${words[i + 1]} ${words[i + 2]}`)
  return out
}

export function jaccard(a: Set<string>, b: Set<string>): number {
  if (a.size === 0 && b.size === 0) return 1
  let inter = 0
  const [small, large] = a.size <= b.size ? [a, b] : [b, a]
  for (const x of small) if (large.has(x)) inter++
  return inter / (a.size + b.size - inter)
}
