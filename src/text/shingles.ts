import {keptBy} from './kept.js'
import {analyze, NEGATIONS} from './tokenize.js'

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

/**
 * shingleSet, kept for the texts read lately (kept.ts): a store's text is read as the new text,
 * then as a candidate of the next stores. Callers must not modify what they get.
 */
export const shinglesOf: (text: string) => ReadonlySet<string> = keptBy(shingleSet)
