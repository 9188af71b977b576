// Value heuristics shared by the secret gate's rules: is a value a placeholder, does it look
// generated, is a matched token a documentation dummy.

// Values people write instead of a real secret: documentation, templates, defaults, type names.
const PLACEHOLDER_WORDS = new Set([
  'password', 'passwd', 'pass', 'pwd', 'passphrase', 'secret', 'token', 'apikey', 'api_key', 'key',
  'changeme', 'change_me', 'change-me', 'changeit', 'example', 'sample', 'dummy', 'placeholder',
  'redacted', 'hidden', 'masked', 'removed', 'omitted', 'todo', 'tbd', 'fixme', 'none', 'null', 'nil',
  'undefined', 'empty', 'blank', 'true', 'false', 'yes', 'no', 'on', 'off', 'required', 'optional',
  'string', 'str', 'text', 'number', 'int', 'integer', 'boolean', 'bool', 'bytes', 'any', 'unknown',
  'object', 'secretstr', 'test', 'testing', 'demo', 'default', 'foo', 'bar', 'baz', 'foobar',
  'admin', 'root', 'guest', 'postgres', 'mysql', 'user', 'username', 'mypassword', 'mysecret',
  'mytoken', 'letmein', 'hunter2', 'qwerty', 'opensesame',
  '123456', '12345678', 'abc123', 'abcdef', 'env', 'vault', 'keychain', 'unset', 'set', 'same',
])

// Template syntax, shell/env references, YAML tags (`!Ref DbPassword`, `!vault`) and "your-..."
// stand-ins mean the secret lives elsewhere.
const PLACEHOLDER_SHAPE = new RegExp(
  `^(?:${[
    String.raw`[*xX•.#_-]+`, // ****, xxx, ---
    String.raw`<.*|\[.*\]|\{.*|\$.*|%.*%|%[sdv]`, // <password>, [token], {{x}}, ${X}, $X, %X%, %s
    String.raw`![A-Za-z].*`, // YAML tags
    String.raw`(?:your|insert|enter|replace)[-_ ]?[a-z].*|(?:my|the|some|new)[-_ ][a-z].*`,
    String.raw`[a-z_-]*(?:password|passwd|secret|token)[a-z_-]*`, // dbpassword, my_secret
  ].join('|')})$`,
  'i',
)
/** A stand-in word anywhere in a value of one line (a pattern `^.*(?:example|…).*$` took 74 ms on 15,000 dots and a newline). */
const PLACEHOLDER_WORD = /example|placeholder|redacted|xxxx|\.\.\.|\*\*\*|changeme|dummy|fake/i
const LINE_BREAK = /[\n\r\u2028\u2029]/

// `os.environ["X"]`, `process.env.X!`, `config.db.password`, `getToken()`: code that fetches a
// secret from elsewhere. A bare identifier is not enough: `hunter22` is one too.
// a subscript holds no `[` of its own: with one, a run of `[` could be split into subscripts in
// exponentially many ways (23 `[` took 250 ms)
export const CODE_REFERENCE = /\(|^[A-Za-z_$][\w$]*(?:\??\.[A-Za-z_$][\w$]*|\[[^\][]*\]?)+[!?]?$/

export const PATH_LIKE = /^(?:\/|\.{1,2}\/|~\/|[A-Za-z]:\\)/

// `password: Option<String>`, `token: Vec<u8>`, `secret: string[]`: type annotations.
export const TYPE_LIKE = /^[A-Za-z_][\w:.]*(?:<.*>?|\[\])$/

// Azurite, the local Azure storage emulator, has one fixed account key published in Microsoft's
// documentation; it guards nothing.
export const AZURITE_KEY_PREFIX = 'Eby8vdM02xNOcqFl'

export function isPlaceholder(value: string): boolean {
  const lower = value.toLowerCase()
  return (
    PLACEHOLDER_WORDS.has(lower) ||
    PLACEHOLDER_SHAPE.test(value) ||
    (PLACEHOLDER_WORD.test(value) && !LINE_BREAK.test(value)) ||
    /^(.)\1*$/.test(value) ||
    value.startsWith(AZURITE_KEY_PREFIX)
  )
}

/** Shannon entropy in bits per character. */
export function entropy(value: string): number {
  const counts = new Map<string, number>()
  for (const ch of value) counts.set(ch, (counts.get(ch) ?? 0) + 1)
  let bits = 0
  for (const n of counts.values()) {
    const p = n / value.length
    bits -= p * Math.log2(p)
  }
  return bits
}

/**
 * Share of characters inside runs of three or more lowercase letters. Identifiers are made of
 * words ("Uint8ArrayBlobAdapter" ≈ 0.75); random base62 rarely exceeds 0.25.
 */
export function wordiness(value: string): number {
  let inWords = 0
  for (const [run] of value.matchAll(/[a-z]{3,}/g)) inWords += run.length
  return inWords / value.length
}

/**
 * Number of places where a letter and a digit touch. Random alphanumerics switch often; names of
 * things ("cl100k_base", "prod-db-v2", "toUint8Array") switch once or twice.
 */
export function letterDigitSwitches(value: string): number {
  let switches = 0
  for (let i = 1; i < value.length; i++) {
    const a = charClass(value[i - 1]!)
    const b = charClass(value[i]!)
    if (a !== 3 && b !== 3 && (a === 2) !== (b === 2)) switches++
  }
  return switches
}

/**
 * True for strings shaped like generated credentials rather than words, identifiers or hashes.
 * Requires all three of lower, upper and digit (hex digests and UUIDs have no upper case), high
 * entropy, frequent class switches and few word-like runs (camelCase names fail both).
 */
export function looksRandom(value: string, minLength: number): boolean {
  if (value.length < minLength || !/^[A-Za-z0-9+/=_.~-]+$/.test(value)) return false
  if (!/[a-z]/.test(value) || !/[A-Z]/.test(value) || !/[0-9]/.test(value)) return false
  const core = value.replace(/(?<!=)=+$/, '')
  if (wordiness(core) > 0.4) return false
  // Random base62 has about 5.95 bits per char; short strings can't reach that, so scale by length.
  const needed = Math.min(4.0, Math.log2(core.length) * 0.85)
  if (entropy(core) < needed) return false
  let switches = 0
  for (let i = 1; i < core.length; i++) if (charClass(core[i]!) !== charClass(core[i - 1]!)) switches++
  return switches / (core.length - 1) >= 0.35
}

export function charClass(ch: string): number {
  if (ch >= 'a' && ch <= 'z') return 0
  if (ch >= 'A' && ch <= 'Z') return 1
  if (ch >= '0' && ch <= '9') return 2
  return 3
}

// Documentation writes `ghp_` + `xxxxxxxx...`, a `your-token` suffix, `sk_test_EXAMPLE...` or
// `AAAAAAAAAAAA` for a token. Not applied to private keys: real DER bodies are full of `AAAAAA`.
export const DUMMY_TOKEN = /xxxx|example|your[-_]|placeholder|dummy|(.)\1{7}/i

// Keyboard runs stand in for the random body of a token in documentation (`dop_v1_123456789abc...`);
// a generated body contains one with negligible probability. Only for token bodies: numeric parts
// of some formats (Slack workspace ids) are not random.
export const KEYBOARD_RUN = /0123456|1234567|2345678|3456789|abcdefg|bcdefgh/i
