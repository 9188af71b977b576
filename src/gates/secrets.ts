import type {lintSource as LintSource} from '@secretlint/core'

/** A secret the scanner found. Neither field ever contains the secret or a piece of it. */
export interface SecretFinding {
  /** Short stable id of the rule that fired, e.g. `github-token` or `@secretlint/secretlint-rule-slack`. */
  rule: string
  /** Human text naming the kind of secret and what to do instead. */
  message: string
}

type LintConfig = Parameters<typeof LintSource>[0]['options']['config']

interface Engine {
  lint: typeof LintSource
  config: LintConfig
}

interface OwnRule {
  id: string
  /** Noun phrase for the message, e.g. "a GitHub token". */
  kind: string
  hit(text: string): boolean
}

const SKIPPED_SECRETLINT_RULES = new Set([
  // Stored text must not be able to switch the gate off with a `secretlint-disable` comment.
  '@secretlint/secretlint-rule-filter-comments',
  // The own connection-string rule covers every scheme and lets `user:user@` local defaults
  // through, which these two reject (the docker default user `postgres` with password `postgres`).
  '@secretlint/secretlint-rule-database-connection-string',
  '@secretlint/secretlint-rule-basicauth',
])
const SECRETLINT_RULE_PREFIX = '@secretlint/secretlint-rule-'
const PRIVATE_KEY_RULE = '@secretlint/secretlint-rule-privatekey'

// --- value heuristics -------------------------------------------------------------------------

