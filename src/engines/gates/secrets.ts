import type {lintSource as LintSource} from '@secretlint/core'
import {scanForm} from '../../text/admit.js'
import {scanFormats} from './secret-providers.js'
import {CODE_REFERENCE, DUMMY_TOKEN, KEYBOARD_RUN, PATH_LIKE, TYPE_LIKE, isPlaceholder, letterDigitSwitches, looksRandom, wordiness} from './secret-values.js'

import type {SecretFinding} from '../context.js'

export type {SecretFinding} from '../context.js'

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

// --- assignments ------------------------------------------------------------------------------

const PASSWORD_KEY = /(?:password|passwd|passphrase|pwd)$/i
const SECRET_KEY =
  /(?:secret|token|api[_-]?key|apikey|access[_-]?key|secret[_-]?key|private[_-]?key|auth[_-]?key|credentials?)$/i
// Opaque identifiers and digests are high-entropy by nature but not secrets (`h1:` is a go.sum hash).
const NON_SECRET_KEY =
  /(?:id|ids|uuid|guid|sha\d*|hash|digest|checksum|integrity|etag|commit|rev|revision|ref|version|name|path|file|dir|url|uri|host|image|tag|branch|model|nonce|salt|iv|cursor|page)$|^h1$/i

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
  // from the run's start only (the lookbehind): tried at each of its characters, 15,000 dots after
  // `password:` took 200 ms
  return value.replace(/(?<![.,;:!?)\]}>])[.,;:!?)\]}>]+$/, '')
}

/**
 * Decides whether one assignment holds a literal secret, and of which kind. `literal` says the
 * value can only be the value itself, not prose or a variable: a tight `KEY=value`, or a line of a
 * properties/ini/env/YAML file (see isConfigLine).
 */
function judgeAssignment(key: string, value: string, quoted: boolean, literal: boolean): AssignmentKind {
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
    // (`password = userInput`); after a tight `=` (`PASSWORD=letmein`) or alone on a config line
    // (`db.password = correcthorse`) it is the value itself.
    const wordOnly = /^[A-Za-z_$]+$/.test(value)
    if (wordOnly && (!literal || value.length < 6)) return null
    return 'password'
  }

  // Documentation fills a token with a keyboard run (`12345678-ABCD-...`); passwords may hold one.
  if (/\s/.test(value) || KEYBOARD_RUN.test(value)) return null

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

