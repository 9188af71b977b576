import type Fuse from 'fuse.js'
import {lazyRequire} from '../../model/lazy-require.js'
import type {Memory} from '../../model/memory.js'

/** fuse.js, loaded when a fallback first needs it: most recalls never do. */
const fuseClass = lazyRequire<typeof Fuse>('fuse.js')

/**
 * Typo-tolerant matching on the short fields (one-liners and tags) with fuse.js. It is the
 * fallback when the full-text index finds fewer than asked, never the primary ranker.
 */
export interface FuzzyDoc {
  seq: number
  oneLiner: string
  tags: string
}

export class FuzzyIndex {
  private fuse: Fuse<FuzzyDoc>

  constructor(docs: FuzzyDoc[]) {
    this.fuse = new (fuseClass())(docs, {
      keys: [
        {name: 'oneLiner', weight: 0.7},
        {name: 'tags', weight: 0.3},
      ],
      includeScore: true,
      ignoreLocation: true,
      threshold: 0.34,
      minMatchCharLength: 3,
    })
  }

  /** Matches with a relevance in 0..1 (1 is an exact match). */
  search(q: string, limit: number): Array<{seq: number; relevance: number}> {
    return this.fuse.search(q, {limit}).map((r) => ({seq: r.item.seq, relevance: 1 - (r.score ?? 1)}))
  }
}

export function fuzzyDoc(seq: number, m: Pick<Memory, 'oneLiner' | 'content' | 'tags'>): FuzzyDoc {
  return {seq, oneLiner: m.oneLiner ?? m.content.slice(0, 120), tags: m.tags.join(' ')}
}