// Values people write instead of a real secret: documentation, templates, defaults, type names.
const PLACEHOLDER_WORDS = new Set([
  'password', 'passwd', 'pass', 'pwd', 'passphrase', 'secret', 'token', 'apikey', 'api_key', 'key',
  'changeme', 'change_me', 'change-me', 'changeit', 'example', 'sample', 'dummy', 'placeholder',
  'redacted', 'hidden', 'masked', 'removed', 'omitted', 'todo', 'tbd', 'fixme', 'none', 'null', 'nil',
  'undefined', 'empty', 'blank', 'true', 'false', 'yes', 'no', 'on', 'off', 'required', 'optional',
  'string', 'str', 'text', 'number', 'int', 'integer', 'boolean', 'bool', 'bytes', 'any', 'unknown',
  'object', 'secretstr', 'test', 'testing', 'demo', 'default', 'foo', 'bar', 'baz', 'foobar',
  'admin', 'root', 'guest', 'postgres', 'mysql', 'user', 'username', 'mypassword', 'mysecret',
  'mytoken', 'letmein', 'hunter2', 'qwerty',
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
    String.raw`.*(?:example|placeholder|redacted|xxxx|\.\.\.|\*\*\*|changeme|dummy|fake).*`,
    String.raw`[a-z_-]*(?:password|passwd|secret|token)[a-z_-]*`, // dbpassword, my_secret
  ].join('|')})$`,
  'i',
)

// `os.environ["X"]`, `process.env.X!`, `config.db.password`, `getToken()`: code that fetches a
// secret from elsewhere. A bare identifier is not enough: `hunter22` is one too.
const CODE_REFERENCE = /\(|^[A-Za-z_$][\w$]*(?:\??\.[A-Za-z_$][\w$]*|\[[^\]]*\]?)+[!?]?$/

const PATH_LIKE = /^(?:\/|\.{1,2}\/|~\/|[A-Za-z]:\\)/

// `password: Option<String>`, `token: Vec<u8>`, `secret: string[]`: type annotations.
const TYPE_LIKE = /^[A-Za-z_][\w:.]*(?:<.*>?|\[\])$/

function isPlaceholder(value: string): boolean {
  const lower = value.toLowerCase()
  return PLACEHOLDER_WORDS.has(lower) || PLACEHOLDER_SHAPE.test(value) || /^(.)\1*$/.test(value)
}

/** Shannon entropy in bits per character. */
function entropy(value: string): number {
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
function wordiness(value: string): number {
  let inWords = 0
  for (const [run] of value.matchAll(/[a-z]{3,}/g)) inWords += run.length
  return inWords / value.length
}

/**
 * Number of places where a letter and a digit touch. Random alphanumerics switch often; names of
 * things ("cl100k_base", "prod-db-v2", "toUint8Array") switch once or twice.
 */
function letterDigitSwitches(value: string): number {
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
function looksRandom(value: string, minLength: number): boolean {
  if (value.length < minLength || !/^[A-Za-z0-9+/=_.~-]+$/.test(value)) return false
  if (!/[a-z]/.test(value) || !/[A-Z]/.test(value) || !/[0-9]/.test(value)) return false
  const core = value.replace(/=+$/, '')
  if (wordiness(core) > 0.4) return false
  // Random base62 has about 5.95 bits per char; short strings can't reach that, so scale by length.
  const needed = Math.min(4.0, Math.log2(core.length) * 0.85)
  if (entropy(core) < needed) return false
  let switches = 0
  for (let i = 1; i < core.length; i++) if (charClass(core[i]!) !== charClass(core[i - 1]!)) switches++
  return switches / (core.length - 1) >= 0.35
}

function charClass(ch: string): number {
  if (ch >= 'a' && ch <= 'z') return 0
  if (ch >= 'A' && ch <= 'Z') return 1
  if (ch >= '0' && ch <= '9') return 2
  return 3
}

// --- assignments ------------------------------------------------------------------------------

const PASSWORD_KEY = /(?:password|passwd|passphrase|pwd)$/i
const SECRET_KEY =
  /(?:secret|token|api[_-]?key|apikey|access[_-]?key|secret[_-]?key|private[_-]?key|auth[_-]?key|credentials?)$/i
// Opaque identifiers and digests are high-entropy by nature but not secrets.
const NON_SECRET_KEY =
  /(?:id|ids|uuid|guid|sha\d*|hash|digest|checksum|integrity|etag|commit|rev|revision|ref|version|name|path|file|dir|url|uri|host|image|tag|branch|model|nonce|salt|iv|cursor|page)$/i

/**
 * `key = value`, `key: value`, `"key": "value"`, `key => value`, `key := value`, `--key=value`.
 * The key may carry a `?` (TypeScript optional) and a closing quote. `==`, `!=` comparisons and
 * `=>` arrows without a left-hand key don't match because a key is required right before.
 * Separators never reach across a line: in a .env file `DB_PASSWORD=` followed by `DB_HOST=db`
 * on the next line is an empty value, not the password `DB_HOST=db`.
 */
const ASSIGNMENT =
  /(?<![\w$-])(?:--)?([A-Za-z_][\w.-]{0,80}?)\??["'`]?([ \t]*)(=>|:=|=(?!=)|:(?![:/\\]))([ \t]*)(?:(["'`])([^"'`\n]{1,300}?)\5|([^\s"'`,;]{1,300}))/g

/** `--password hunter2` style CLI flags, which have no `=`. */
const CLI_FLAG =
  /(?<![\w-])--(?:[\w-]{0,40}-)?(password|passwd|passphrase|token|secret|api-key|apikey|access-key|secret-key|client-secret)\s+([^\s"'`-][^\s"'`]{0,300})/gi

type AssignmentKind = 'password' | 'secret' | 'entropy' | null

function classifyKey(key: string): 'password' | 'secret' | 'other' {
  const bare = key.replace(/^.*[.]/, '')
  if (PASSWORD_KEY.test(bare)) return 'password'
  if (SECRET_KEY.test(bare)) return 'secret'
  return 'other'
}

function trimTrailingPunctuation(value: string): string {
  return value.replace(/[.,;:!?)\]}>]+$/, '')
}