// Keys as config files write them: dotted (`spring.datasource.password`), snake or kebab case, or
// upper case (`PGPASSWORD`). Prose writes `Password: ...`.
const CONFIG_KEY = /[._-]|^[A-Z][A-Z0-9]*$/
// What may stand before a key on its line (indentation, `export `, a YAML list dash) and after its
// value (a comment).
const LINE_PREFIX = /(?:^|\n)[ \t]*(?:export[ \t]+|-[ \t]+)?$/
const LINE_SUFFIX = /^[ \t]*(?:[#;][^\n]*)?(?:\n|$)/

/**
 * True when an assignment is a whole line of a properties/ini/env/YAML file: a key at the start of
 * the line and a value running to its end, with `=` (ini, properties, env), a config-shaped key or
 * YAML nesting (a bare `Password: rotated` line is as likely prose). There a bare word is the value
 * (`db.password = correcthorse`) unless it is shaped like an identifier (`userInput`, `user_input`),
 * as a variable in code would be.
 */
function isConfigLine(text: string, m: RegExpMatchArray, key: string, separator: string, value: string): boolean {
  if (/[a-z][A-Z]|_|\$/.test(value)) return false
  const start = m.index ?? 0
  const end = start + m[0].length
  const before = text.slice(Math.max(0, start - 40), start)
  if (!LINE_PREFIX.test(before) || !LINE_SUFFIX.test(text.slice(end, end + 200))) return false
  return separator === '=' || CONFIG_KEY.test(key) || /(?:^|\n)[ \t]{2,}$/.test(before)
}

/** "the admin password is '...'": prose naming a password and quoting it. */
const PROSE_SECRET = /\b(password|passphrase|passwd|secret|token|api key)\s+(?:is|was|reads|=|:)\s+(["'`])([^"'`\n]{4,100})\2/gi

/** `<password>...</password>` (Maven settings, .NET and Java XML configs). */
const XML_ELEMENT =
  /<((?:[\w.-]+:)?[\w.-]*(?:password|passwd|secret|token|apikey|api-key|api_key|accesskey|access-key))>([^<>\n]{1,300})<\/\1>/gi

function findAssignment(text: string): AssignmentKind {
  for (const m of text.matchAll(ASSIGNMENT)) {
    const [, key = '', before = '', separator = '', after = '', quote, quotedValue, bareValue] = m
    const quoted = quote !== undefined
    const value = quoted ? (quotedValue ?? '') : trimTrailingPunctuation(bareValue ?? '')
    const literal = (before === '' && after === '') || (!quoted && isConfigLine(text, m, key, separator, value))
    const kind = judgeAssignment(key, value, quoted, literal)
    if (kind) return kind
    // A quoted connection string holds assignments of its own:
    // `ConnectionStrings__Db="Server=db;User Id=app;Password=..."`.
    if (quoted && /[=:]/.test(value)) {
      const inner = findAssignment(value)
      if (inner) return inner
    }
  }
  for (const [, noun = '', , value = ''] of text.matchAll(PROSE_SECRET)) {
    const kind = judgeAssignment(noun.replace(' ', '_'), value, true, true)
    if (kind) return kind
  }
  if (text.includes('</')) {
    for (const [, tag = '', value = ''] of text.matchAll(XML_ELEMENT)) {
      const kind = judgeAssignment(tag, value.trim(), true, true)
      if (kind) return kind
    }
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

// --- command lines, .netrc, .pgpass and prose (issue 28) ----------------------------------------
//
// Passwords given where no `key=value` names them: on a command line, in the two credential files
// tools read, in a sentence. gitleaks' default rules and secretlint's recommended preset have none
// of these shapes (gitleaks' nearest are `curl-auth-user`, which secret-providers.ts keeps, and
// `generic-api-key`, which needs a secret-named key); each is written for this gate, and each
// reads what the tool itself would take for a password, so talk about the flag is left alone.

/** A value as a command line or a file gives it: quotes and trailing punctuation off. */
function bareValue(raw: string): string {
  const trimmed = raw.replace(/^(["'])(.*)\1$/, '$2')
  return trimmed === raw ? trimTrailingPunctuation(raw) : trimmed
}

/**
 * A literal password where the syntax leaves no doubt that one stands there (`-pVALUE` after
 * mysql, `sshpass -p VALUE`, a .netrc `password VALUE`): anything but a placeholder, a variable or
 * command substitution (`$REDIS_PASS`, `${DB_PASS}`, `$(cat …)`, `<password>`, `***`, `changeme`).
 */
function literalPassword(raw: string, min = 3): boolean {
  const value = bareValue(raw)
  if (value.length < min || isPlaceholder(value) || /^[`$]|\$\(/.test(value)) return false
  return !/^[*x.•]+$/i.test(value)
}

/**
 * A password where the same place may hold a name (`mysql -p app` asks for the password and opens
 * the database `app`; "the password is stored in Vault"): only a value shaped like a password, not
 * like a word, name or number — letters and digits interleaved at least twice (`Xk2pQ9`), or a
 * digit and a symbol beside letters (`hunter2!`).
 */
function passwordShaped(raw: string): boolean {
  const value = bareValue(raw)
  if (!literalPassword(value, 5) || CODE_REFERENCE.test(value) || PATH_LIKE.test(value) || value.includes('://')) return false
  if (!/[A-Za-z]/.test(value) || !/\d/.test(value)) return false
  return letterDigitSwitches(value) >= 2 || /[!@#%^&*+=?~]/.test(value)
}

const VALUE = String.raw`("[^"\n]*"|'[^'\n]*'|[^\s"'` + '`' + String.raw`;|&)]+)`
// The rest of one command: no line break, pipe, `;` or `&` between the tool and its flag.
const SAME_COMMAND = String.raw`[^\n|;&]{0,200}?[ \t]`

const MYSQL_TOOLS = String.raw`(?:mysql(?:dump|admin|import|show|check|pump|sh)?|mariadb(?:-dump|-admin|-import|-check|-show)?)`
/** `mysql -uroot -pS3cret`, `mysqldump -p'S3cret'`: the client takes `-p` glued to its value as the password. */
const MYSQL_TIGHT = new RegExp(String.raw`\b${MYSQL_TOOLS}\b${SAME_COMMAND}-p${VALUE}`, 'g')
/** `mysql -u root -p S3cret!`: after a space it is the database's name unless it is shaped like a password. */
const MYSQL_SPACED = new RegExp(String.raw`\b${MYSQL_TOOLS}\b${SAME_COMMAND}-p[ \t]+${VALUE}`, 'g')
/** `docker login -u ci -p VALUE` (and podman, nerdctl, buildah, skopeo, helm registry login). */
const REGISTRY_LOGIN = new RegExp(String.raw`\b(?:docker|podman|nerdctl|buildah|skopeo|helm[ \t]+registry)[ \t]+login\b${SAME_COMMAND}(?:-p|--password)(?:=|[ \t]+)${VALUE}`, 'g')
/** `sshpass -p VALUE`, `sshpass -pVALUE`. */
const SSHPASS = new RegExp(String.raw`\bsshpass\b${SAME_COMMAND}-p[ \t]*${VALUE}`, 'g')
/** `redis-cli -a VALUE`, `redis-cli --pass VALUE`. */
const REDIS_CLI = new RegExp(String.raw`\bredis-cli\b${SAME_COMMAND}(?:-a|--pass)[ \t]+${VALUE}`, 'g')

function anyValue(re: RegExp, text: string, judge: (value: string) => boolean): boolean {
  for (const m of text.matchAll(re)) if (judge(m[1] ?? '')) return true
  return false
}

function hasCommandLinePassword(text: string): boolean {
  const lower = text.toLowerCase()
  if ((lower.includes('mysql') || lower.includes('mariadb')) && (anyValue(MYSQL_TIGHT, text, literalPassword) || anyValue(MYSQL_SPACED, text, passwordShaped))) return true
  if (lower.includes('login') && anyValue(REGISTRY_LOGIN, text, literalPassword)) return true
  if (lower.includes('sshpass') && anyValue(SSHPASS, text, literalPassword)) return true
  return lower.includes('redis-cli') && anyValue(REDIS_CLI, text, literalPassword)
}

/**
 * .netrc: `machine HOST login USER password VALUE`, on one line or several, fields in curl's and
 * ftp's order or with `password` first; `default login … password …`. A `machine` with no field
 * between it and `password` ("machine learning password reset") is prose.
 */
const NETRC = [
  /\bmachine[ \t]+[\w.:-]+(?:\s+(?:login|account|port)[ \t]+\S+){1,3}\s+password[ \t]+(\S+)/g,
  /\bmachine[ \t]+[\w.:-]+\s+password[ \t]+(\S+)\s+(?:login|account)[ \t]/g,
  /\bdefault(?:\s+(?:login|account)[ \t]+\S+){1,2}\s+password[ \t]+(\S+)/g,
]

function hasNetrcPassword(text: string): boolean {
  if (!text.includes('password')) return false
  return NETRC.some((re) => anyValue(re, text, literalPassword))
}

/**
 * .pgpass: `host:port:database:user:password`, a line or a word of a line (`echo
 * db:5432:app:app:VALUE >> ~/.pgpass`). The port is a number or `*`; a password of digits alone or
 * under three characters is taken for the last field of a time or an address.
 */
const PGPASS = /(?<![^\s"'`(])(\*|[A-Za-z0-9][\w.-]*|\[[0-9A-Fa-f:]+\]):(\d{1,5}|\*):([\w.*-]+):([\w.*@-]+):((?:\\[:\\]|[^\s:\\"'`])+)(?=$|[\s"'`),;])/gm

function hasPgpassPassword(text: string): boolean {
  if (!text.includes(':')) return false
  for (const m of text.matchAll(PGPASS)) {
    const value = m[5] ?? ''
    if (!/^\d+$/.test(value) && literalPassword(value)) return true
  }
  return false
}

/**
 * Prose: "the keystore password is Xk2pQ9mWv", "password for staging: hunter2!". Only a value
 * shaped like a password (see passwordShaped): "the password is stored in Vault", "password is
 * rotated monthly", "password is 12 characters" are talk about one. A quoted value is PROSE_SECRET's.
 * No two runs of blanks in a row that could share a blank: "password is" and 15,000 spaces took 86 ms.
 */
const PROSE_PASSWORD = /\b(?:password|passphrase|passwd|passcode)(?:[ \t]+(?:for|of|to|on)[ \t]+[^\s.;:][^\n.;:]{0,39}?)?(?:[ \t]+(?:is|was|reads|is set to|set to)(?:[ \t]*:)?|[ \t]*[:=])[ \t]+(\S+)/gi

function hasProsePassword(text: string): boolean {
  if (!/pass/i.test(text)) return false
  return anyValue(PROSE_PASSWORD, text, passwordShaped)
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

/** A format rule: true when some match of `source` is not an obvious documentation dummy. */
function pattern(source: string): (text: string) => boolean {
  const re = new RegExp(source, 'g')
  return (text) => {
    for (const [match] of text.matchAll(re)) if (!DUMMY_TOKEN.test(match)) return true
    return false
  }
}

// The AWS docs' AKIAIOSFODNN7EXAMPLE is a dummy like any other (see DUMMY_TOKEN).
const AWS_KEY_ID = /(?<![A-Za-z0-9])(?:AKIA|ASIA|ABIA|ACCA|AGPA|AIDA|AROA|AIPA|ANPA|ANVA|A3T[A-Z0-9])[A-Z0-9]{16}(?![A-Za-z0-9])/g

const JWT = /(?<![\w-])eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{16,}/
const AUTH_HEADER = /\b([Bb]earer|[Bb]asic)\s+([A-Za-z0-9._~+/-]{12,}=*)/g
/**
 * `Authorization: token …` (GitHub's older scheme, and `Api-Token`), as gitleaks' curl-auth-header
 * reads it: only after the header's name, since "token" alone is a word of prose.
 */
const AUTH_TOKEN_HEADER = /\bauthorization:[ \t]*(?:api-)?token[ \t]+([\w=~@.+/-]{12,})/gi

/**
 * Basic credentials are base64 of `user:password`; prose like "Basic authentication" isn't, and
 * neither are documentation examples such as `Basic dXNlcjpwYXNz` (`user:pass`) or RFC 7617's
 * `aladdin:opensesame`, whose password is a placeholder or the user name again.
 */
function isBasicCredential(value: string): boolean {
  if (!/^[A-Za-z0-9+/]{8,}={0,2}$/.test(value)) return false
  let decoded: string
  try {
    decoded = atob(value)
  } catch {
    return false
  }
  // printable, with a colon and 3+ characters after the first one (a pattern with a lazy user part
  // backtracked over every colon: 15,000 of them took 70 ms)
  const colon = decoded.indexOf(':')
  if (colon < 0 || decoded.length - colon - 1 < 3 || !/^[\x20-\x7e]*$/.test(decoded)) return false
  const user = decoded.slice(0, colon)
  const password = decoded.slice(colon + 1)
  return password !== user && !isPlaceholder(password)
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
      String.raw`(?<![A-Za-z0-9])(?:(?:xox[abposre]|xapp)-\d+-[A-Za-z0-9-]{8,}|xox[ar]-(?:\d-)?[0-9a-zA-Z]{8,48}${END})|https://hooks\.slack\.com/(?:services/T[A-Za-z0-9_]+/B[A-Za-z0-9_]+/[A-Za-z0-9_]{8,}|(?:workflows|triggers)/[A-Za-z0-9_/+]{30,})`,
    ),
  },
  {
    id: 'stripe-key',
    kind: 'a Stripe secret key',
    hit: pattern(String.raw`(?<![A-Za-z0-9])(?:sk|rk)_(?:live|test|prod)_[A-Za-z0-9]{16,}${END}|(?<![A-Za-z0-9])whsec_[A-Za-z0-9]{24,}`),
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
      if (!/authorization:/i.test(text)) return false
      for (const [, value = ''] of text.matchAll(AUTH_TOKEN_HEADER)) {
        if (!isPlaceholder(value) && !DUMMY_TOKEN.test(value) && /[A-Za-z]/.test(value) && /\d/.test(value)) return true
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

// What each rule of the secretlint preset finds, for the message.
const SECRETLINT_KINDS: Record<string, string> = {
  '1password': 'a 1Password service account token',
  anthropic: 'an Anthropic API key',
  aws: 'an AWS credential',
  databricks: 'a Databricks access token',
  docker: 'a Docker Hub access token',
  figma: 'a Figma access token',
  gcp: 'a Google Cloud service account key',
  github: 'a GitHub token',
  gitlab: 'a GitLab token',
  grafana: 'a Grafana Cloud or service account token',
  groq: 'a Groq API key',
  'hashicorp-vault': 'a HashiCorp Vault token',
  huggingface: 'a Hugging Face access token',
  linear: 'a Linear API key',
  notion: 'a Notion integration token',
  npm: 'an npm access token',
  openai: 'an OpenAI API key',
  privatekey: 'a private key',
  sendgrid: 'a SendGrid API key',
  shopify: 'a Shopify access token or shared secret',
  slack: 'a Slack token or webhook',
  vercel: 'a Vercel access token',
}

function describeSecretlintRule(ruleId: string): string {
  const name = ruleId.startsWith(SECRETLINT_RULE_PREFIX) ? ruleId.slice(SECRETLINT_RULE_PREFIX.length) : ruleId
  return `${SECRETLINT_KINDS[name] ?? 'a credential'} matched by secretlint's ${name} rule`
}

function finding(rule: string, kind: string): SecretFinding {
  return {
    rule,
    message: `content looks like it contains ${kind} (rule ${rule}); remove the secret and store a reference such as the variable name instead`,
  }
}

// Run after the assignment rules: `passwd: Qz7#kL2m` is a password assignment before it is prose.
const PASSWORD_RULES: readonly OwnRule[] = [
  {id: 'command-line-password', kind: 'a password given on a command line', hit: hasCommandLinePassword},
  {id: 'netrc-password', kind: 'a password in a .netrc entry', hit: hasNetrcPassword},
  {id: 'pgpass-password', kind: 'a password in a .pgpass line', hit: hasPgpassPassword},
  {id: 'prose-password', kind: 'a password written out in a sentence', hit: hasProsePassword},
]

/**
 * A token wrapped over lines (a terminal's or an editor's width, a `\` continuation) read as one:
 * a line break between two token characters, with the indentation around it, is taken out. Only
 * the token formats read this form; the assignment rules would join a `.env` file's lines into
 * one value. Null when nothing was wrapped.
 */
const WRAP = /([A-Za-z0-9_+/-])[ \t]*\\?\r?\n[ \t]*(?=[A-Za-z0-9_+/-])/g

function unwrapped(text: string): string | null {
  if (!text.includes('\n')) return null
  const joined = text.replace(WRAP, '$1')
  return joined === text ? null : joined
}

function tokenFinding(text: string): SecretFinding | null {
  for (const rule of OWN_RULES) {
    if (rule.hit(text)) return finding(rule.id, rule.kind)
  }
  const provider = scanFormats(text)
  return provider ? finding(provider.id, provider.kind) : null
}

/**
 * Scans text for secrets before it is stored as a memory.
 *
 * The text is read in its scan form (src/text/admit.ts: hidden characters out, NFKC, homoglyphs
 * as the ASCII they imitate), so `to\u200Bken`, `ｐａｓｓｗｏｒｄ` or a Cyrillic `а` in `pаssword`
 * hide nothing. Fast rules run first: the own token formats and the provider formats of
 * secret-providers.ts (gitleaks' default rule set where secretlint has no rule, behind one keyword
 * pass), on the text and on the text with wrapped lines joined; then the assignment heuristics and
 * the command-line, .netrc, .pgpass and prose password shapes. The secretlint recommended preset
 * runs after them, loaded on the first call and reused. The result's message is built from the
 * rule id and a fixed noun phrase alone, so it is safe to show or log: it never echoes the secret
 * (secretlint's own messages do, and are discarded).
 *
 * @param raw - The text to check (a memory's content, a tag list, a reason, a note…).
 * @returns The first finding, or `null` when the text looks free of secrets.
 * @throws If secretlint cannot be loaded; the gate fails closed rather than letting text through.
 */
export async function scanSecrets(raw: string): Promise<SecretFinding | null> {
  const text = scanForm(raw)
  const token = tokenFinding(text)
  if (token) return token
  const joined = unwrapped(text)
  const wrapped = joined === null ? null : tokenFinding(joined)
  if (wrapped) return wrapped
  const assignment = findAssignment(text)
  if (assignment) return finding(ASSIGNMENT_RULES[assignment].id, ASSIGNMENT_RULES[assignment].kind)
  for (const rule of PASSWORD_RULES) {
    if (rule.hit(text)) return finding(rule.id, rule.kind)
  }

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
