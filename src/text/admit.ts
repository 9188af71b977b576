/**
 * Admission of text (issue 28): what every path that persists text does to it first, and the form
 * the secret gate reads.
 *
 * - `admitText` is the stored form. Characters a reader cannot see but an agent reads are taken
 *   out: Unicode tag characters (U+E0000–E007F, whole sentences of invisible ASCII), bidi controls
 *   (U+202A–202E embeddings and overrides, U+2066–2069 isolates, U+200E/200F marks, U+061C the
 *   Arabic letter mark) are dropped; zero-width characters (U+200B–200D, U+2060, U+FEFF) and the
 *   soft hyphen (U+00AD) are folded, so `to\u200Bken` is stored as the `token` it shows. Then NFC,
 *   so one text has one spelling (a duplicate typed with combining accents is still a duplicate).
 *   The cost of folding U+200D (zero-width joiner): an emoji sequence such as a family is stored as
 *   its separate emoji; a Persian or Indic word that uses U+200C is stored without it.
 *   A lone UTF-16 surrogate (half of a character, from text cut in the middle of one) is stored as
 *   U+FFFD, the replacement character: no store can keep it as it is (Postgres refuses it in jsonb;
 *   sql.js turned it into three U+FFFD), so both keep the same one.
 * - `scanForm` is what the secret gate reads: the stored form in NFKC (fullwidth `ｐａｓｓ`,
 *   mathematical `𝐩𝐚𝐬𝐬` and ligatures read as ASCII; the 23 characters whose compatibility form is
 *   longer than 4 code units, such as U+FDFA, read as they are), with every other default-ignorable code
 *   point taken out (variation selectors, U+2061–2064 invisible operators, U+180E, U+034F…), and
 *   each non-ASCII letter that Unicode's confusables table (UTS #39, through the `unhomoglyph`
 *   package's copy of it) maps to one ASCII character read as that character: a Cyrillic `а` in
 *   `pаssword:` is an `a`. ASCII is never re-mapped (the table's `0`→`O`, `1`→`l` would break
 *   every token), so text in ASCII scans exactly as written.
 *
 * Both are linear in the text's length and return ASCII text unchanged without copying.
 */
import {lazyRequire} from '../model/lazy-require.js'
import {LONG_FOLDS} from './tokenize.js'

// Dropped: tag characters, bidi embeddings/overrides/isolates/marks. Folded: zero-width characters
// and the soft hyphen. Both end the same way in the stored text (nothing is left of them); they are
// named apart because a reader sees a difference (hidden text vs a broken word).
const DROPPED = String.raw`\u{E0000}-\u{E007F}\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C`
const FOLDED = String.raw`\u200B-\u200D\u2060\uFEFF\u00AD`
const HIDDEN = new RegExp(`[${DROPPED}${FOLDED}]`, 'gu')

// What the scan also ignores: every default-ignorable code point (it includes all of the above).
const IGNORABLE = /\p{Default_Ignorable_Code_Point}/gu

const ASCII_ONLY = /^[\u0000-\u007f]*$/

// with the u flag a class of surrogates matches only those that are not half of a pair
const LONE_SURROGATE = /[\uD800-\uDFFF]/gu

/** The stored form of a text: hidden characters out, lone surrogates as U+FFFD, NFC. Idempotent. */
export function admitText(text: string): string {
  if (ASCII_ONLY.test(text)) return text
  return text.replace(HIDDEN, '').replace(LONE_SURROGATE, '\uFFFD').normalize('NFC')
}

/**
 * True when `text` holds a NUL (U+0000): no store keeps one (Postgres's jsonb cannot hold it), so
 * the gates refuse a text with one (content: the content gate's control characters).
 */
export function holdsNul(text: string): boolean {
  return text.includes('\u0000')
}

/** `admitText` over a list of tags: a tag left empty goes, and so does a repeat. */
export function admitTags(tags: readonly string[]): string[] {
  return [...new Set(tags.map((t) => admitText(t).trim()).filter(Boolean))]
}

/** `admitText` for an optional field. */
export function admitOptional<T extends string | null | undefined>(text: T): T {
  return (typeof text === 'string' ? admitText(text) : text) as T
}

/** True when admission would change the text (it holds hidden characters or is not NFC). */
export function needsAdmission(text: string): boolean {
  return admitText(text) !== text
}

const confusablesData = lazyRequire<Record<string, string>>('unhomoglyph/data.json')
let confusables: {map: Map<number, string>; pattern: RegExp} | undefined

/** Non-ASCII code point → the one printable ASCII character it is confusable with, and a pattern of those code points. */
function confusableMap(): {map: Map<number, string>; pattern: RegExp} {
  if (confusables) return confusables
  const map = new Map<number, string>()
  for (const [from, to] of Object.entries(confusablesData())) {
    const code = from.codePointAt(0)!
    if (code < 0x80 || from.length !== String.fromCodePoint(code).length) continue
    if (to.length === 1 && to >= '!' && to <= '~') map.set(code, to)
  }
  const cls = [...map.keys()].map((code) => `\\u{${code.toString(16)}}`).join('')
  confusables = {map, pattern: new RegExp(`[${cls}]`, 'gu')}
  return confusables
}

// The runs of a text between the characters whose compatibility form is longer than 4 code units
// (tokenize.ts LONG_FOLDS: U+FDFA is 18 characters of Arabic, U+3307 a katakana word). They are
// read as they are, as the index reads them: none of them spells ASCII, and expanding 16,000 of
// them made a 288,000-character text for the gate to read.
const COMPATIBLE_RUN = new RegExp(`[^${LONG_FOLDS.source.slice(1, -1)}]+`, 'gu')
const nfkc = (run: string): string => run.normalize('NFKC')

/** The form the secret gate reads (see the module comment). */
export function scanForm(text: string): string {
  if (ASCII_ONLY.test(text)) return text
  const admitted = admitText(text)
  const compatible = (LONG_FOLDS.test(admitted) ? admitted.replace(COMPATIBLE_RUN, nfkc) : nfkc(admitted)).replace(IGNORABLE, '')
  if (ASCII_ONLY.test(compatible)) return compatible
  const {map, pattern} = confusableMap()
  return compatible.replace(pattern, (ch) => map.get(ch.codePointAt(0)!)!)
}
