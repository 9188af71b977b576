import type {Db} from '../../storage/db.js'
import {findLiveByNormHash, nearDuplicateCandidates} from '../../storage/memories.js'
import {contentBands} from '../../text/minhash.js'
import {shingleSet} from '../../text/shingles.js'
import {jaccard} from '../../text/similarity.js'

/** Word-shingle Jaccard similarity at or above which a new memory is a near-duplicate. */
export const NEAR_DUPLICATE_THRESHOLD = 0.9
const CANDIDATES = 64

/**
 * Finds a live memory of the repo that says the same thing: the same text once case, whitespace
 * and punctuation are folded, or a near-duplicate by word-shingle similarity. Candidates for the
 * near test share a MinHash band key (minhash.ts), so the cost does not grow with the store.
 */
export function findDuplicate(db: Db, content: string, exclude?: string | null): string | undefined {
  const exact = findLiveByNormHash(db, content)
  if (exact && exact !== exclude) return exact

  const {shingles, bands} = contentBands(content)
  for (const candidate of nearDuplicateCandidates(db, bands, CANDIDATES)) {
    if (candidate.id === exclude) continue
    if (jaccard(shingles, shingleSet(candidate.content)) >= NEAR_DUPLICATE_THRESHOLD) return candidate.id
  }
  return undefined
}
