/**
 * The shape of a fact: what it is about (its subject words) and the values it states (quoted
 * strings, identifiers, numbers and versions, paths, flags, names, case styles). Two texts with
 * the same subject and other values are two facts, most often a fact and its update
 * ("argument names start with 'e_'" → "… with 'j_'"); two texts with the same values in other
 * words are one fact said twice. Pure functions; the rules that compare two shapes are an engine
 * (engines/currency/rules.ts); see docs/currency.md.
 */
import {stemmer} from 'stemmer'
import {STOP_WORDS} from './stopwords.js'
import {foldAccents, NEGATIONS} from './tokenize.js'
import {keptBy} from './kept.js'

export interface FactShape {
  /** Subject words: stems of the words that are not values and not stop words, sorted, unique. */
  words: string[]
  /**
   * The subject words less the words of instruction ("use", "must", "always", "convention"…) that
   * another wording of one fact adds or drops: what two wordings are compared on.
   */
  core: string[]
  /** Stems of the soft values (the word that ends a clause): subject words when the other text has them too. */
  soft: string[]
  /** Value keys, sorted, unique (case kept where case is meaning: identifiers, quoted text, flags). */
  values: string[]
  /** Every word of the text and of its values, lowercased: what a value of another text is looked up in. */
  tokens: Set<string>
  /** The text's words in order, without surrounding punctuation or quotes. */
  sequence: string[]
  /** Where clauses end in `sequence` (punctuation bounds a clause): the index after each clause's last word. */
  breaks: number[]
  /** Whether the text asks (ends with a question mark): a question states no value. */
  question: boolean
  /** How each value and each subject word was written, for reasons people read. */
  shown: Map<string, string>
  /**
   * The text's first sentence, when more follows it (after a semicolon, a full stop, or a colon or
   * dash before a capital), or what it states before it says why ("…, which …", "… so that …",
   * "… because …"): "The Android app has `minSdkVersion 24`" of "…; devices older than Android 7 are
   * no longer supported", "Tag releases as `app-v1.2.3`" of "… so they do not collide with the SDK
   * tags". Absent for a text of one such part.
   */
  lead?: string
}

/** Where a text's first sentence ends: a semicolon, a full stop after a word (not the dots of a path), a colon or a dash before a capital, or a word that says why (which, because, so that, …). A run of spaces is tried from its start only: tried at each of its spaces, 20,000 of them took half a second. */
const SENTENCE_END = /;\s|(?<=[\p{L}\p{N})`'"])(?<!\b(?:e\.g|i\.e|etc|vs|cf))\.\s+(?=[\p{Lu}`])|:\s+(?=\p{Lu})|\s[—–]\s|,?(?<!\s)\s+(?=(?:which|because|since|so that|so|to keep|to avoid)\s)/u

/** The first sentence of a text, when another follows it or it holds an aside (FactShape `lead`). */
function leadOf(text: string): string | undefined {
  const m = SENTENCE_END.exec(text)
  const first = !m || m.index === 0 || text.slice(m.index + m[0].length).trim() === '' ? text : text.slice(0, m.index)
  const lead = withoutAsides(first).trim()
  return lead === '' || lead === text.trim() ? undefined : lead
}

/**
 * A sentence without the asides it holds in brackets after a word: "Kotlin code is checked with
 * detekt (with its ktlint formatting rules switched on)", "Write unit tests with JUnit 5 (Jupiter)".
 * Brackets after a space only, of at most 160 characters and none inside: the `()` of `log()` is code.
 * Code, not a pattern (house rule: no pattern that can backtrack over a run).
 */
function withoutAsides(sentence: string): string {
  let out = ''
  let from = 0
  for (let open = sentence.indexOf(' (', from); open >= 0; open = sentence.indexOf(' (', from)) {
    const close = sentence.indexOf(')', open + 2)
    const inner = close < 0 ? '' : sentence.slice(open + 2, close)
    if (close < 0 || inner.length === 0 || inner.length > 160 || inner.includes('(') || !/^$|^[\s.,;:!?]/.test(sentence.slice(close + 1, close + 2))) {
      out += sentence.slice(from, open + 2)
      from = open + 2
      continue
    }
    out += sentence.slice(from, open)
    from = close + 1
  }
  return out + sentence.slice(from)
}

