import {describe, expect, it} from 'vitest'
import {scanSecrets, type SecretFinding} from '../../src/gates/secrets.js'

// Every fake credential is assembled from pieces so this file never contains one verbatim.
const b62 = 'aB3dE5fG7h' + 'I9jK1lM3nO' + '5pQ7rS9tU1' + 'vW3xY5'

interface SecretCase {
  name: string
  text: string
  /** The part that must never appear in the message. */
  secret: string
  rule: string
}

const awsId = 'AKIA' + 'Q4XKZ7PLMN3R2TWB'
const ghp = 'ghp_' + b62
const gho = 'gho_' + b62
const pat = 'github_pat_' + '11ABCDEFG0' + '123456789_' + b62 + 'Zq8Xk2Lm9Pw4Rt7Vb3'
const slack = 'xoxb-' + '123456789012-' + '1234567890123-' + 'Kq9Zt2Wm4Xp7Lr3Vb8Nc5Hy6'
const stripe = 'sk_' + 'live_' + 'Zq8Xk2Lm9Pw4Rt7Vb3Nc6Jd'
const googleKey = 'AIza' + 'SyD-' + 'Zq8Xk2Lm9Pw4Rt7Vb3Nc6Jd1Hf5Gs0T'
const npmToken = 'npm_' + b62
const jwt = ['eyJhbGciOiJIUzI1NiJ9', 'eyJzdWIiOiIxMjM0NTY3ODkwIn0', 'dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U'].join('.')
const keyBody = 'MIIBOgIBAAJBAK' + 'Zq8Xk2Lm9Pw4Rt7Vb3'
const pgpBody = 'lQOYBF' + 'Zq8Xk2Lm9Pw4Rt7Vb3Nc6Jd1'
const opensshBody = 'b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAAB' + 'Zq8Xk2Lm9Pw4Rt7Vb3Nc6Jd1'
const openai = 'sk-' + 'proj-' + b62 + 'T3Blbk' + 'FJ' + b62
const anthropic = 'sk-' + 'ant-api03-' + b62 + b62 + 'Zq8Xk2Lm9AA'
const gitlab = 'glpat-' + 'Zq8Xk2Lm9Pw4Rt7Vb3Nc'
const entropyValue = 'Zx8f' + 'K2pQ9mWvL3rT7nYb4Hc'
const awsSecret = 'wJalrXUtnFEMI/K7MDENG' + '/bPxRfiCYzq8Xk2Lm9Pw4'
const basic = btoa('deploy:' + 'Zq8Xk2Lm')

const CASES: SecretCase[] = [
  {name: 'AWS access key id in prose', text: `deploy key for staging is ${awsId}`, secret: awsId, rule: 'aws-access-key-id'},
  {name: 'AWS temporary key id', text: `creds: ASIA${awsId.slice(4)}`, secret: awsId.slice(4), rule: 'aws-access-key-id'},
  {name: 'GitHub classic token', text: `ci uses token ${ghp}`, secret: ghp, rule: 'github-token'},
  {name: 'GitHub OAuth token in a clone URL', text: `git clone https://x-access-token:${gho}@github.com/o/r.git`, secret: gho, rule: 'github-token'},
  // The fixed prefix is public; only what follows it is secret.
  {name: 'GitHub fine-grained token', text: `GH=${pat}`, secret: pat.slice(11), rule: 'github-token'},
  {name: 'Slack bot token', text: `slack bot: ${slack}`, secret: slack, rule: 'slack-token'},
  {name: 'Stripe live key', text: `stripe key ${stripe} (prod)`, secret: stripe, rule: 'stripe-key'},
  {name: 'Google API key', text: `maps key ${googleKey}`, secret: googleKey, rule: 'google-api-key'},
  {name: 'npm token', text: `//registry.npmjs.org/:_authToken=${npmToken}`, secret: npmToken, rule: 'npm-token'},
  {name: 'JWT', text: `session cookie was ${jwt} when it failed`, secret: jwt, rule: 'jwt'},
  {
    name: 'short PEM private key',
    text: `-----BEGIN RSA PRIVATE KEY-----\n${keyBody}\n-----END RSA PRIVATE KEY-----`,
    secret: keyBody,
    rule: 'private-key',
  },
  {
    name: 'PGP private key block with headers',
    text: `-----BEGIN PGP PRIVATE KEY BLOCK-----\nVersion: GnuPG v2\n\n${pgpBody}`,
    secret: pgpBody,
    rule: 'private-key',
  },
  {
    name: 'OpenSSH key whose body has long runs of A',
    text: `-----BEGIN OPENSSH PRIVATE KEY-----\n${opensshBody}\n-----END OPENSSH PRIVATE KEY-----`,
    secret: opensshBody.slice(52),
    rule: 'private-key',
  },
  {
    name: 'JSON-escaped PEM key',
    text: `{"private_key": "-----BEGIN PRIVATE KEY-----\\n${keyBody}\\n-----END PRIVATE KEY-----\\n"}`,
    secret: keyBody,
    rule: 'private-key',
  },
  {name: 'OpenAI project key', text: `OPENAI=${openai}`, secret: openai, rule: 'openai-api-key'},
  {name: 'Anthropic key', text: `use ${anthropic} for evals`, secret: anthropic, rule: 'anthropic-api-key'},
  {name: 'postgres URL with password', text: `staging db: postgres://app:${'S3cr3t' + 'Pa55'}@db.internal:5432/app`, secret: 'S3cr3tPa55', rule: 'connection-string-password'},
  {name: 'mongodb+srv URL with password', text: `mongodb+srv://svc:${'Tr0ub4' + 'dor9'}@cluster0.ab1cd.mongodb.net/prod`, secret: 'Tr0ub4dor9', rule: 'connection-string-password'},
  {name: 'redis URL with only a password', text: `REDIS_URL=redis://:${'r3dis' + 'Pw9z'}@cache:6379/0`, secret: 'r3disPw9z', rule: 'connection-string-password'},
  {name: 'amqp URL with password', text: `broker amqp://svc:${'q8Wm' + '2vLp'}@rabbit:5672`, secret: 'q8Wm2vLp', rule: 'connection-string-password'},
  {name: 'mysql JDBC URL with password', text: `jdbc:mysql://root:${'Kq9z' + '!x2w'}@127.0.0.1/app`, secret: 'Kq9z!x2w', rule: 'connection-string-password'},
  {name: 'password=value', text: `login with password=${'hunter' + '22'}`, secret: 'hunter22', rule: 'password-assignment'},
  {name: 'env password, letters only', text: `DB_PASSWORD=${'zqkvm' + 'wplr'}`, secret: 'zqkvmwplr', rule: 'password-assignment'},
  {name: 'YAML passwd', text: `passwd: ${'Qz7#' + 'kL2m'}`, secret: 'Qz7#kL2m', rule: 'password-assignment'},
  {name: 'pwd=value', text: `pwd=${'Tr0ub' + '4dor'}`, secret: 'Tr0ub4dor', rule: 'password-assignment'},
  {name: 'JSON password', text: `{"user": "ci", "password": "${'qzvk' + 'wmbn'}"}`, secret: 'qzvkwmbn', rule: 'password-assignment'},
  {name: 'CLI --password flag', text: `mytool --password ${'hunter' + '22'} --verbose`, secret: 'hunter22', rule: 'password-assignment'},
  {name: 'secret=value', text: `secret=${'a8f3k2' + 'm9q1'}`, secret: 'a8f3k2m9q1', rule: 'secret-assignment'},
  {name: 'token: value', text: `token: ${'k9Xq2m' + 'Zp7Lw4'}`, secret: 'k9Xq2mZp7Lw4', rule: 'secret-assignment'},
  {name: 'api_key=hex', text: `api_key=${'f3a9c1e7' + 'b2d40c5e'}`, secret: 'f3a9c1e7b2d40c5e', rule: 'secret-assignment'},
  {name: 'quoted apikey', text: `apikey: "${'Zq8Xk2L' + 'm9Pw4Rt'}"`, secret: 'Zq8Xk2Lm9Pw4Rt', rule: 'secret-assignment'},
  {name: 'client_secret in code', text: `const client_secret = '${'Qm3kZ8x' + 'Lp2Wv7'}'`, secret: 'Qm3kZ8xLp2Wv7', rule: 'secret-assignment'},
  {name: 'access_token query', text: `GET /me?access_token=${'ya29a0Af' + 'H6SMBx7kQ2'}`, secret: 'ya29a0AfH6SMBx7kQ2', rule: 'secret-assignment'},
  {name: 'AWS secret access key', text: `aws_secret_access_key = ${awsSecret}`, secret: awsSecret, rule: 'secret-assignment'},
  {name: 'API_KEY with high entropy', text: `API_KEY=${entropyValue}`, secret: entropyValue, rule: 'secret-assignment'},
  {name: 'high entropy under any name', text: `SESSION_SIGNING=${entropyValue}`, secret: entropyValue, rule: 'high-entropy-assignment'},
  {name: 'Bearer header', text: `curl -H "Authorization: Bearer ${'a1b2c3d4' + 'e5f6g7h8i9'}"`, secret: 'a1b2c3d4e5f6g7h8i9', rule: 'authorization-header'},
  {name: 'Basic header', text: `Authorization: Basic ${basic}`, secret: basic, rule: 'authorization-header'},
  {name: 'GitLab token (secretlint rule)', text: `gitlab ${gitlab}`, secret: gitlab, rule: '@secretlint/secretlint-rule-gitlab'},
]

