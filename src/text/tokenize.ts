import {stemmer} from 'stemmer'
import {STOP_WORDS} from './stopwords.js'

/**
 * Text analysis shared by the index, the query parser and the duplicate detector, so that a
 * document and a question about it are reduced to the same terms:
 * accents and case folded, code-ish tokens (snake_case, camelCase, paths, --flags, versions)
 * split into their parts and also kept whole, stop words dropped, Latin words Porter-stemmed,
 * CJK runs turned into character bigrams (they have no spaces to split on).
 */

// A raw token: letters/digits, joined by the punctuation that glues code identifiers together.
const RAW_TOKEN = /[\p{L}\p{N}]+(?:[_.\-:/@+#][\p{L}\p{N}]+)*/gu
const CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u
const CJK_RUN = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]+/gu
const LATIN_WORD = /^[a-z]+$/
const MAX_TERM_CHARS = 48

/**
 * The characters whose compatibility decomposition (marks dropped) is longer than 4 code units:
 * U+FDFA is 18 and four words, so 16,000 of them made 64,000 words of one memory. They are kept
 * as they are; every other character folds (`Ⅷ` → `VIII`, `⑽` → `(10)`, Hangul syllables to
 * their letters), so no text grows more than 4× (a test checks the list against the runtime's Unicode).
 */
export const LONG_FOLDS = /[\u321d\u321e\u327c\u3307\u3315-\u3317\u3319\u331a\u3320\u332b\u332e\u3332\u3334\u3336\u3347\u334a\u3356\u33ae\u33af\ufdfa\ufdfb\u{16d6a}]/u

// The runs of a text between LONG_FOLDS characters, which fold; the characters themselves are kept.
const FOLDABLE_RUN = new RegExp(`[^${LONG_FOLDS.source.slice(1, -1)}]+`, 'gu')
const ASCII_ONLY = /^[\u0000-\u007f]*$/
const MARKS = /\p{M}+/gu
const foldRun = (run: string): string => run.normalize('NFKD').replace(MARKS, '')
// The last text folded: a store folds its content for the duplicate key, its shingles, its index
// terms and its fact shape, one after the other.
let lastFold: {text: string; folded: string} | undefined

/** Folds accents (NFKD, marks dropped) but keeps case, which camelCase splitting needs. */
export function foldAccents(text: string): string {
  // ASCII has no marks and no compatibility forms: it folds to itself
  if (ASCII_ONLY.test(text)) return text
  if (lastFold?.text === text) return lastFold.folded
  const folded = LONG_FOLDS.test(text) ? text.replace(FOLDABLE_RUN, foldRun) : foldRun(text)
  lastFold = {text, folded}
  return folded
}

// A token with no separator and no capital inside (most words): it is its only part.
const ONE_PART = /^[A-Za-z]?[a-z0-9]*$/
const UPPER = /\p{Lu}/u

function splitParts(raw: string): string[] {
  if (ONE_PART.test(raw)) return [raw]
  return raw
    .split(/[_.\-:/@+#]+/)
    .flatMap((piece) =>
      // a piece without a capital has no boundary inside (numbers, lowercase words, most scripts)
      !UPPER.test(piece)
        ? [piece]
        : piece
            // camelCase and PascalCase boundaries, and acronyms before a word: HTTPServer → HTTP Server
            .replace(/(\p{Ll})(\p{Lu})/gu, '$1 $2')
            .replace(/(\p{Lu})(\p{Lu}\p{Ll})/gu, '$1 $2')
            .split(' '),
    )
    .filter(Boolean)
}

// Stems of words seen lately: the same few thousand words come back in every text and query.
const STEMS = new Map<string, string>()
const MAX_STEMS = 50_000

function stemWord(word: string): string {
  if (word.length <= 2) return word
  let stem = STEMS.get(word)
  if (stem === undefined) {
    stem = LATIN_WORD.test(word) ? stemmer(word) : word
    if (STEMS.size >= MAX_STEMS) STEMS.clear()
    STEMS.set(word, stem)
  }
  return stem
}

function cjkBigrams(run: string, out: string[]): void {
  const chars = [...run]
  if (chars.length === 1) out.push(chars[0])
  for (let i = 0; i + 1 < chars.length; i++) out.push(chars[i] + chars[i + 1])
}

export interface AnalyzeOptions {
  /** Keep stop words (used when a query has nothing else). */
  keepStopWords?: boolean
  /** Stop words to keep all the same (negations, for duplicate detection). */
  keep?: ReadonlySet<string>
}

/** Words that flip a statement's meaning: "do X" and "do not X" must never look alike. */
export const NEGATIONS: ReadonlySet<string> = new Set([
  'not', 'no', 'nor', 'never', 'cannot', "can't", 'cant', "don't", 'dont', "doesn't", 'doesnt', "didn't", 'didnt',
  "isn't", 'isnt', "aren't", 'arent', "wasn't", 'wasnt', "won't", 'wont', "shouldn't", 'shouldnt', 'without',
])

/**
 * What one raw token reads as, in order: a string is a term always kept (a CJK bigram, a compound's
 * whole); a word is kept unless it is a stop word the options drop.
 */
type Reading = ReadonlyArray<string | {readonly word: string; readonly stem: string; readonly stop: boolean}>

// Readings of raw tokens seen lately: the words of a text come back in it and in every text after.
const READINGS = new Map<string, Reading>()
const MAX_READINGS = 50_000

function readRaw(raw: string): Reading {
  let reading = READINGS.get(raw)
  if (reading !== undefined) return reading
  const out: Array<Reading[number]> = []
  if (CJK.test(raw)) {
    const bigrams: string[] = []
    for (const run of raw.match(CJK_RUN) ?? []) cjkBigrams(run, bigrams)
    out.push(...bigrams)
    const rest = raw.replace(CJK_RUN, ' ')
    if (rest.trim()) for (const match of foldAccents(rest).matchAll(RAW_TOKEN)) out.push(...readRaw(match[0]))
  } else {
    const parts = splitParts(raw)
    const lowered = parts.map((p) => p.toLowerCase())
    for (const word of lowered) {
      if (word.length > MAX_TERM_CHARS) continue
      // a letter alone says nothing, whether or not stop words are kept (a digit does)
      if (word.length === 1 && !/\p{N}/u.test(word)) continue
      out.push({word, stem: stemWord(word), stop: STOP_WORDS.has(word)})
    }
    if (parts.length > 1) {
      const whole = lowered.join('')
      if (whole.length <= MAX_TERM_CHARS) out.push(whole)
    }
  }
  reading = out
  if (READINGS.size >= MAX_READINGS) READINGS.clear()
  READINGS.set(raw, reading)
  return reading
}

/** Reduces text to index terms, in order, duplicates kept (term frequency matters). */
export function analyze(text: string, options: AnalyzeOptions = {}): string[] {
  const out: string[] = []
  const dropStops = !options.keepStopWords
  for (const match of foldAccents(text).matchAll(RAW_TOKEN)) {
    for (const r of readRaw(match[0])) {
      if (typeof r === 'string') out.push(r)
      else if (!(dropStops && r.stop && !options.keep?.has(r.word))) out.push(r.stem)
    }
  }
  return out
}

/**
 * The code identifiers of a text (OPS-4821, parseConfigFile, node_modules/.bin): each one's whole
 * term, as analyze() indexes it, and the terms of its parts.
 */
export function compounds(text: string): Array<{whole: string; parts: string[]}> {
  const out: Array<{whole: string; parts: string[]}> = []
  for (const match of foldAccents(text).matchAll(RAW_TOKEN)) {
    if (CJK.test(match[0])) continue
    const lowered = splitParts(match[0]).map((p) => p.toLowerCase())
    const whole = lowered.join('')
    if (lowered.length < 2 || whole.length > MAX_TERM_CHARS) continue
    out.push({whole, parts: lowered.filter((w) => w.length <= MAX_TERM_CHARS).map(stemWord)})
  }
  return out
}

/** Index text for one field: the analyzed terms joined by spaces. */
export function indexText(text: string): string {
  return analyze(text).join(' ')
}

/**
 * Text folded for exact-duplicate detection: case, accents, whitespace and punctuation folded,
 * nothing stemmed or dropped, so only texts that say exactly the same thing collide.
 */
export function normalizeForDuplicate(text: string): string {
  return foldAccents(text)
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim()
}