// A quoted span: opened after a space, bracket or `=`/`:`, closed before a space or punctuation.
const QUOTED = /(^|[\s([{=:,])(['"`])([^'"`\n]{1,80}?)\2(?=$|[\s)\]}.,;:!?])/g
const LEADING = /^[("'`[{<*]+/
/** Punctuation stripped from a word's end (TRAILING_CHARS) — a loop, not a regex: `/[…]+$/` retries at every position of a run of it. */
const TRAILING_CHARS = new Set(')"\'`]}>.,;:!?*')
const CASE_STYLES = new Set([
  'camelcase', 'pascalcase', 'snakecase', 'kebabcase', 'uppercase', 'lowercase', 'titlecase', 'screamingcase', 'upper', 'lower',
  'camel', 'pascal', 'snake', 'kebab', 'tabs', 'spaces',
])
// Words that say how a fact is instructed, not what it is about: "Use Python 3.12 for the data
// scripts" and "The data scripts need Python 3.11" are about the same thing. Verbs of a subject
// ("run", "build", "start", "end") are not among them: "class names end with _K" and "class names
// are written in CamelCase" are two conventions.
export const INSTRUCTION_WORDS = new Set(
  [
    'use', 'uses', 'used', 'using', 'need', 'needs', 'needed', 'must', 'should', 'always', 'written', 'done', 'ask', 'convention', 'rule', 'please', 'required', 'requires', 'prefer', 'preferred',
    // words that say a fact changed, not what it is about: "The GraphQL gateway moved to port 4100"
    'moved', 'switched', 'changed', 'upgraded', 'downgraded', 'replaced', 'rewritten', 'now',
  ].map(
    (w) => stemmer(w),
  ),
)
const MAX_WORDS_LESS_ONE = 12
/** A value that is not soft (soft: the plain word ending a clause). */
export const isHard = (v: string) => !v.startsWith('s:')
const MAX_WORDS_LESS_TWO = 7
const MIN_WORDS_LESS_TWO = 4

/**
 * A value's kind: numbers, quoted text, paths, flags, prefixes and suffixes of names ('e_', _a), case
 * styles (CamelCase, snake_case, all UPPERCASE: a style is not a name's prefix or suffix), names
 * (identifiers and proper names alike).
 */
export function kindOf(key: string): string {
  const k = key.slice(0, 1)
  // a prefix ('e_', T_) and a suffix (_a, '_K') are two kinds: a name may have both
  if (/^[\p{L}\p{N}]+[_-]$/u.test(key.slice(2))) return 'prefix'
  if (/^[_-][\p{L}\p{N}]+$/u.test(key.slice(2))) return 'suffix'
  if (k !== 'i' && k !== 'w' && k !== 's') return k
  const body = key.slice(2).toLowerCase()
  return CASE_STYLES.has(body.replace(/[_\s-]/g, '')) || /[a-z]case$/.test(body) ? 'case' : 'name'
}

export function stem(word: string): string {
  return /^[a-z]+$/.test(word) && word.length > 2 ? stemmer(word) : word
}

/**
 * Whether a raw word ends a clause (`/[,.;:!?)]["')\]]*$/`) or a sentence (`/[.!?:;]["')\]]*$/`):
 * one of `marks` before closing quotes and brackets. Read from the end, as a regex of that shape
 * tried at every position is quadratic on a run of `)`.
 */
function endsWithMark(raw: string, marks: string): boolean {
  let i = raw.length - 1
  while (i >= 0 && CLOSERS.includes(raw[i])) {
    // a closer that is itself a mark (`)` of a clause) ends it, whatever closes after it
    if (marks.includes(raw[i])) return true
    i--
  }
  return i >= 0 && marks.includes(raw[i])
}
const CLOSERS = `"')]`
const CLAUSE_MARKS = ',.;:!?)'
const SENTENCE_MARKS = '.!?:;'
const endsClauseMark = (raw: string) => endsWithMark(raw, CLAUSE_MARKS)

/** A word without the punctuation around it (quotes, brackets, a sentence's end). */
function bareOf(raw: string): string {
  const w = raw.replace(LEADING, '')
  let end = w.length
  while (end > 0 && TRAILING_CHARS.has(w[end - 1])) end--
  return end === w.length ? w : w.slice(0, end)
}
/** Stands where a quoted value was taken out of a text. */
const QUOTED_MARK = '\u0001'

/** The words of a text in order, and where its clauses end. */
function sequenceOf(folded: string): {sequence: string[]; breaks: number[]} {
  const sequence: string[] = []
  const breaks: number[] = []
  for (const raw of folded.split(/\s+/)) {
    const w = bareOf(raw)
    if (w) sequence.push(w)
    if ((endsClauseMark(raw) || /^[-–—•*#>]+$/.test(raw)) && breaks.at(-1) !== sequence.length) breaks.push(sequence.length)
  }
  return {sequence, breaks}
}

/**
 * For each word, whether it is the last of its clause but for stop words (`bares`: the words
 * without their punctuation). Read from the end, in one pass: a word closes its clause when it
 * ends one, or when the next word is a stop word that closes it.
 */
function clauseClosers(raws: readonly string[], bares: readonly string[]): boolean[] {
  const out = new Array<boolean>(raws.length)
  for (let i = raws.length - 1; i >= 0; i--) {
    if (endsClauseMark(raws[i]) || i === raws.length - 1) {
      out[i] = true
      continue
    }
    const w = bares[i + 1].toLowerCase()
    out[i] = !(w === QUOTED_MARK || !STOP_WORDS.has(w) || NEGATIONS.has(w)) && out[i + 1]
  }
  return out
}

const SHOUTED_WORD = /^\p{Lu}{2,}$/u
/**
 * Whether a text is written in capitals ("NEVER PUSH TO MAIN ON FRIDAYS"): most of its words of
 * letters, three at least (`bares`: its words without surrounding punctuation). Then its capitals
 * say nothing of names (ALICE, MAX_RETRY_COUNT stays an identifier by its underscores); in other
 * texts a word in capitals is a name (an acronym, a constant) and a value.
 */
function isShouted(bares: readonly string[]): boolean {
  let letters = 0
  let capitals = 0
  for (const t of bares) {
    if (!/^\p{L}+$/u.test(t)) continue
    letters++
    if (SHOUTED_WORD.test(t)) capitals++
  }
  return capitals >= 3 && 5 * capitals >= 3 * letters
}


/** factShape, kept for the texts read lately (kept.ts). Callers must not modify what they get. */
export const factShapeOf = keptBy((text: string) => factShape(text))

/** What joins a file and the headings of a section in intake's labels (engines/intake): `AGENTS.md › Development › Tests`. */
export const SECTION_MARK = ' › '

/**
 * A text without the label intake puts before a seed of a section ("AGENTS.md › Testing: …",
 * "apps/web/CLAUDE.md › Style › Imports: …", engines/intake/extract.ts): where it came from, not
 * what it says. Read as words, the label made every two seeds of a file share a subject and differ
 * in a value (their sections, their folders), and the update rules linked them.
 */
export function withoutSectionLabel(text: string): string {
  const colon = text.indexOf(': ')
  if (colon < 0 || colon > 300 || !text.slice(0, colon).includes(SECTION_MARK)) return text
  return text.slice(colon + 2)
}

/** Reads the subject words and the values of a text (without an intake label: withoutSectionLabel). */
export function factShape(labelled: string): FactShape {
  const text = withoutSectionLabel(labelled)
  const words = new Set<string>()
  const values = new Set<string>()
  const tokens = new Set<string>()
  const shown = new Map<string, string>()
  const value = (key: string, as: string) => {
    values.add(key)
    for (const t of key.slice(2).toLowerCase().split(/\s+/)) tokens.add(t)
    if (!shown.has(key)) shown.set(key, as)
  }
  const folded = foldAccents(text)
  const rest = folded.replace(QUOTED, (_m, before: string, q: string, inner: string) => {
    value(`q:${inner}`, `${q}${inner}${q}`)
    // a mark where the value stood: the word before it does not end the clause
    return `${before} ${QUOTED_MARK} `
  })
  let sentenceStart = true
  const raws = rest.split(/\s+/).filter(Boolean)
  const bares = raws.map(bareOf)
  const shouted = isShouted(bares)
  const closers = clauseClosers(raws, bares)
  for (const [i, raw] of raws.entries()) {
    const endsSentence = endsWithMark(raw, SENTENCE_MARKS) || /^[-–—•*#>]+$/.test(raw)
    // the word that ends a clause is what the clause states: "the log level is info", "install
    // the dependencies with npm; …" (a word inside a phrase, like "method" in "method names", is not)
    // ("installed with pnpm only": stop words after it do not count)
    const endsClause = closers[i]
    const bare = bares[i]
    // in a text written in capitals a word in capitals is a word, not a name
    const t = shouted && SHOUTED_WORD.test(bare) && !CASE_STYLES.has(bare.toLowerCase()) ? bare.toLowerCase() : bare
    const atStart = sentenceStart
    sentenceStart = endsSentence
    if (!t || t === QUOTED_MARK) continue
    const lower = t.toLowerCase()
    // every word is there for another text's values to be found in, whatever it is read as below
    // (USETHEME( in a text in capitals states the useTheme( of another)
    tokens.add(lower)
    // most tokens are plain lowercase words: they skip the value tests below
    const plainWord = /^[a-z]+$/.test(t) && !CASE_STYLES.has(t)
    if (plainWord) {
      tokens.add(t)
      if ((STOP_WORDS.has(t) && !NEGATIONS.has(t)) || t.length === 1) continue
      if (endsClause && !atStart) value(`s:${t}`, t)
      else {
        const st = stem(t)
        words.add(st)
        if (!shown.has(st)) shown.set(st, t)
      }
      continue
    }
    if (/\p{N}/u.test(t)) {
      // numbers and versions: v20 and 20 are one value; 20.1 is another
      value(`n:${lower.replace(/^v(?=\d)/, '')}`, t)
    } else if (/^--?\p{L}/u.test(t)) {
      value(`f:${t}`, t)
    } else if (/[/\\]/.test(t)) {
      value(`p:${t}`, t)
    } else if (/^[_$]|_$|\p{L}[_.:@#=$-]+\p{L}|\p{Ll}\p{Lu}|^\p{Lu}\p{Ll}+\p{Lu}/u.test(t) || /^@\p{L}|[<>]/u.test(t)) {
      // identifiers; a handle or a decorator (@dana, @retry); a pattern with placeholders (<domain>.<entity>, test_<unit>_<case>)
      value(`i:${t}`, t)
    } else if (/^\p{Lu}{2,}$/u.test(t) || CASE_STYLES.has(lower) || (!atStart && /^\p{Lu}\p{Ll}/u.test(t))) {
      // ALLCAPS, case styles and names: compared without case ("Alice", "ALICE")
      value(`w:${lower}`, t)
    } else if (/^\p{L}+$/u.test(t)) {
      tokens.add(lower)
      if (STOP_WORDS.has(lower) && !NEGATIONS.has(lower)) continue
      if (lower.length === 1) continue
      if (endsClause && !atStart) {
        // a soft value: it tells an update, but a restatement may add or drop such a word
        value(`s:${lower}`, t)
        continue
      }
      const s = stem(lower)
      words.add(s)
      if (!shown.has(s)) shown.set(s, t)
    }
  }
  const sorted = [...words].sort()
  const soft = [...values].filter((v) => v.startsWith('s:')).map((v) => stem(v.slice(2)))
  const lead = leadOf(text)
  return {
    words: sorted,
    core: sorted.filter((w) => !INSTRUCTION_WORDS.has(w)),
    soft: [...new Set(soft)].sort(),
    ...sequenceOf(folded),
    values: [...values].sort(),
    tokens,
    shown,
    question: /\?\s*$/.test(text),
    ...(lead === undefined ? {} : {lead}),
  }
}

/**
 * The values one shape states that the other does not. A value counts as stated when each of its
 * words, in any case, is there as a value or a plain word: `npm test` in backticks and npm TEST
 * are one value; 'e_' and 'e' are two.
 */
export function valuesOnly(a: FactShape, b: FactShape): string[] {
  const words = valueWords(a)
  return a.values.filter((_, i) => !words[i].every((t) => b.tokens.has(t)))
}

// The words of each of a shape's values, made once per shape: a store compares its text with each
// candidate several times (a text of 2,000 versions split its values again every time).
const VALUE_WORDS = new WeakMap<FactShape, ReadonlyArray<readonly string[]>>()
function valueWords(shape: FactShape): ReadonlyArray<readonly string[]> {
  let words = VALUE_WORDS.get(shape)
  if (words === undefined) VALUE_WORDS.set(shape, (words = shape.values.map((v) => v.slice(2).toLowerCase().split(/\s+/))))
  return words
}

/** Whether two shapes state the same values (a restatement, when their texts are alike too). */
export function sameValues(a: FactShape, b: FactShape): boolean {
  return valuesOnly(a, b).filter(isHard).length === 0 && valuesOnly(b, a).filter(isHard).length === 0
}


/** Kinds of value that name one thing (a tool, a path, an identifier, a flag), unlike numbers, case styles or affixes. */
export const STRONG_KINDS = new Set(['name', 'p', 'q', 'f'])

function fnv1a(s: string): number {
  let h = 0x811c9dc5
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i)
    h = Math.imul(h, 0x01000193)
  }
  return h | 0 // signed 32-bit, as the band table stores keys
}

/**
 * Lookup keys for texts about the same subject: the hash of the subject words, and for short
 * texts the hashes of the words less each one and less each two (texts a word or two apart share
 * a key). They sit in
 * the MinHash band table beside the near-duplicate keys; every candidate is verified.
 */
export function subjectKeys(shape: FactShape): number[] {
  const keys: number[] = []
  if (shape.words.length > 0) keys.push(fnv1a(`subject\u0000${shape.words.join(' ')}`))
  // the keys of the core words with the soft values (less one, less two): wordings that differ in
  // words of instruction, say the last word of one in the middle of the other, or say a word or
  // two of their own ("Always suffix class names with _T" / "Convention: class names end with _K")
  wordKeys([...new Set([...shape.core, ...shape.soft])].sort(), keys)
  return [...new Set(keys)]
}

/**
 * Lookup keys for texts that state a value naming one thing (a tool, a path, an image, a flag:
 * a number or a case style is in too many texts to look up by): a revert said in other words
 * (`restates`) is found through them. Stored beside the subject keys, looked up apart (only
 * memories a newer version updates are candidates), so they never widen the duplicate check.
 */
export function valueKeys(shape: FactShape): number[] {
  const keys: number[] = []
  for (const v of shape.values) if (isHard(v) && STRONG_KINDS.has(kindOf(v))) keys.push(fnv1a(`value\u0000${v.slice(2).toLowerCase()}`))
  return [...new Set(keys)]
}

function wordKeys(w: readonly string[], keys: number[]): void {
  if (w.length === 0) return
  // one namespace: a text with a word more shares a key with one without it
  keys.push(fnv1a(`subject\u0000${w.join(' ')}`))
  if (w.length >= 3 && w.length <= MAX_WORDS_LESS_ONE) {
    for (let i = 0; i < w.length; i++) keys.push(fnv1a(`subject\u0000${w.filter((_, j) => j !== i).join(' ')}`))
  }
  // short texts: less any two words too (another wording adds or swaps a couple of words)
  if (w.length >= MIN_WORDS_LESS_TWO && w.length <= MAX_WORDS_LESS_TWO) {
    for (let i = 0; i < w.length; i++) {
      for (let j = i + 1; j < w.length; j++) keys.push(fnv1a(`subject\u0000${w.filter((_, k) => k !== i && k !== j).join(' ')}`))
    }
  }
}