/** Decides whether one assignment holds a literal secret, and of which kind. */
function judgeAssignment(key: string, value: string, quoted: boolean, tight: boolean): AssignmentKind {
  if (value.length === 0 || isPlaceholder(value)) return null
  if (PATH_LIKE.test(value) || TYPE_LIKE.test(value) || value.includes('://') || /^[\d.:_-]+$/.test(value)) {
    return null
  }
  const keyClass = classifyKey(key)

  if (keyClass === 'password') {
    if (quoted) {
      // A quoted sentence is a validation message or a hint, not a password.
      return value.length >= 4 && (value.match(/\s/g)?.length ?? 0) < 2 ? 'password' : null
    }
    if (value.length < 4 || CODE_REFERENCE.test(value)) return null
    // A bare word after `: ` or ` = ` is usually prose ("password: rotated monthly") or a variable
    // (`password = userInput`); after a tight `=` (`PASSWORD=letmein`) it is the value itself.
    const wordOnly = /^[A-Za-z_$]+$/.test(value)
    if (wordOnly && (!tight || value.length < 6)) return null
    return 'password'
  }

  if (/\s/.test(value)) return null

  if (keyClass === 'secret') {
    if (value.length < 8 || !quoted && CODE_REFERENCE.test(value)) return null
    // Hex (with or without dashes, as in UUID-shaped keys) lacks upper case, so looksRandom skips it.
    const hex = /^[0-9a-f-]{16,}$/i.test(value) && /[a-f]/i.test(value) && /\d/.test(value)
    if (hex || looksRandom(value, 16)) {
      return 'secret'
    }
    // Short generated tokens mix letters and digits without forming words; names of things
    // ("secret: prod-db-v2", "token: cl100k_base") contain a run of same-case letters.
    const switches = letterDigitSwitches(value)
    return switches >= 3 && (wordiness(value) <= 0.5 || switches >= value.length / 4) ? 'secret' : null
  }

  if (NON_SECRET_KEY.test(key) || /^sha\d+-/i.test(value)) return null
  return looksRandom(value, 20) ? 'entropy' : null
}

function findAssignment(text: string): AssignmentKind {
  for (const m of text.matchAll(ASSIGNMENT)) {
    const [, key = '', before = '', , after = '', quote, quotedValue, bareValue] = m
    const quoted = quote !== undefined
    const value = quoted ? (quotedValue ?? '') : trimTrailingPunctuation(bareValue ?? '')
    const kind = judgeAssignment(key, value, quoted, before === '' && after === '')
    if (kind) return kind
  }
  if (text.includes('--')) {
    for (const m of text.matchAll(CLI_FLAG)) {
      const [, flag = '', raw = ''] = m
      // Not "tight": `--password prompts for it` is prose, so bare words need digits or symbols.
      const kind = judgeAssignment(flag, trimTrailingPunctuation(raw), false, false)
      if (kind) return kind
    }
  }
  return null
}

// --- connection strings -----------------------------------------------------------------------

