import {stemmer} from 'stemmer'

const LETTERS = 'abcdefghijklmnopqrstuvwxyz'

/**
 * The stems of every word one edit (delete, transpose, replace, insert) away from `word`, a
 * lowercase Latin word of the query, keeping its first letter as most typos do. Typos are made in
 * the surface form, and stemming can carry one far from its word ("postgress" stems to itself,
 * three edits from "postgr" of "postgres"), so a misspelt query word is corrected here before
 * stemming, as well as stem to stem. Every stem returned starts with the word's first letter.
 */
export function oneEditStems(word: string): Set<string> {
  const out = new Set<string>()
  const add = (w: string) => {
    if (w.length > 2) out.add(stemmer(w))
  }
  for (let i = 1; i < word.length; i++) {
    add(word.slice(0, i) + word.slice(i + 1))
    if (i + 1 < word.length) add(word.slice(0, i) + word[i + 1] + word[i] + word.slice(i + 2))
    for (const c of LETTERS) if (c !== word[i]) add(word.slice(0, i) + c + word.slice(i + 1))
  }
  for (let i = 1; i <= word.length; i++) for (const c of LETTERS) add(word.slice(0, i) + c + word.slice(i))
  out.delete(stemmer(word))
  for (const s of out) if (s[0] !== word[0]) out.delete(s)
  return out
}

/** The lowercase Latin words of a query whose stem is `term` (the surface forms it came from). */
export function surfaceWords(q: string, term: string): string[] {
  const out = new Set<string>()
  for (const w of q.toLowerCase().match(/[a-z]{4,}/g) ?? []) if (stemmer(w) === term) out.add(w)
  return [...out]
}
