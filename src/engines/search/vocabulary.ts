/**
 * The index vocabulary with document frequencies: for correcting query terms the index has never
 * seen (typos), and for weighting expansion terms. Built from the index on demand.
 */
export class Vocabulary {
  private readonly df = new Map<string, number>()
  private readonly byLength = new Map<number, string[]>()

  constructor(
    entries: Array<{term: string; df: number}>,
    readonly docCount: number,
  ) {
    for (const {term, df} of entries) {
      this.df.set(term, df)
      if (!/^[a-z]{3,}$/.test(term)) continue // only words are typo candidates, not numbers or ids
      let bucket = this.byLength.get(term.length)
      if (!bucket) this.byLength.set(term.length, (bucket = []))
      bucket.push(term)
    }
  }

  docFrequency(term: string): number {
    return this.df.get(term) ?? 0
  }

  idf(term: string): number {
    const df = this.docFrequency(term)
    return Math.log(1 + (this.docCount - df + 0.5) / (df + 0.5))
  }

  /**
   * Known terms within `maxEdits` (Damerau–Levenshtein) of an unknown one, most frequent first.
   * Candidates must share the first letter, as most typos do (and which lets the on-disk index
   * answer with one range scan).
   */
  corrections(term: string, maxEdits: number, limit = 2): string[] {
    const found: Array<{t: string; d: number; df: number}> = []
    for (let len = term.length - maxEdits; len <= term.length + maxEdits; len++) {
      for (const cand of this.byLength.get(len) ?? []) {
        if (cand[0] !== term[0]) continue
        const d = editDistance(term, cand, maxEdits)
        if (d <= maxEdits) found.push({t: cand, d, df: this.docFrequency(cand)})
      }
    }
    found.sort((a, b) => a.d - b.d || b.df - a.df)
    return found.slice(0, limit).map((f) => f.t)
  }
}

/** Optimal-string-alignment distance, giving up (returning max + 1) once it must exceed `max`. */
export function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1
  let prev2: number[] = []
  let prev = Array.from({length: b.length + 1}, (_, j) => j)
  for (let i = 1; i <= a.length; i++) {
    const cur = [i]
    let rowMin = i
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1
      let v = Math.min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost)
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) v = Math.min(v, prev2[j - 2] + 1)
      cur.push(v)
      if (v < rowMin) rowMin = v
    }
    if (rowMin > max) return max + 1
    prev2 = prev
    prev = cur
  }
  return prev[b.length]
}