const URL_CREDENTIALS = /\b[a-z][a-z0-9+.-]{1,30}:\/\/([^\s:/@'"`<>]{0,100}):([^\s@/'"`<>]{1,200})@[\w[]/gi

function hasConnectionPassword(text: string): boolean {
  if (!text.includes('://')) return false
  for (const m of text.matchAll(URL_CREDENTIALS)) {
    const [, user = '', password = ''] = m
    // `postgres:postgres@`, `guest:guest@`: well-known local defaults, not secrets.
    if (password === user || isPlaceholder(password)) continue
    return true
  }
  return false
}

// --- token formats ----------------------------------------------------------------------------

const END = '(?![A-Za-z0-9_-])'

// Documentation writes `ghp_` + `xxxxxxxx...`, a `your-token` suffix, `sk_test_EXAMPLE...` or
// `AAAAAAAAAAAA` for a token. Not applied to private keys: real DER bodies are full of `AAAAAA`.
const DUMMY_TOKEN = /xxxx|example|your[-_]|placeholder|dummy|(.)\1{7}/i

/** A format rule: true when some match of `source` is not an obvious documentation dummy. */
function pattern(source: string): (text: string) => boolean {
  const re = new RegExp(source, 'g')
  return (text) => {
    for (const [match] of text.matchAll(re)) if (!DUMMY_TOKEN.test(match)) return true
    return false
  }
}

// The AWS docs' AKIAIOSFODNN7EXAMPLE is a dummy like any other (see DUMMY_TOKEN).
const AWS_KEY_ID = /(?<![A-Za-z0-9])(?:AKIA|ASIA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA|A3T[A-Z0-9])[A-Z0-9]{16}(?![A-Za-z0-9])/g

const JWT = /(?<![\w-])eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{16,}/
const AUTH_HEADER = /\b([Bb]earer|[Bb]asic)\s+([A-Za-z0-9._~+/-]{12,}=*)/g

/** Basic credentials are base64 of `user:password`; prose like "Basic authentication" isn't. */
function isBasicCredential(value: string): boolean {
  if (!/^[A-Za-z0-9+/]{8,}={0,2}$/.test(value)) return false
  try {
    return /^[\x20-\x7e]+:[\x20-\x7e]{3,}$/.test(atob(value))
  } catch {
    return false
  }
}

/**
 * Any PEM/OpenSSH/PGP private key header followed by key material, however short; a plain word
 * after the header ("followed by the body") is prose. Header lines ("Version: ...") each end at a
 * newline so the match stays linear.
 */
const PRIVATE_KEY = new RegExp(
  String.raw`-----BEGIN[ A-Z0-9]{0,30}PRIVATE KEY(?: BLOCK)?-----(?:\s|\\n)*(?:[A-Za-z-]+: [^\n]*\n\s*)*(?![A-Z]?[a-z]+(?![A-Za-z0-9+/=]))[A-Za-z0-9+/=]{8,}`,
)

const OWN_RULES: readonly OwnRule[] = [
  {
    id: 'private-key',
    kind: 'a private key',
    hit: (text) => text.includes('PRIVATE KEY') && PRIVATE_KEY.test(text),
  },
  {
    id: 'aws-access-key-id',
    kind: 'an AWS access key id',
    hit: (text) => {
      for (const [id] of text.matchAll(AWS_KEY_ID)) if (!DUMMY_TOKEN.test(id)) return true
      return false
    },
  },
  {
    id: 'github-token',
    kind: 'a GitHub token',
    hit: pattern(String.raw`(?<![A-Za-z0-9])(?:gh[pousr]_[A-Za-z0-9]{30,255}|github_pat_[A-Za-z0-9_]{40,255})${END}`),
  },
  {
    id: 'slack-token',
    kind: 'a Slack token or webhook',
    hit: pattern(
      String.raw`(?<![A-Za-z0-9])xox[abposre]-\d+-[A-Za-z0-9-]{8,}|https://hooks\.slack\.com/services/T[A-Za-z0-9_]+/B[A-Za-z0-9_]+/[A-Za-z0-9_]{8,}`,
    ),
  },
  {
    id: 'stripe-key',
    kind: 'a Stripe secret key',
    hit: pattern(String.raw`(?<![A-Za-z0-9])(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{16,}${END}|(?<![A-Za-z0-9])whsec_[A-Za-z0-9]{24,}`),
  },
  {
    id: 'anthropic-api-key',
    kind: 'an Anthropic API key',
    hit: pattern(String.raw`(?<![A-Za-z0-9])sk-ant-[a-z]+\d*-[A-Za-z0-9_-]{32,}`),
  },
  {
    id: 'openai-api-key',
    kind: 'an OpenAI-style API key',
    hit: pattern(String.raw`(?<![A-Za-z0-9-])sk-(?:(?:proj|svcacct|admin)-[A-Za-z0-9_-]{32,}|[A-Za-z0-9]{32,}${END})`),
  },
  {
    id: 'google-api-key',
    kind: 'a Google API key',
    hit: pattern(String.raw`(?<![A-Za-z0-9])AIza[0-9A-Za-z_-]{35}${END}`),
  },
  {
    id: 'npm-token',
    kind: 'an npm access token',
    hit: pattern(String.raw`(?<![A-Za-z0-9])npm_[A-Za-z0-9]{36}${END}`),
  },
  {
    id: 'jwt',
    kind: 'a JSON Web Token',
    hit: (text) => text.includes('eyJ') && JWT.test(text),
  },
  {
    id: 'authorization-header',
    kind: 'an HTTP Authorization credential',
    hit: (text) => {
      for (const [, scheme, value = ''] of text.matchAll(AUTH_HEADER)) {
        if (isPlaceholder(value)) continue
        const basic = scheme === 'Basic' || scheme === 'basic'
        if (basic ? isBasicCredential(value) : /[A-Za-z]/.test(value) && /\d/.test(value)) return true
      }
      return false
    },
  },
  {
    id: 'connection-string-password',
    kind: 'a connection string with an inline password',
    hit: hasConnectionPassword,
  },
]

const ASSIGNMENT_RULES = {
  password: {id: 'password-assignment', kind: 'a password assigned in plain text'},
  secret: {id: 'secret-assignment', kind: 'a token, API key or secret assigned in plain text'},
  entropy: {id: 'high-entropy-assignment', kind: 'a high-entropy value that looks like a generated credential'},
} as const

// --- secretlint -------------------------------------------------------------------------------

let engine: Promise<Engine> | undefined

/** Loads secretlint on first use: the preset is a large module and most commands never scan. */
function loadEngine(): Promise<Engine> {
  if (!engine) {
    engine = createEngine()
    // A failed load must not poison every later scan; the caller sees the error and may retry.
    engine.catch(() => {
      engine = undefined
    })
  }
  return engine
}

async function createEngine(): Promise<Engine> {
  const [{lintSource}, {rules: presetRules}] = await Promise.all([
    import('@secretlint/core'),
    import('@secretlint/secretlint-rule-preset-recommend'),
    silenceProfiler(),
  ])
  // The preset's rules are registered one by one rather than through the preset entry because
  // @secretlint/core 12 ignores `disabled` on a preset's sub-rules.
  const rules: LintConfig['rules'] = []
  for (const rule of presetRules) {
    const id = rule.meta.id
    if (SKIPPED_SECRETLINT_RULES.has(id)) continue
    rules.push(
      id === '@secretlint/secretlint-rule-aws'
        ? // Also scan bare key ids; account ids are identifiers, not secrets.
          {id, rule, options: {enableIDScanRule: true}, allowMessageIds: ['AWSAccountID']}
        : {id, rule},
    )
  }
  return {lint: lintSource, config: {rules}}
}

/**
 * secretlint's core records two performance marks per rule per lint and a PerformanceObserver
 * keeps every entry forever: ~20 KB of heap per scan, plus a MaxPerformanceEntryBufferExceeded
 * warning on stderr after ~18k scans in one process. Clearing the marks afterwards crashes the
 * process (the observer's deferred `performance.measure` rejects), so the marks are never made.
 * The profiler is a dependency of @secretlint/core; if it can't be reached, scans still work.
 */
async function silenceProfiler(): Promise<void> {
  try {
    const {secretLintProfiler} = await import('@secretlint/profiler')
    if (typeof secretLintProfiler?.mark === 'function') secretLintProfiler.mark = () => undefined
  } catch {
    // Only memory use is at stake.
  }
}

function describeSecretlintRule(ruleId: string): string {
  const name = ruleId.startsWith(SECRETLINT_RULE_PREFIX) ? ruleId.slice(SECRETLINT_RULE_PREFIX.length) : ruleId
  return `a credential matched by secretlint's ${name} rule`
}

function finding(rule: string, kind: string): SecretFinding {
  return {
    rule,
    message: `content looks like it contains ${kind} (rule ${rule}); remove the secret and store a reference such as the variable name instead`,
  }
}

/**
 * Scans text for secrets before it is stored as a memory.
 *
 * Fast format and assignment rules run first; the secretlint recommended preset runs after them,
 * loaded on the first call and reused. The result's message is built from the rule id alone, so
 * it is safe to show or log: it never echoes the secret (secretlint's own messages do, and are
 * discarded).
 *
 * @param text - The memory content to check.
 * @returns The first finding, or `null` when the text looks free of secrets.
 * @throws If secretlint cannot be loaded; the gate fails closed rather than letting text through.
 */
export async function scanSecrets(text: string): Promise<SecretFinding | null> {
  for (const rule of OWN_RULES) {
    if (rule.hit(text)) return finding(rule.id, rule.kind)
  }
  const assignment = findAssignment(text)
  if (assignment) return finding(ASSIGNMENT_RULES[assignment].id, ASSIGNMENT_RULES[assignment].kind)

  const {lint, config} = await loadEngine()
  const result = await lint({
    source: {filePath: 'memory.txt', content: text, ext: '.txt', contentType: 'text'},
    options: {config, noPhysicFilePath: true},
  })
  for (const message of result.messages) {
    const matched = text.slice(message.range[0], message.range[1])
    if (message.ruleId !== PRIVATE_KEY_RULE && DUMMY_TOKEN.test(matched)) continue
    return finding(message.ruleId, describeSecretlintRule(message.ruleId))
  }
  return null
}