/** The message must not carry the secret or any 5-character piece of it, in any case. */
function expectSafeMessage(finding: SecretFinding, secret: string): void {
  const message = finding.message.toLowerCase()
  const lower = secret.toLowerCase()
  for (let i = 0; i + 5 <= lower.length; i++) expect(message).not.toContain(lower.slice(i, i + 5))
}

describe('scanSecrets: secrets are caught', () => {
  for (const c of CASES) {
    it(`flags ${c.name} as ${c.rule} without echoing it`, async () => {
      const finding = await scanSecrets(c.text)
      expect(finding).not.toBeNull()
      expect(finding!.rule).toBe(c.rule)
      expect(finding!.message).toContain(`rule ${c.rule}`)
      expectSafeMessage(finding!, c.secret)
    })
  }

  it('names the kind of secret in the message', async () => {
    expect((await scanSecrets(`key ${awsId}`))!.message).toMatch(/AWS access key id/)
    expect((await scanSecrets(ghp))!.message).toMatch(/GitHub token/)
    expect((await scanSecrets(gitlab))!.message).toMatch(/secretlint's gitlab rule/)
  })

  it('cannot be switched off with a secretlint-disable comment', async () => {
    const finding = await scanSecrets(`// secretlint-disable\n${gitlab}`)
    expect(finding?.rule).toBe('@secretlint/secretlint-rule-gitlab')
  })

  it('finds a secret buried in a long note', async () => {
    const note = `${'Ran the migration and checked the dashboards. '.repeat(20)}Then exported token=${'k9Xq2m' + 'Zp7Lw4'} to debug.`
    expect((await scanSecrets(note))?.rule).toBe('secret-assignment')
  })

  it('handles concurrent first calls', async () => {
    const results = await Promise.all([scanSecrets(gitlab), scanSecrets('plain note'), scanSecrets(gitlab)])
    expect(results.map((r) => r?.rule ?? null)).toEqual([
      '@secretlint/secretlint-rule-gitlab',
      null,
      '@secretlint/secretlint-rule-gitlab',
    ])
  })
})

const ORDINARY_MEMORIES = [
  'npm run test:int -- --reporter=dot',
  'Run npm run build before vitest; the CLI tests spawn dist/cli/commands.js',
  'set DATABASE_URL in .env',
  'set DB_PASSWORD in .env before running migrations',
  'the password is stored in vault under secret/data/staging/db',
  'password: see the 1Password entry "staging db"',
  'The access token expires after 1h; refresh it with the refresh_token grant',
  'Bearer tokens are validated in src/auth/middleware.ts',
  'Basic authentication is disabled in production',
  'max_tokens=4096 for the summarizer; temperature: 0.2',
  'encoding token: cl100k_base',
  'Commit 3f2c9a1b7e4d5f6a8b9c0d1e2f3a4b5c6d7e8f90 fixed the flaky lock test',
  'fixed in sha: 3f2c9a1b7e4d5f6a8b9c0d1e2f3a4b5c6d7e8f90',
  'tenant UUID 123e4567-e89b-12d3-a456-426614174000 is the demo org',
  'request_id: Zx8fK2pQ9mWvL3rT7nYb4Hc was the failing upload',
  'postgres://localhost:5432/app is the local database',
  // Assembled so repository secret scanners don't trip over this file's documented dummies.
  'local db: postgres://postgres:' + 'postgres@localhost:5432/app (docker default)',
  'DATABASE_URL=postgres://${DB_USER}:${DB_PASSWORD}@db:5432/app',
  'redis://localhost:6379/0 and amqp://guest:guest@localhost:5672 in docker-compose',
  'https://github.com/org/repo/pull/123#issuecomment-456 explains the revert',
  'git@github.com:org/repo.git and ssh://git@github.com:22/org/repo.git both work',
  'Use pnpm 9.1.2 and node 20.20; vitest 4.1.12 needs pool: forks here',
  'src/gates/secrets.ts exports scanSecrets; see docs/architecture.md',
  'interface Login { password?: string; token: string | null }',
  'const password = req.body.password',
  'password = userInput',
  'const token = process.env.GITHUB_TOKEN!',
  'token = os.environ["GITHUB_TOKEN"]',
  'password: z.string().min(8)',
  'PASSWORD=<your password>',
  'api_key=${API_KEY}',
  'token=$TOKEN',
  'password: ****',
  'secret: xxx',
  'password=changeme',
  'PWD=/work/main',
  'mytool --password prompts interactively when omitted',
  'k8s: secretName: db-creds-v2, kind: Secret, type: Opaque',
  'The run id aGVsbG8gd29ybGQgdGhpcyBpcw shows up in the CI logs',
  'component: UserProfileSettingsV2Page renders the avatar',
  'export const resolveAwsSdkSigV4Config = resolveAWSSDKSigV4Config',
  'image: ghcr.io/org/app@sha256:9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
  'integrity: sha512-Zx8fK2pQ9mWvL3rT7nYb4HcZx8fK2pQ9mWvL3rT7nYb4Hc==',
  '{ password: "Password must be at least 8 characters" } is the zod message',
  'JWT headers start with eyJ; we never log them',
  'The key file starts with -----BEGIN OPENSSH PRIVATE KEY----- and lives in ~/.ssh',
  'AWS docs use AKIAIOSFODNN7EXAMPLE as the sample key id',
  'C:\\Users\\dev\\project: build output goes to dist',
  'The PEM starts with -----BEGIN PRIVATE KEY----- followed by the base64 body',
  `docs show tokens as ghp_${'x'.repeat(36)} or xoxb-${'your-token-here'}`,
  'DB_PASSWORD=\nDB_HOST=db.internal\nDB_PORT=5432',
  'struct Login { password: Option<String>, token: Vec<u8> }',
  'MasterUserPassword: !Ref DbPassword in the CloudFormation template',
  'Decision: keep the session context under 600 tokens; token counting uses gpt-tokenizer',
]

describe('scanSecrets: ordinary developer memories pass', () => {
  it('has a meaningful list', () => {
    expect(ORDINARY_MEMORIES.length).toBeGreaterThanOrEqual(20)
  })

  for (const text of ORDINARY_MEMORIES) {
    it(`passes: ${text}`, async () => {
      expect(await scanSecrets(text)).toBeNull()
    })
  }

  it('passes empty and whitespace-only text', async () => {
    expect(await scanSecrets('')).toBeNull()
    expect(await scanSecrets('  \n\t')).toBeNull()
  })
})

// --- provider formats (issue 19) ----------------------------------------------------------------

/**
 * Deterministic fake values, generated when the file loads so that it never holds a secret-shaped
 * literal. Values mix letters and digits and contain no keyboard run, as generated tokens do (the
 * rules rightly skip `abcdefg...` and all-letter bodies as documentation dummies).
 */
let state = 0x2545f491
function rand(alphabet: string, length: number): string {
  for (;;) {
    let out = ''
    for (let i = 0; i < length; i++) {
      state = (state + 0x6d2b79f5) >>> 0
      let t = state
      t = Math.imul(t ^ (t >>> 15), t | 1)
      t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
      out += alphabet[(((t ^ (t >>> 14)) >>> 0) % alphabet.length)]
    }
    const needsBoth = /[a-z]/i.test(alphabet) && /\d/.test(alphabet)
    if (needsBoth && !(/[a-z]/i.test(out) && /\d/.test(out))) continue
    if (/0123|1234|2345|3456|4567|5678|6789|abcd|bcde|cdef|defg|(.)\1{3}/i.test(out)) continue
    return out
  }
}
const LOWER = 'abcdefghijklmnopqrstuvwxyz'
const DIGITS = '0123456789'
const UPPER = LOWER.toUpperCase()
const hex = (n: number) => rand('0123456789abcdef', n)
const alnum = (n: number) => rand(LOWER + DIGITS, n) // lower-case alphanumerics
const upperAlnum = (n: number) => rand(UPPER + DIGITS, n)
const mixed62 = (n: number) => rand(LOWER + UPPER + DIGITS, n)
const url64 = (n: number) => rand(LOWER + UPPER + DIGITS + '_-', n)
const b64 = (n: number) => rand(LOWER + UPPER + DIGITS + '+/', n)
const digits = (n: number) => rand(DIGITS, n)
// Azurite's published, well-known emulator account key (documentation, not a secret).
const AZURITE_KEY = 'Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq' + '/K1SZFPTOtr/KBHBeksoGMGw=='
const uuid = () => `${hex(8)}-${hex(4)}-4${hex(3)}-a${hex(3)}-${hex(12)}`

interface FormatCase {
  rule: string
  /** Text holding a made-up credential of the right shape. */
  text: string
  /** The random part that must never appear in the message. */
  secret: string
  /** A near miss: right prefix or key with the wrong length or charset, a dummy, or no key. */
  near: string
}

function fc(rule: string, text: string, secret: string, near: string): FormatCase {
  return {rule, text, secret, near}
}

const FORMAT_CASES: FormatCase[] = (() => {
  const c: FormatCase[] = []
  const add = (rule: string, make: (s: string) => [string, string], secret: string) => {
    const [text, near] = make(secret)
    c.push(fc(rule, text, secret, near))
  }
  // Own rules that gained shapes.
  add('aws-access-key-id', (s) => [`key id ABIA${s}`, `key id ABIA${s.slice(1)}`], upperAlnum(16))
  add('slack-token', (s) => [`app token xapp-1-A${upperAlnum(10)}-${digits(13)}-${s}`, `app token xapp-1-${'x'.repeat(10)}-${'x'.repeat(13)}-${'x'.repeat(64)}`], hex(64))
  add('stripe-key', (s) => [`stripe sk_prod_${s}`, `stripe sk_prod_${s.slice(0, 12)}`], mixed62(24))

  // Token rules: the prefix is public, the body is the secret.
  add('1password-secret-key', (s) => [`1password secret key A3-${s}`, `1password secret key A3-${s.toLowerCase()}`],
    `${upperAlnum(6)}-${upperAlnum(11)}-${upperAlnum(5)}-${upperAlnum(5)}-${upperAlnum(5)}`)
  add('adobe-client-secret', (s) => [`adobe secret p8e-${s}`, `adobe secret p8e-${s.slice(1)}`], mixed62(32))
  add('age-secret-key', (s) => [`AGE-SECRET-KEY-1${s}`, `AGE-SECRET-KEY-1${s.slice(2)}`], rand('QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L', 58))
  add('airtable-api-key', (s) => [`airtable pat${mixed62(14)}.${s}`, `airtable pat${mixed62(14)}.${s.slice(1)}`], hex(64))
  add('alibaba-access-key-id', (s) => [`aliyun id LTAI${s}`, `aliyun id LTAI${s.slice(2)}`], mixed62(20))
  add('artifactory-api-key', (s) => [`artifactory AKCp${s}`, `artifactory AKCp${s.slice(9)}`], mixed62(69))
  add('artifactory-reference-token', (s) => [`reference token cmVmd${s}`, `reference token cmVmd${s.slice(4)}`], mixed62(59))
  add('atlassian-api-token', (s) => [`atlassian token ATATT3${s}`, `atlassian token ATATT3${s.slice(100)}`], url64(186))
  add('authress-service-client-access-key', (s) => [`authress sc_${alnum(10)}.${alnum(5)}.acc_${alnum(20)}.${s}`, `authress sc_${alnum(10)}.${alnum(5)}.${s}`], b64(60))
  add('azure-ad-client-secret', (s) => [`client secret ${s.slice(0, 3)}8Q~${s.slice(3)}`, `client secret ${s.slice(0, 3)}8Q~${s.slice(3, 20)}`], rand(LOWER + UPPER + DIGITS + '_~.', 37))
  add('azure-storage-account-key', (s) => [
    `DefaultEndpointsProtocol=https;AccountName=tallyprod;AccountKey=${s}==;EndpointSuffix=core.windows.net`,
    // Azurite's published emulator key.
    `DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;AccountKey=${AZURITE_KEY};BlobEndpoint=http://127.0.0.1:10000/devstoreaccount1`,
  ], b64(86))
  add('azure-shared-access-key', (s) => [
    `Endpoint=sb://tally.servicebus.windows.net/;SharedAccessKeyName=RootManageSharedAccessKey;SharedAccessKey=${s}=`,
    `Endpoint=sb://tally.servicebus.windows.net/;SharedAccessKeyName=RootManageSharedAccessKey;SharedAccessKey=${'X'.repeat(43)}=`,
  ], b64(43))
  add('azure-sas-token', (s) => [
    `https://tally.blob.core.windows.net/invoices?sv=2022-11-02&ss=b&srt=co&sp=rl&se=2026-01-01T00:00:00Z&sig=${s}%3D`,
    `https://tally.blob.core.windows.net/invoices?ss=b&srt=co&sp=rl&sig=${s}%3D`,
  ], mixed62(43))
  add('clickhouse-cloud-api-secret-key', (s) => [`clickhouse 4b1d${s}`, `clickhouse 4b1d${s.slice(3)}`], mixed62(38))
  add('clojars-api-token', (s) => [`CLOJARS_${s}`, `CLOJARS_${s.slice(5)}`], alnum(60))
  add('cloudflare-origin-ca-key', (s) => [`origin ca v1.0-${hex(24)}-${s}`, `origin ca v1.0-${hex(24)}-${s.slice(6)}`], hex(146))
  add('defined-networking-api-token', (s) => [`dnkey-${alnum(26)}-${s}`, `dnkey-${alnum(26)}-${s.slice(3)}`], alnum(52))
  add('digitalocean-pat', (s) => [`DO token dop_v1_${s}`, `DO token dop_v1_${s.slice(1)}`], hex(64))
  add('digitalocean-access-token', (s) => [`DO oauth doo_v1_${s}`, `DO oauth doo_v1_${s.slice(0, 60)}zzzz`], hex(64))
  add('digitalocean-refresh-token', (s) => [`DO refresh dor_v1_${s}`, `DO refresh dor_v1_${'x'.repeat(64)}`], hex(64))
  add('discord-bot-token', (s) => [`bot token M${mixed62(25)}.${url64(6)}.${s}`, `bot token M${mixed62(25)}.${s}`], url64(38))
  add('discord-webhook-url', (s) => [`https://discord.com/api/webhooks/${digits(18)}/${s}`, `https://discord.com/api/webhooks/${digits(18)}/${s.slice(0, 30)}`], url64(68))
  add('doppler-api-token', (s) => [`doppler dp.pt.${s}`, `doppler dp.pt.${s.slice(10)}`], mixed62(43))
  add('duffel-api-token', (s) => [`duffel_test_${s}`, `duffel_test_${s.slice(5)}`], url64(43))
  add('dynatrace-api-token', (s) => [`dt0c01.${upperAlnum(24)}.${s}`, `dt0c01.${upperAlnum(24)}.${s.slice(4)}`], mixed62(64))
  add('easypost-api-token', (s) => [`EZAK${s}`, `EZAK${s.slice(4)}`], mixed62(54))
  add('easypost-test-api-token', (s) => [`EZTK${s}`, `EZTK${s.slice(4)}`], mixed62(54))
  add('facebook-access-token', (s) => [`facebook app token ${digits(15)}|${s}`, `facebook app token ${digits(15)}|${s.slice(12)}`], url64(32))
  add('facebook-page-access-token', (s) => [`page token EAAM${s}`, `page token EAAM${s.slice(40)}`], mixed62(120))
  add('flutterwave-secret-key', (s) => [`FLWSECK_TEST-${s}-X`, `FLWSECK_TEST-${s.replace(/[a-h]/g, 'z')}-X`], rand('abcdefgh0123456789', 32))
  add('flutterwave-encryption-key', (s) => [`FLWSECK_TEST${s}`, `FLWSECK_TEST${s.slice(2)}`], rand('abcdefgh0123456789', 12))
  add('flutterwave-public-key', (s) => [`FLWPUBK_TEST-${s}-X`, `FLWPUBK_TEST-${s.slice(1)}-X`], rand('abcdefgh0123456789', 32))
  add('flyio-access-token', (s) => [`fly fo1_${s}`, `fly fo1_${s.slice(3)}`], url64(43))
  add('frameio-api-token', (s) => [`fio-u-${s}`, `fio-u-${s.slice(2)}`], url64(64))
  add('freemius-secret-key', (s) => [`'secret_key' => 'sk_${s}',`, `'secret_key' => 'sk_${'x'.repeat(29)}',`], mixed62(29))
  add('gitlab-cicd-job-token', (s) => [`job glcbt-64_${s}`, `job glcbt-64_${s.slice(2)}`], url64(20))
  add('gitlab-deploy-token', (s) => [`deploy gldt-${s}`, `deploy gldt-${s.slice(2)}`], mixed62(20))
  add('gitlab-feature-flag-client-token', (s) => [`flags glffct-${s}`, `flags glffct-${s.slice(2)}`], mixed62(20))
  add('gitlab-feed-token', (s) => [`feed glft-${s}`, `feed glft-${s.slice(2)}`], mixed62(20))
  add('gitlab-incoming-mail-token', (s) => [`mail glimt-${s}`, `mail glimt-${s.slice(2)}`], mixed62(25))
  add('gitlab-kubernetes-agent-token', (s) => [`agent glagent-${s}`, `agent glagent-${s.slice(2)}`], mixed62(50))
  add('gitlab-oauth-app-secret', (s) => [`oauth gloas-${s}`, `oauth gloas-${s.slice(2)}`], mixed62(64))
  add('gitlab-ptt', (s) => [`trigger glptt-${s}`, `trigger glptt-${s.slice(2)}`], hex(40))
  add('gitlab-rrt', (s) => [`runner GR1348941${s}`, `runner GR1348941${s.slice(2)}`], mixed62(20))
  add('gitlab-runner-authentication-token', (s) => [`runner glrt-${s}`, `runner glrt-${s.slice(2)}`], mixed62(20))
  add('gitlab-scim-token', (s) => [`scim glsoat-${s}`, `scim glsoat-${s.slice(2)}`], mixed62(20))
  add('gitlab-session-cookie', (s) => [`cookie _gitlab_session=${s}`, `cookie _gitlab_session=${s.slice(2)}`], alnum(32))
  add('grafana-api-key', (s) => [`grafana eyJrIjoi${s}`, `grafana eyJrIjoi${s.slice(20)}`], mixed62(80))
  add('harness-api-key', (s) => [`harness pat.${url64(22)}.${mixed62(24)}.${s}`, `harness pat.${url64(22)}.${s}`], mixed62(20))
  add('hashicorp-tf-api-token', (s) => [`tfc ${alnum(14)}.atlasv1.${s}`, `tfc ${alnum(14)}.atlasv2.${s}`], url64(67))
  add('heroku-api-key-v2', (s) => [`heroku HRKU-AA${s}`, `heroku HRKU-AA${s.slice(2)}`], url64(58))
  add('huggingface-organization-api-token', (s) => [`hf org api_org_${s}`, `hf org api_org_${s.slice(2)}`], rand(LOWER + UPPER, 34))
  add('infracost-api-token', (s) => [`infracost ico-${s}`, `infracost ico-${s.slice(2)}`], mixed62(32))
  add('intra42-client-secret', (s) => [`42 s-s4t2ud-${s}`, `42 s-s4t2ud-${s.slice(2)}`], hex(64))
  add('jwt-base64', (s) => [`encoded ${s}`, `encoded ${s.slice(0, 50)}`], btoa(['eyJhbGciOiJIUzI1NiJ9', `eyJ${mixed62(30)}`, url64(43)].join('.')).replace(/=+$/, ''))
  add('mailchimp-api-key', (s) => [`mailchimp ${s}-us14`, `mailchimp ${s.slice(2)}-us14`], hex(32))
  add('maxmind-license-key', (s) => [`maxmind ${mixed62(6)}_${s}_mmk`, `maxmind ${mixed62(6)}_${s.slice(2)}_mmk`], mixed62(29))
  add('microsoft-teams-webhook', (s) => [
    `https://tally.webhook.office.com/webhookb2/${uuid()}@${uuid()}/IncomingWebhook/${s}/${uuid()}`,
    `https://tally.webhook.office.com/webhookb2/${uuid()}@${uuid()}/IncomingWebhook/${s.slice(4)}/${uuid()}`,
  ], alnum(32))
  add('new-relic-browser-api-token', (s) => [`NRJS-${s}`, `NRJS-${s.slice(2)}`], hex(19))
  add('new-relic-insert-key', (s) => [`NRII-${s}`, `NRII-${s.slice(2)}`], url64(32))
  add('new-relic-user-api-key', (s) => [`NRAK-${s}`, `NRAK-${s.slice(2)}`], upperAlnum(27))
  add('new-relic-license-key', (s) => [`license ${s}NRAL`, `license ${s.slice(2)}NRAL`], hex(36))
  add('octopus-deploy-api-key', (s) => [`octopus API-${s}`, `octopus API-${s.slice(10)}`], upperAlnum(26))
  add('openshift-user-token', (s) => [`oc login --token=sha256~${s}`, `oc digest sha256~${s.slice(4)}`], url64(43))
  add('perplexity-api-key', (s) => [`pplx-${s}`, `pplx-${s.slice(2)}`], mixed62(48))
  add('plaid-api-token', (s) => [`plaid access-sandbox-${s}`, `plaid access-staging-${s}`], uuid())
  add('planetscale-api-token', (s) => [`pscale_tkn_${s}`, `pscale_tkn_${s.slice(12)}`], url64(43))
  add('planetscale-oauth-token', (s) => [`pscale_oauth_${s}`, `pscale_oauth_${s.slice(12)}`], url64(43))
  add('planetscale-password', (s) => [`pscale_pw_${s}`, `pscale_pw_${s.slice(12)}`], url64(43))
  add('postman-api-token', (s) => [`postman PMAK-${hex(24)}-${s}`, `postman PMAK-${hex(24)}-${s.slice(2)}`], hex(34))
  add('prefect-api-token', (s) => [`prefect pnu_${s}`, `prefect pnu_${s.slice(2)}`], mixed62(36))
  add('pulumi-api-token', (s) => [`pulumi pul-${s}`, `pulumi pul-${s.slice(2)}`], hex(40))
  add('pypi-upload-token', (s) => [`twine upload -p pypi-AgEIcHlwaS5vcmc${s}`, `twine upload -p pypi-AgEIcHlwaS5vcmc${s.slice(0, 40)}`], url64(120))
  add('readme-api-token', (s) => [`readme rdme_${s}`, `readme rdme_${s.slice(2)}`], alnum(70))
  add('rubygems-api-token', (s) => [`gem rubygems_${s}`, `gem rubygems_${s.slice(2)}`], hex(48))
  add('scalingo-api-token', (s) => [`scalingo tk-us-${s}`, `scalingo tk-us-${s.slice(2)}`], url64(48))
  add('sendinblue-api-token', (s) => [`brevo xkeysib-${s}-${mixed62(16)}`, `brevo xkeysib-${s.slice(2)}-${mixed62(16)}`], hex(64))
  add('sentry-org-token', (s) => [`sntrys_eyJpYXQiO${b64(40)}_${s}`, `sntrys_eyJpYXQiO${b64(40)}_${s.slice(3)}`], b64(43))
  add('sentry-user-token', (s) => [`sntryu_${s}`, `sntryu_${s.slice(2)}`], hex(64))
  add('settlemint-access-token', (s) => [`sm_pat_${s}`, `sm_pat_${s.slice(2)}`], mixed62(16))
  add('shippo-api-token', (s) => [`shippo_live_${s}`, `shippo_live_${s.slice(2)}`], hex(40))
  add('sidekiq-secret', (s) => [`BUNDLE_GEMS__CONTRIBSYS__COM=${s}`, `BUNDLE_GEMS__CONTRIBSYS__COM=${s.replace(':', '')}`], `${hex(8)}:${hex(8)}`)
  add('square-access-token', (s) => [`square sq0atp-${s}`, `square sq0atp-${s.slice(10)}`], url64(22))
  add('square-secret', (s) => [`square sq0csp-${s}`, `square sq0csp-${s.slice(2)}`], url64(43))
  add('telegram-bot-api-token', (s) => [`bot ${digits(10)}:A${s}`, `bot ${digits(10)}:A${s.slice(2)}`], url64(34))
  add('twilio-api-key', (s) => [`twilio SK${s}`, `twilio SK${s.slice(2)}`], hex(32))
  add('typeform-api-token', (s) => [`typeform tfp_${s}`, `typeform tfp_${s.slice(2)}`], url64(59))
  add('vault-service-token-legacy', (s) => [`VAULT_TOKEN s.${s}`, `VAULT_TOKEN s.${s.toLowerCase()}`], mixed62(24))
  add('sourcegraph-access-token', (s) => [`sourcegraph sgp_${s}`, `sourcegraph sgp_${s.slice(2)}`], hex(40))
  add('sonar-api-token', (s) => [`sonar squ_${s}`, `sonar squ_${s.slice(2)}`], hex(40))
  add('hubspot-api-key', (s) => [`hubspot pat-na1-${s}`, `hubspot pat-na2-${s}`], uuid())

  // Keyed rules: a generic-looking value assigned to a key naming the provider. The near miss
  // keeps the key and breaks the value's length, or keeps the value under a key naming an id.
  const keyedCase = (rule: string, key: string, value: string, near: string) => c.push(fc(rule, `${key}=${value}`, value, near))
  keyedCase('adafruit-api-key', 'ADAFRUIT_IO_KEY', `aio_${alnum(28)}`, `adafruit key: aio_${alnum(27)}`)
  keyedCase('adobe-client-id', 'ADOBE_CLIENT_ID', hex(32), `adobe build id: ${hex(32)}`)
  keyedCase('airtable-api-key', 'AIRTABLE_API_KEY', alnum(17), `airtable key: ${alnum(16)}`)
  keyedCase('algolia-api-key', 'ALGOLIA_ADMIN_KEY', alnum(32), `algolia key: ${alnum(31)}`)
  keyedCase('alibaba-secret-key', 'ALIBABA_CLOUD_ACCESS_KEY_SECRET', alnum(30), `alibaba key: ${alnum(29)}`)
  keyedCase('asana-client-id', 'ASANA_CLIENT_ID', digits(16), `asana project id: ${digits(16)}`)
  keyedCase('asana-client-secret', 'ASANA_CLIENT_SECRET', alnum(32), `asana key: ${alnum(31)}`)
  keyedCase('atlassian-api-token', 'JIRA_API_TOKEN', `${alnum(20)}${hex(4)}`, `jira key: ${alnum(23)}`)
  keyedCase('beamer-api-token', 'BEAMER_API_KEY', `b_${url64(44).toLowerCase()}`, `beamer key: b_${alnum(40)}`)
  keyedCase('bitbucket-client-id', 'BITBUCKET_CLIENT_ID', alnum(32), `bitbucket workspace id: ${alnum(32)}`)
  keyedCase('bitbucket-client-secret', 'BITBUCKET_CLIENT_SECRET', alnum(64), `bitbucket key: ${alnum(63)}`)
  keyedCase('bittrex-access-key', 'BITTREX_API_KEY', alnum(32), `bittrex key: ${alnum(31)}`)
  keyedCase('cisco-meraki-api-key', 'MERAKI_DASHBOARD_API_KEY', hex(40), `meraki network id: ${hex(40)}`)
  keyedCase('cloudflare-api-key', 'CLOUDFLARE_API_TOKEN', url64(40).toLowerCase(), `cloudflare key: ${alnum(39)}`)
  keyedCase('cloudflare-global-api-key', 'CLOUDFLARE_API_KEY', hex(37), `cloudflare zone id: ${hex(32)}`)
  keyedCase('codecov-access-token', 'CODECOV_TOKEN', uuid(), `codecov commit: ${hex(40)}`)
  keyedCase('cohere-api-token', 'CO_API_KEY', mixed62(40), `cohere model: command-r-plus`)
  keyedCase('coinbase-access-token', 'COINBASE_ACCESS_TOKEN', alnum(64), `coinbase key: ${alnum(63)}`)
  keyedCase('confluent-access-token', 'CONFLUENT_CLOUD_API_KEY', upperAlnum(16), `confluent cluster: lkc-${alnum(6)}`)
  keyedCase('confluent-secret-key', 'CONFLUENT_CLOUD_API_SECRET', b64(64), `confluent key: ${alnum(63)}`)
  keyedCase('contentful-delivery-api-token', 'CONTENTFUL_DELIVERY_TOKEN', url64(43), `contentful space id: ${alnum(12)}`)
  keyedCase('datadog-access-token', 'DD_API_KEY', hex(32), `datadog monitor id: ${hex(32)}`)
  keyedCase('discord-api-token', 'DISCORD_PUBLIC_KEY', hex(64), `discord key: ${hex(63)}`)
  keyedCase('discord-client-id', 'DISCORD_CLIENT_ID', digits(18), `discord channel id: ${digits(18)}`)
  keyedCase('discord-client-secret', 'DISCORD_CLIENT_SECRET', url64(32).toLowerCase(), `discord key: ${alnum(31)}`)
  keyedCase('droneci-access-token', 'DRONECI_TOKEN', alnum(32), `droneci key: ${alnum(31)}`)
  keyedCase('dropbox-api-token', 'DROPBOX_APP_SECRET', alnum(15), `dropbox key: ${alnum(14)}`)
  keyedCase('dropbox-long-lived-api-token', 'DROPBOX_TOKEN', `${alnum(11)}AAAAAAAAAA${url64(43).toLowerCase()}`, `dropbox key: ${alnum(11)}AAAAAAAAAA${alnum(40)}`)
  keyedCase('dropbox-short-lived-api-token', 'DROPBOX_TOKEN', `sl.${url64(135).toLowerCase()}`, `dropbox key: sl.${alnum(100)}`)
  keyedCase('etsy-access-token', 'ETSY_API_KEY', alnum(24), `etsy key: ${alnum(23)}`)
  keyedCase('facebook-secret', 'FACEBOOK_APP_SECRET', hex(32), `facebook pixel id: ${hex(32)}`)
  keyedCase('fastly-api-token', 'FASTLY_API_TOKEN', url64(32).toLowerCase(), `fastly service id: ${alnum(22)}`)
  keyedCase('finicity-api-token', 'FINICITY_APP_KEY', hex(32), `finicity customer id: ${hex(32)}`)
  keyedCase('finicity-client-secret', 'FINICITY_PARTNER_SECRET', alnum(20), `finicity key: ${alnum(19)}`)
  keyedCase('finnhub-access-token', 'FINNHUB_API_KEY', alnum(20), `finnhub key: ${alnum(19)}`)
  keyedCase('flickr-access-token', 'FLICKR_API_KEY', alnum(32), `flickr photo id: ${alnum(32)}`)
  keyedCase('freshbooks-access-token', 'FRESHBOOKS_TOKEN', alnum(64), `freshbooks key: ${alnum(63)}`)
  keyedCase('gitter-access-token', 'GITTER_TOKEN', alnum(40), `gitter room id: ${alnum(40)}`)
  keyedCase('gocardless-api-token', 'GOCARDLESS_ACCESS_TOKEN', `live_${url64(40)}`, `gocardless key: live_${alnum(39)}`)
  keyedCase('heroku-api-key', 'HEROKU_API_KEY', uuid(), `heroku app id: ${uuid()}`)
  keyedCase('hubspot-api-key', 'HUBSPOT_API_KEY', uuid(), `hubspot portal id: ${uuid()}`)
  keyedCase('intercom-api-key', 'INTERCOM_ACCESS_TOKEN', url64(60).toLowerCase(), `intercom key: ${alnum(59)}`)
  keyedCase('jfrog-api-key', 'JFROG_API_KEY', alnum(73), `jfrog key: ${alnum(72)}`)
  keyedCase('jfrog-identity-token', 'ARTIFACTORY_IDENTITY_TOKEN', alnum(64), `artifactory build sha256: ${hex(64)}`)
  keyedCase('kraken-access-token', 'KRAKEN_API_SECRET', b64(88), `kraken key: ${alnum(60)}`)
  keyedCase('kucoin-access-token', 'KUCOIN_API_KEY', hex(24), `kucoin order id: ${hex(24)}`)
  keyedCase('kucoin-secret-key', 'KUCOIN_API_SECRET', uuid(), `kucoin user id: ${uuid()}`)
  keyedCase('launchdarkly-access-token', 'LAUNCHDARKLY_ACCESS_TOKEN', url64(40).toLowerCase(), `launchdarkly key: ${alnum(39)}`)
  keyedCase('linear-client-secret', 'LINEAR_CLIENT_SECRET', hex(32), `linear issue id: ${hex(32)}`)
  keyedCase('linkedin-client-id', 'LINKEDIN_CLIENT_ID', alnum(14), `linkedin company id: ${alnum(14)}`)
  keyedCase('linkedin-client-secret', 'LINKEDIN_CLIENT_SECRET', alnum(16), `linkedin key: ${alnum(15)}`)
  keyedCase('lob-api-key', 'LOB_API_KEY', `live_${hex(35)}`, `lob key: live_${hex(34)}`)
  keyedCase('lob-pub-api-key', 'LOB_PUBLISHABLE_KEY', `test_pub_${hex(31)}`, `lob key: test_pub_${hex(30)}`)
  keyedCase('mailgun-private-api-token', 'MAILGUN_API_KEY', `key-${hex(32)}`, `mailgun key: key-${hex(31)}`)
  keyedCase('mailgun-pub-key', 'MAILGUN_PUBLIC_KEY', `pubkey-${hex(32)}`, `mailgun key: pubkey-${hex(31)}`)
  keyedCase('mailgun-signing-key', 'MAILGUN_WEBHOOK_SIGNING_KEY', `${hex(32)}-${hex(8)}-${hex(8)}`, `mailgun key: ${hex(32)}-${hex(8)}`)
  keyedCase('mapbox-api-token', 'MAPBOX_TOKEN', `sk.${alnum(60)}.${url64(22).toLowerCase()}`, `mapbox key: sk.${alnum(59)}.${alnum(22)}`)
  keyedCase('mattermost-access-token', 'MATTERMOST_TOKEN', alnum(26), `mattermost team id: ${alnum(26)}`)
  keyedCase('messagebird-api-token', 'MESSAGEBIRD_ACCESS_KEY', alnum(25), `messagebird key: ${alnum(24)}`)
  keyedCase('messagebird-client-id', 'MESSAGEBIRD_CLIENT_ID', uuid(), `messagebird workspace: ${uuid()}`)
  keyedCase('netlify-access-token', 'NETLIFY_AUTH_TOKEN', url64(43).toLowerCase(), `netlify site id: ${uuid()}`)
  keyedCase('new-relic-user-api-id', 'NEW_RELIC_USER_KEY', alnum(64), `newrelic key: ${alnum(63)}`)
  keyedCase('nytimes-access-token', 'NYTIMES_API_KEY', url64(32).toLowerCase(), `nytimes key: ${alnum(31)}`)
  keyedCase('okta-access-token', 'OKTA_API_TOKEN', `00${url64(40)}`, `okta key: 00${alnum(30)}`)
  keyedCase('plaid-client-id', 'PLAID_CLIENT_ID', alnum(24), `plaid item id: ${alnum(24)}`)
  keyedCase('plaid-secret-key', 'PLAID_SECRET', alnum(30), `plaid key: ${alnum(29)}`)
  keyedCase('privateai-api-token', 'PRIVATE_AI_API_KEY', alnum(32), `privateai key: ${alnum(31)}`)
  keyedCase('rapidapi-access-token', 'RAPIDAPI_KEY', url64(50).toLowerCase(), `rapidapi key: ${alnum(49)}`)
  keyedCase('sendbird-access-id', 'SENDBIRD_APP_ID', uuid(), `sendbird channel: ${uuid()}`)
  keyedCase('sendbird-access-token', 'SENDBIRD_API_TOKEN', hex(40), `sendbird commit: ${hex(40)}`)
  keyedCase('sentry-access-token', 'SENTRY_AUTH_TOKEN', hex(64), `sentry release: ${hex(64)}`)
  keyedCase('snyk-api-token', 'SNYK_TOKEN', uuid(), `snyk org: ${uuid()}`)
  keyedCase('squarespace-access-token', 'SQUARESPACE_API_KEY', uuid(), `squarespace site id: ${uuid()}`)
  keyedCase('sumologic-access-id', 'SUMO_ACCESS_ID', `su${alnum(12)}`, `sumo key: su${alnum(11)}`)
  keyedCase('sumologic-access-token', 'SUMO_ACCESS_KEY', mixed62(64), `sumo key: ${alnum(63)}`)
  keyedCase('travisci-access-token', 'TRAVIS_API_TOKEN', alnum(22), `travis build id: ${alnum(22)}`)
  keyedCase('twilio-auth-token', 'TWILIO_AUTH_TOKEN', hex(32), `twilio key: ${hex(31)}`)
  keyedCase('twitch-api-token', 'TWITCH_CLIENT_SECRET', alnum(30), `twitch channel id: ${alnum(30)}`)
  keyedCase('twitter-access-secret', 'TWITTER_ACCESS_SECRET', mixed62(45), `twitter key: ${alnum(44)}`)
  keyedCase('twitter-access-token', 'TWITTER_ACCESS_TOKEN', `${digits(19)}-${mixed62(30)}`, `twitter key: ${digits(19)}`)
  keyedCase('twitter-api-key', 'TWITTER_API_KEY', mixed62(25), `twitter key: ${alnum(24)}`)
  keyedCase('twitter-api-secret', 'TWITTER_API_SECRET', mixed62(50), `twitter key: ${alnum(49)}`)
  keyedCase('twitter-bearer-token', 'TWITTER_BEARER', `${'A'.repeat(22)}${mixed62(90)}`, `twitter key: ${'A'.repeat(22)}${alnum(40)}`)
  keyedCase('yandex-access-token', 'YANDEX_OAUTH', `t1.${url64(20)}.${url64(86)}`, `yandex key: t1.${alnum(20)}`)
  keyedCase('yandex-api-key', 'YANDEX_API_KEY', `AQVN${url64(36)}`, `yandex key: AQVN${alnum(20)}`)
  keyedCase('yandex-aws-access-token', 'YANDEX_ACCESS_KEY', `YC${url64(38)}`, `yandex key: YC${alnum(20)}`)
  keyedCase('zendesk-secret-key', 'ZENDESK_API_TOKEN', alnum(40), `zendesk ticket id: ${alnum(40)}`)

  // Shapes that need context of their own.
  const sid = `AC${hex(32)}`
  const auth = hex(32)
  c.push(fc('twilio-auth-token', `curl -X POST https://api.twilio.com/2010-04-01/Accounts/${sid}/Messages.json -u ${sid}:${auth}`, auth,
    `twilio account ${sid} sends from the +1 number`))
  const pw = mixed62(14)
  c.push(fc('curl-auth-user', `curl -u deploy:${pw} https://nexus.tally.internal/repository/`, pw, 'curl -u deploy:$NEXUS_PASSWORD https://nexus.tally.internal/repository/'))
  const k8s = btoa(`${mixed62(18)}`)
  c.push(fc('kubernetes-secret-yaml', `apiVersion: v1\nkind: Secret\nmetadata:\n  name: db\ntype: Opaque\ndata:\n  password: ${k8s}\n`, k8s,
    'apiVersion: v1\nkind: Secret\nmetadata:\n  name: db\ndata:\n  password: {{ .Values.dbPassword | b64enc }}\n'))
  const nuget = mixed62(16)
  c.push(fc('nuget-config-password', `<add key="ClearTextPassword" value="${nuget}" />`, nuget, '<add key="ClearTextPassword" value="%NUGET_PASSWORD%" />'))
  return c
})()

// Formats the secretlint preset covers (pinned 12.0.0): the gate reports secretlint's rule id.
const SECRETLINT_FORMAT_CASES: FormatCase[] = (() => {
  const c: FormatCase[] = []
  const add = (name: string, prefix: string, body: string, near: string) =>
    c.push(fc(`@secretlint/secretlint-rule-${name}`, `saw ${prefix}${body} in the job log`, body, `saw ${near} in the job log`))
  const dapi = hex(32)
  add('databricks', 'dapi', dapi, `dapi${dapi.slice(1)}`)
  const shp = mixed62(32)
  add('shopify', 'shpat_', shp, `shpat_${shp.slice(1)}`)
  const lin = mixed62(40)
  add('linear', 'lin_api_', lin, `lin_api_${lin.slice(0, 20)}`)
  const hvs = url64(95)
  add('hashicorp-vault', 'hvs.', hvs, `hvs.${hvs.slice(0, 60)}`)
  const hf = rand(LOWER + UPPER, 34)
  add('huggingface', 'hf_', hf, `hf_${hf.slice(1)}`)
  const glsa = `${mixed62(32)}_${hex(8)}`
  add('grafana', 'glsa_', glsa, `glsa_${glsa.slice(1)}`)
  const sg = `${url64(22)}.${url64(43)}`
  add('sendgrid', 'SG.', sg, `SG.${sg.slice(2)}`)
  const glpat = url64(20)
  add('gitlab', 'glpat-', glpat, `glpat-${glpat.slice(2)}`)
  const ntn = `${digits(11)}${mixed62(35)}`
  add('notion', 'ntn_', ntn, `ntn_${ntn.slice(2)}`)
  return c
})()

describe('scanSecrets: provider formats', () => {
  it('covers every provider rule with a positive and a near miss', async () => {
    const {PROVIDER_RULES} = await import('../../src/gates/secret-providers.js')
    const tested = new Set(FORMAT_CASES.map((c) => c.rule))
    expect(PROVIDER_RULES.map((r) => r.id).filter((id) => !tested.has(id))).toEqual([])
  })

  for (const c of [...FORMAT_CASES, ...SECRETLINT_FORMAT_CASES]) {
    it(`flags ${c.rule} without echoing it`, async () => {
      const finding = await scanSecrets(c.text)
      expect(finding?.rule).toBe(c.rule)
      expect(finding!.message).toContain(`rule ${c.rule}`)
      expectSafeMessage(finding!, c.secret)
    })
    it(`passes a near miss for ${c.rule}: ${c.near.slice(0, 60)}`, async () => {
      expect(await scanSecrets(c.near)).toBeNull()
    })
  }

  it('names the kind and what to do instead', async () => {
    const pypi = FORMAT_CASES.find((c) => c.rule === 'pypi-upload-token')!
    expect((await scanSecrets(pypi.text))!.message).toMatch(/a PyPI upload token .*remove the secret and store a reference/)
    const dapi = SECRETLINT_FORMAT_CASES.find((c) => c.rule.endsWith('databricks'))!
    expect((await scanSecrets(dapi.text))!.message).toMatch(/a Databricks access token matched by secretlint's databricks rule/)
  })
})
