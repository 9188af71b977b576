import {describe, expect, it} from 'vitest'
import {scanSecrets, type SecretFinding} from '../../../src/engines/gates/secrets.js'

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
  'Run npm run build before vitest; the CLI tests spawn dist/cli/main.js',
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
  'src/engines/gates/secrets.ts exports scanSecrets; see docs/architecture.md',
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
  add('slack-token', (s) => [`legacy workspace token xoxr-${s}`, `legacy workspace token xoxr-${s.slice(0, 7)}`], mixed62(40))
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
  add('sendgrid-api-token', (s) => [`sendgrid SG.${s}`, `sendgrid SG.${s.slice(2)}`], `${url64(22)}.${url64(43)}`)
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
  keyedCase('dropbox-long-lived-api-token', 'DROPBOX_TOKEN', `${alnum(11)}AAAAAAAAAA${url64(43).toLowerCase()}`, `dropbox file id: ${alnum(11)}AAAAAAAAAA${alnum(43)}`)
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
  const glpat = url64(20)
  add('gitlab', 'glpat-', glpat, `glpat-${glpat.slice(2)}`)
  const ntn = `${digits(11)}${mixed62(35)}`
  add('notion', 'ntn_', ntn, `ntn_${ntn.slice(2)}`)
  return c
})()

describe('scanSecrets: provider formats', () => {
  it('covers every provider rule with a positive and a near miss', async () => {
    const {PROVIDER_RULES} = await import('../../../src/engines/gates/secret-providers.js')
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

// --- plain password assignments and documentation examples (issue 19) ----------------------------

describe('scanSecrets: password assignments in config files', () => {
  const pw = 'correcthorse'
  const CAUGHT: [string, string][] = [
    ['properties with spaces', `db.host = db.internal\ndb.password = ${pw}\ndb.pool = 10`],
    ['properties, tight', `db.password=${'Xk2pQ9' + 'mWv'}`],
    ['Spring YAML', `spring:\n  datasource:\n    url: jdbc:postgresql://db/app\nspring.datasource.password: ${pw}`],
    ['nested Spring YAML', `spring:\n  datasource:\n    username: app\n    password: ${pw}\n`],
    ['ini file', `[database]\nuser = app\npassword = ${pw}`],
    ['env file, upper case', `PGPASSWORD = ${pw}`],
    ['env file, export', `export DB_PASSWORD=${pw}`],
    ['YAML list item', `env:\n  - MYSQL_ROOT_PASSWORD: ${pw}`],
    ['quoted connection string', `ConnectionStrings__Db="Server=db;Database=app;User Id=app;Password=${'Str0ng' + 'Pass'};"`],
    ['Maven settings.xml', `<server><id>nexus</id><username>deploy</username><password>${'Dep10y' + 'Pass'}</password></server>`],
    ['XML token element', `<apiToken>${'Zq8Xk2Lm9' + 'Pw4Rt7Vb3'}</apiToken>`],
    ['PASSWORD=… with comment', `PASSWORD=${pw} # rotated in March`],
  ]
  for (const [name, text] of CAUGHT) {
    it(`flags a password in a ${name}`, async () => {
      expect((await scanSecrets(text))?.rule).toMatch(/^(?:password|secret)-assignment$/)
    })
  }

  const PASSED: [string, string][] = [
    ['placeholder word', 'db.password = changeme'],
    ['env reference', 'spring.datasource.password: ${DB_PASSWORD}'],
    ['angle-bracket placeholder', 'db.password = <password>'],
    ['stars', 'db.password = ****'],
    ['code variable (camelCase)', 'db.password = userInput'],
    ['code variable (snake_case)', 'DB_PASSWORD = user_input'],
    ['prose after the value', 'db.password = rotated every quarter by the platform team'],
    ['prose key without dots', 'password = userInput'],
    ['prose line', 'Password: rotated monthly by the platform team'],
    ['markdown list item', '- Password: rotated'],
    ['Maven encrypted password', '<password>{COQLCE6DU6GtcS5P=}</password>'],
    ['Maven env reference', '<password>${env.NEXUS_PASSWORD}</password>'],
    ['quoted connection string with a reference', 'ConnectionStrings__Db="Server=db;User Id=app;Password=${DB_PASSWORD}"'],
    ['Azurite connection string', `DefaultEndpointsProtocol=http;AccountName=devstoreaccount1;AccountKey=${AZURITE_KEY}`],
    ['Basic example user:pass', 'curl -H "Authorization: Basic dXNlcjpwYXNz" http://localhost:8080/'],
    ['RFC 7617 example', 'Authorization: Basic YWxhZGRpbjpvcGVuc2VzYW1l'],
    ['Basic with user as password', `Authorization: Basic ${btoa('admin:admin')}`],
    ['curl example in backticks', 'run `curl -u user:password` against the local stack'],
  ]
  for (const [name, text] of PASSED) {
    it(`passes a ${name}`, async () => {
      expect(await scanSecrets(text)).toBeNull()
    })
  }
})

// --- detection and false-positive corpora (issue 19) ------------------------------------------

/**
 * Credentials as they turn up in notes: env files, YAML, JSON, code, shell history, URLs and prose,
 * across providers and plain passwords. Written for this test beside the rules, so it measures
 * coverage of the shapes named in issue 19 rather than being a held-out set.
 */
const DETECTION_CORPUS: string[] = [
  // Plain passwords.
  'db.password=' + mixed62(12),
  'db.password = ' + 'wombatcheese',
  'spring.datasource.password: ' + mixed62(10),
  'PASSWORD=' + 'bluefinchtower',
  'POSTGRES_PASSWORD: "' + mixed62(16) + '"',
  'mysql_password = ' + alnum(12),
  '{"username": "svc", "password": "' + mixed62(14) + '"}',
  'redis.conf has requirepass set; REDIS_PASSWORD=' + mixed62(20),
  'the staging admin password is "' + mixed62(12) + '"',
  'mytool login --password ' + mixed62(12),
  '<password>' + mixed62(14) + '</password>',
  'smtp.password=' + alnum(16),
  'export PGPASSWORD=' + mixed62(12),
  'ldap:\n  bind_password: ' + mixed62(14),
  'Server=tcp:tally.database.windows.net,1433;Database=app;User ID=app;Password=' + mixed62(16) + ';Encrypt=true',
  // Connection strings and URLs.
  'postgres://app:' + mixed62(12) + '@db.internal:5432/app',
  'DATABASE_URL=mysql://root:' + mixed62(10) + '@127.0.0.1:3306/app',
  'amqps://svc:' + mixed62(14) + '@rabbit.internal/vhost',
  'https://deploy:' + mixed62(16) + '@nexus.tally.internal/repository/npm/',
  'mongodb+srv://reader:' + mixed62(12) + '@cluster0.ab1cd.mongodb.net/app',
  // Cloud providers.
  'aws_access_key_id = AKIA' + upperAlnum(16),
  'aws_secret_access_key = ' + b64(40),
  'DefaultEndpointsProtocol=https;AccountName=tallyprod;AccountKey=' + b64(86) + '==;EndpointSuffix=core.windows.net',
  'AZURE_STORAGE_CONNECTION_STRING="DefaultEndpointsProtocol=https;AccountName=x;AccountKey=' + b64(86) + '=="',
  'Endpoint=sb://tally.servicebus.windows.net/;SharedAccessKeyName=send;SharedAccessKey=' + b64(43) + '=',
  'blob url https://tally.blob.core.windows.net/exports/a.csv?sv=2023-01-03&st=2026-01-01&se=2026-02-01&sr=b&sp=r&sig=' + mixed62(44) + '%3D',
  'AZURE_CLIENT_SECRET=' + mixed62(3) + '8Q~' + url64(34),
  'gcp key: AIza' + url64(35),
  'ALIBABA_CLOUD_ACCESS_KEY_ID=LTAI' + mixed62(20),
  'DIGITALOCEAN_TOKEN=dop_v1_' + hex(64),
  'doctl auth init -t dop_v1_' + hex(64),
  'oauth refresh dor_v1_' + hex(64),
  'HEROKU_API_KEY=' + uuid(),
  'heroku authorizations:create gave HRKU-AA' + url64(58),
  'fly tokens create deploy -> fo1_' + url64(43),
  'CLOUDFLARE_API_TOKEN=' + url64(40).toLowerCase(),
  'netlify: NETLIFY_AUTH_TOKEN=' + url64(43).toLowerCase(),
  'VERCEL_TOKEN=' + mixed62(24),
  'pulumi login with PULUMI_ACCESS_TOKEN=pul-' + hex(40),
  'TF_TOKEN_app_terraform_io=' + alnum(14) + '.atlasv1.' + url64(67),
  'VAULT_TOKEN=hvs.' + url64(95),
  'vault login s.' + mixed62(24),
  'pscale connect with pscale_pw_' + url64(43),
  'DATABRICKS_TOKEN=dapi' + hex(32),
  'databricks workspace token dapi' + hex(32) + '-2',
  'SCALINGO_API_TOKEN=tk-us-' + url64(48),
  // Source hosting and CI.
  'git remote set-url origin https://oauth2:glpat-' + url64(20) + '@gitlab.com/tally/app.git',
  'GITLAB_RUNNER_TOKEN=glrt-' + url64(20),
  'trigger with glptt-' + hex(40),
  'ghp_' + mixed62(36),
  'GITHUB_TOKEN=github_pat_' + mixed62(22) + '_' + mixed62(59),
  'NPM_TOKEN=npm_' + mixed62(36),
  '//registry.npmjs.org/:_authToken=npm_' + mixed62(36),
  'twine upload -u __token__ -p pypi-AgEIcHlwaS5vcmc' + url64(150),
  'test.pypi token pypi-AgENdGVzdC5weXBpLm9yZw' + url64(120),
  'gem push with GEM_HOST_API_KEY=rubygems_' + hex(48),
  'CLOJARS_PASSWORD=CLOJARS_' + alnum(60),
  'CODECOV_TOKEN=' + uuid(),
  'SONAR_TOKEN=squ_' + hex(40),
  'SNYK_TOKEN=' + uuid(),
  'DOCKERHUB_TOKEN=dckr_pat_' + url64(27),
  'ARTIFACTORY_API_KEY=AKCp' + mixed62(69),
  'SOURCEGRAPH_TOKEN=sgp_' + hex(40),
  'PREFECT_API_KEY=pnu_' + mixed62(36),
  'infracost configure set api_key ico-' + mixed62(32),
  'DOPPLER_TOKEN=dp.st.prd.' + mixed62(43),
  'doppler personal token dp.pt.' + mixed62(43),
  'POSTMAN_API_KEY=PMAK-' + hex(24) + '-' + hex(34),
  // Messaging, email and payments.
  'TWILIO_API_KEY=SK' + hex(32),
  'TWILIO_ACCOUNT_SID=AC' + hex(32) + '\nTWILIO_AUTH_TOKEN=' + hex(32),
  'curl -u AC' + hex(32) + ':' + hex(32) + ' https://api.twilio.com/2010-04-01/Accounts.json',
  'TELEGRAM_BOT_TOKEN=' + digits(10) + ':AA' + url64(33),
  'bot api https://api.telegram.org/bot' + digits(10) + ':AA' + url64(33) + '/getMe',
  'DISCORD_BOT_TOKEN=M' + mixed62(25) + '.' + url64(6) + '.' + url64(38),
  'alerts go to https://discord.com/api/webhooks/' + digits(19) + '/' + url64(68),
  'SLACK_BOT_TOKEN=xoxb-' + digits(12) + '-' + digits(13) + '-' + mixed62(24),
  'https://hooks.slack.com/services/T' + upperAlnum(8) + '/B' + upperAlnum(10) + '/' + mixed62(24),
  'teams https://tally.webhook.office.com/webhookb2/' + uuid() + '@' + uuid() + '/IncomingWebhook/' + alnum(32) + '/' + uuid(),
  'SENDGRID_API_KEY=SG.' + url64(22) + '.' + url64(43),
  'MAILGUN_API_KEY=key-' + hex(32),
  'mailchimp key ' + hex(32) + '-us21',
  'BREVO_API_KEY=xkeysib-' + hex(64) + '-' + mixed62(16),
  'STRIPE_SECRET_KEY=sk_live_' + mixed62(24),
  'stripe webhook secret whsec_' + mixed62(32),
  'SQUARE_ACCESS_TOKEN=EAAA' + url64(60),
  'square app secret sq0csp-' + url64(43),
  'PLAID_ACCESS_TOKEN=access-production-' + uuid(),
  'SHIPPO_API_TOKEN=shippo_live_' + hex(40),
  'EASYPOST_API_KEY=EZAK' + mixed62(54),
  'FLW_SECRET_KEY=FLWSECK_TEST-' + rand('abcdefgh0123456789', 32) + '-X',
  'GOCARDLESS_ACCESS_TOKEN=live_' + url64(40),
  'shopify admin token shpat_' + hex(32),
  'SHOPIFY_API_SECRET=shpss_' + hex(32),
  // SaaS and observability.
  'ATLASSIAN_API_TOKEN=ATATT3' + url64(186),
  'JIRA_API_TOKEN=' + alnum(20) + hex(4),
  'OKTA_API_TOKEN=00' + url64(40),
  'LINEAR_API_KEY=lin_api_' + mixed62(40),
  'NOTION_TOKEN=ntn_' + digits(11) + mixed62(35),
  'DD_API_KEY=' + hex(32),
  'NEW_RELIC_API_KEY=NRAK-' + upperAlnum(27),
  'NEW_RELIC_LICENSE_KEY=' + hex(36) + 'NRAL',
  'SENTRY_AUTH_TOKEN=sntryu_' + hex(64),
  'GRAFANA_TOKEN=glsa_' + mixed62(32) + '_' + hex(8),
  'grafana cloud glc_' + b64(48),
  'DT_API_TOKEN=dt0c01.' + upperAlnum(24) + '.' + mixed62(64),
  'HUGGING_FACE_HUB_TOKEN=hf_' + rand(LOWER + UPPER, 34),
  'OPENAI_API_KEY=sk-proj-' + url64(48),
  'ANTHROPIC_API_KEY=sk-ant-api03-' + url64(93) + 'AA',
  'GROQ_API_KEY=gsk_' + mixed62(52),
  'PERPLEXITY_API_KEY=pplx-' + mixed62(48),
  'age secret AGE-SECRET-KEY-1' + rand('QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L', 58),
  'HUBSPOT_ACCESS_TOKEN=pat-na1-' + uuid(),
  'ZENDESK_API_TOKEN=' + alnum(40),
  'LAUNCHDARKLY_SDK_KEY=' + url64(40).toLowerCase(),
  'TYPEFORM_TOKEN=tfp_' + url64(59),
  'READme key rdme_' + alnum(70),
  'FRAMEIO_TOKEN=fio-u-' + url64(64),
  'CONTENTFUL_MANAGEMENT_TOKEN=CFPAT-' + url64(43),
  // Keys and tokens of any provider.
  '-----BEGIN EC PRIVATE KEY-----\nMHcCAQEEI' + b64(60) + '\n-----END EC PRIVATE KEY-----',
  'Authorization: Bearer ' + mixed62(40),
  'session ' + ['eyJhbGciOiJIUzI1NiJ9', 'eyJzdWIiOiIxMjM0NTY3ODkwIn0', url64(43)].join('.'),
  'apiVersion: v1\nkind: Secret\ndata:\n  token: ' + btoa(mixed62(24)),
  'client_secret: "' + mixed62(32) + '"',
  'SESSION_SECRET=' + mixed62(40),
]

/**
 * Ordinary developer notes, many on purpose near the rules' shapes: digests, ids, placeholders,
 * documentation examples, provider names next to identifiers.
 */
const ORDINARY_CORPUS: string[] = [
  // Git, hashes and digests.
  'Commit 9fceb02d0ae598e95dc970b74767f19372d61af8 reverted the cache change',
  'git bisect points at a94a8fe5ccb19ba61c4c0873d391e987982fbbd3',
  'cherry-pick 3f786850e387550fdab836ed7e6dc881de23001b onto release/2.4',
  'short sha e83c516 is the last green build',
  'git tag v2.4.1 on 2fd4e1c67a2d28fced849ee1bb76e7391b93eb12',
  'Merge pull request #482 from tally/fix-rounding (da39a3ee5e6b4b0d3255bfef95601890afd80709)',
  'md5 of the fixture is d41d8cd98f00b204e9800998ecf8427e',
  'sha256sum dist/app.tar.gz: e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
  'image: registry.tally.io/api@sha256:2c26b46b68ffc68ff99b453c1d30413413422d706483bfa0f98a5e886266e7ae',
  'docker pull node@sha256:fcde2b2edba56bf408601fb721fe9b5c338d10ee429ea04fae5511b68fbf8fb9',
  '"integrity": "sha512-z4PhNX7vuL3xVChQ1m2AB9Yg5AULVxXcg/SpIdNs6c5H0NE8XYXysP+DGNKHfuwvY7kxvUdBeoGlODJ6+SfaPg=="',
  'yarn.lock: checksum 10c0/4f8a7c1ba5ee2fd0ba8b5ea70e3a9c43b2e4a5f7',
  'pnpm-lock.yaml resolution: {integrity: sha512-nT8oTgjtQk0Z8EMDCv5L2WEmUR3dRtNUZ8Kj3SsE7ja5d2GTkyhJOl5yCg5r4u0SHxJ4W6XJ1kLhmeSdbLh3lQ==}',
  'Cargo.lock checksum = "b3f1c1b0c1f06ffa8cfc8dc5d9e2dd7e2d38d0b1a37f7b5c1a7f3c0b8c65f0d2"',
  'go.sum: golang.org/x/net v0.25.0 h1:d/OCCoBEUq33pjydKrGQhw7IlUPI2Oylr+8qLx49kac=',
  'ETag "33a64df551425fcc55e4d42a148795d9f25f89d4" means the CDN served a stale bundle',
  // UUIDs and ids.
  'tenant 123e4567-e89b-12d3-a456-426614174000 is the demo org',
  'request id 7c9e6679-7425-40de-944b-e07fc1f90ae7 in the gateway logs',
  'heroku app id: 01234567-89ab-4cde-8f01-23456789abcd for tally-staging',
  'heroku releases: v123 deployed by ci@tally.io',
  'HEROKU_APP_NAME=tally-staging',
  'sentry release: 9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08',
  'Sentry issue TALLY-API-3F2 spikes after deploys',
  'SENTRY_DSN is set per environment in Doppler',
  'discord channel id: 1098765432109876543 gets the deploy alerts',
  'Discord guild 871234509876543210, role @oncall',
  'Datadog monitor 12345678 alerts on p99 over 800ms',
  'datadog dashboard: abc-9xk-2mz shows the queue depth',
  'DD_SITE=datadoghq.eu and DD_ENV=staging',
  'twilio account AC2a1f7d4e9b8c3f0a6e5d4c3b2a1f0e9d sends from +15551230000',
  'Twilio messaging service MG9f8e7d6c5b4a39281706f5e4d3c2b1a0 handles the reminders',
  'TWILIO_AUTH_TOKEN is in 1Password under Tally / Twilio',
  'Telegram bot @tally_alerts_bot posts deploy notices to chat -1009876543210',
  'telegram chat id: -1009876543210',
  'cloudflare zone id: 023e105f4ecef8ad9ca31a8372d0c353',
  'cloudflare account id 353c8e1baf3e8cf5d8c0f4b94d8b2f1e',
  'mailchimp list id is 4f2a9c01be',
  'MAILGUN_DOMAIN=mg.tally.io',
  'jira ticket TALLY-1234 tracks the flaky test',
  'Confluence page 123456789 has the runbook',
  'okta group: engineering-admins; okta app: tally-web',
  'stripe customer cus_NffrFeUfNV2Hib and price price_1MoBy5LkdIwHu7ixZhnattbh',
  'Stripe test card 4242 4242 4242 4242, any CVC',
  'stripe publishable key lives in NEXT_PUBLIC_STRIPE_KEY',
  'shopify store tally-dev.myshopify.com, theme id 123456789012',
  'DigitalOcean droplet 123456789 in fra1, volume vol-fra1-01',
  'Databricks cluster 0412-221233-fxy9k3m runs the nightly job',
  'databricks job id: 987654321098765',
  'PyPI project tally-sdk 1.4.2 is published through trusted publishing, no token',
  'pypi-AgE tokens are scoped per project; ours lives in GitHub secrets',
  'Azure storage account tallyprodstore, container invoices; the key is in Key Vault',
  'UseDevelopmentStorage=true for local Azure functions',
  'azure subscription 6f1b0c3e-2d4a-4b5c-9e8f-7a6b5c4d3e2f, resource group rg-tally-prod',
  'Application (client) ID: 9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d in the app registration',
  'linear issue ENG-812 has the repro',
  'algolia app id: LATENCY42, index products_prod',
  'newrelic app id 123456789 and account 1234567',
  'facebook pixel id 1234567890123456 on the marketing site',
  'confluent cluster: lkc-9xk2mz, topic invoices.v1',
  'vault path secret/data/staging/db, role tally-api, TTL 1h',
  'hvs. tokens expire after 32 days; renew with vault token renew',
  'Grafana dashboard https://grafana.tally.internal/d/abc123/api-latency?orgId=1&from=now-6h',
  'snyk org: tally-platform, project api',
  'sumo collector sumo-prod-01 ships the nginx logs',
  'travis-ci.org was retired; we moved to GitHub Actions',
  'zendesk ticket 48213 from the customer',
  'kucoin and kraken integrations are out of scope',
  'asana project id: 1204567890123456',
  'Plaid item id ZxK9mQ2pLw4Rt7Vb3Nc6Jd1H in the sandbox',
  // Placeholders and documentation examples.
  'AWS docs use AKIAIOSFODNN7EXAMPLE and wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
  'aws_secret_access_key = wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
  'curl -H "Authorization: Basic dXNlcjpwYXNz" http://localhost:8080/health',
  'MDN: Authorization: Basic YWxhZGRpbjpvcGVuc2VzYW1l',
  'Authorization: Bearer <token>',
  'Authorization: Bearer $GITHUB_TOKEN',
  'password=changeme in .env.example',
  'DB_PASSWORD=${DB_PASSWORD}',
  'spring.datasource.password=${SPRING_DATASOURCE_PASSWORD}',
  'db.password = <password>',
  'password: ****',
  'api_key: YOUR_API_KEY',
  'TWILIO_AUTH_TOKEN=your_auth_token',
  'STRIPE_SECRET_KEY=sk_test_xxxxxxxxxxxxxxxxxxxxxxxx',
  'docs show ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx as a token',
  'dop_v1_ followed by 64 hex characters is a DigitalOcean token',
  'HEROKU_API_KEY=12345678-ABCD-ABCD-ABCD-1234567890AB',
  'token: <paste token here>',
  'secret: {{ .Values.secret }}',
  'password: !vault |',
  'MYSQL_ROOT_PASSWORD: example',
  'POSTGRES_PASSWORD=postgres for the docker compose stack',
  'amqp://guest:guest@localhost:5672 in docker-compose',
  'postgres://postgres:postgres@localhost:5432/app (docker default)',
  'redis://localhost:6379/0',
  'DATABASE_URL=postgres://${DB_USER}:${DB_PASSWORD}@db:5432/app',
  'curl -u $CI_USER:$CI_TOKEN https://nexus.tally.internal/',
  'curl -u admin:admin http://localhost:9000 for the local sonar',
  'kubectl create secret generic db --from-literal=password=$DB_PASSWORD',
  'apiVersion: v1\nkind: Secret\nmetadata:\n  name: db\ndata:\n  password: {{ .Values.dbPassword | b64enc }}',
  'k8s: secretName: db-creds-v2, kind: Secret, type: Opaque',
  '<add key="ClearTextPassword" value="%NUGET_PASSWORD%" />',
  '<password>${env.NEXUS_PASSWORD}</password> in settings.xml',
  'PEM files start with -----BEGIN PRIVATE KEY----- and live outside the repo',
  'JWTs start with eyJhbGciOiJIUzI1NiJ9 for HS256',
  'SharedAccessKeyName=RootManageSharedAccessKey is the default policy name',
  'AccountName=devstoreaccount1 is Azurite\'s account',
  // Code.
  'const pixel = "R0lGODlhAQABAIAAAP///wAAACH5BAEAAAAALAAAAAABAAEAAAICRAEAOw=="',
  'const favicon = "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAABAAAAAQCAYAAAAf8/9hAAAAAXNSR0IArs4c6QAAADhJREFUOE9jZKAQMFKon2HUAIbRMGAYDQOG0TBgGA0DhtEwYBgNA4bRMGAYDQOG0TBgGA0DhlEDAAQAAP//"',
  'btoa("hello world") === "aGVsbG8gd29ybGQ="',
  'const password = req.body.password',
  'password = userInput',
  'const token = process.env.GITHUB_TOKEN!',
  'token = os.environ["GITHUB_TOKEN"]',
  'apiKey: string | undefined in the config type',
  'def hash_password(password: str) -> str: return bcrypt.hashpw(password, bcrypt.gensalt())',
  'if (token === undefined) throw new Error("missing token")',
  'fetch(url, {headers: {Authorization: `Bearer ${token}`}})',
  'const re = /^sk_(live|test)_[A-Za-z0-9]{24}$/ validates keys',
  'crypto.randomBytes(32).toString("hex") generates the session secret',
  'Object.freeze({id: "a1b2c3", kind: "invoice"})',
  'x-request-id: 4bf92f3577b34da6a3ce929d0e0e4736',
  'traceparent: 00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01',
  'SELECT id, email FROM users WHERE api_key_hash = $1',
  'INSERT INTO tokens (id, hash) VALUES ($1, $2)',
  'color: #1e90ff; background: rgba(0, 0, 0, .5); border-color: #FF6347',
  '--tally-primary: #4f46e5; --tally-accent: hsl(160 84% 39%)',
  'font-family: "Inter var", system-ui, -apple-system, sans-serif',
  // Paths, URLs, versions, tickets.
  'node_modules/.pnpm/@types+node@20.19.43/node_modules/@types/node/index.d.ts',
  'C:\\Users\\dev\\AppData\\Roaming\\npm\\node_modules',
  '/var/lib/postgresql/16/main/pg_wal',
  '~/.config/tally/credentials.json holds the CLI login; never commit it',
  'https://github.com/tally/app/pull/482#issuecomment-1234567890',
  'https://tally.atlassian.net/browse/TALLY-1234',
  'https://console.cloud.google.com/run/detail/europe-west1/api/revisions?project=tally-prod-381214',
  'https://portal.azure.com/#@tally.onmicrosoft.com/resource/subscriptions/6f1b0c3e-2d4a-4b5c-9e8f-7a6b5c4d3e2f/overview',
  'https://s3.eu-west-1.amazonaws.com/tally-exports/2026/01/report.csv',
  'semver 1.4.2-rc.1+build.5 is the release candidate',
  'node 20.19.0, pnpm 9.1.2, typescript 5.6.3, vitest 4.1.12',
  'Python 3.12.4; pip install tally-sdk==1.4.2',
  'ticket OPS-2231, incident INC-0042, PR #482',
  'ARN arn:aws:iam::123456789012:role/tally-deploy',
  'arn:aws:secretsmanager:eu-west-1:123456789012:secret:tally/db-AbCdEf',
  'S3 bucket tally-prod-exports-9f2c in eu-west-1',
  'ECR repo 123456789012.dkr.ecr.eu-west-1.amazonaws.com/tally-api',
  'GCP project tally-prod-381214, service account deploy@tally-prod-381214.iam.gserviceaccount.com',
  'The cron is 0 3 * * 1-5 (UTC)',
  'IPv6 2001:db8:85a3::8a2e:370:7334 is documentation space',
  'MAC address 00:1A:2B:3C:4D:5E on the test device',
  // Public keys and certificates are not secrets.
  'deploy key: ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl ci@tally',
  'authorized_keys: ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQC7vbqajDhA5dkn3Y2xkG6fGXmCzJ5bJx8m3N2A9q0rD4ktYp0wKZ dev@laptop',
  '-----BEGIN CERTIFICATE-----\nMIIDdzCCAl+gAwIBAgIEAgAAuTANBgkqhkiG9w0BAQUFADBaMQswCQYDVQQGEwJJ\n-----END CERTIFICATE-----',
  '-----BEGIN PUBLIC KEY-----\nMFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEq3FQ7w1y2Z9pX0mK4rT7vB3nC6jD1hF5gS0t\n-----END PUBLIC KEY-----',
  'GPG key fingerprint 4AEE 18F8 3AFD EB23 B5B8 4F3E 2C37 1A5B 9D0E 7F21',
  'age public key age1ql3z7hjy54pw3hyww5ayyfg7zqgvc7w3j2elw8zmrj2kg5sfn9aqmcac8p',
  // Exports and tables that name providers beside identifiers.
  'heroku apps export: name,region,stack\ntally-api,eu,heroku-24',
  '| service | id |\n| datadog | 12345678 |\n| sentry | 4504123456789504 |',
  'Sentry project id 4504123456789504, org slug tally',
  'twilio phone number SID PN2a1f7d4e9b8c3f0a6e5d4c3b2a1f0e9d',
  'discord snowflake 175928847299117063 is the bot user',
  // Dotted names, long identifiers and numbers.
  'Microsoft.Extensions.DependencyInjection.Abstractions 8.0.1',
  'org.springframework.boot:spring-boot-starter-data-jpa:3.3.0',
  'OrderProcessingServiceImplementation.handleInvoiceCreated.afterCommit runs the outbox',
  'java.lang.IllegalStateException at com.tally.billing.InvoiceService.finalize(InvoiceService.java:142)',
  'stack: at Object.<anonymous> (/app/node_modules/pg/lib/client.js:526:17)',
  'timestamp 1718035200000 (ms) is 2024-06-10T16:00:00Z',
  'order 1718035200:Adjusted totals after the credit note was applied to invoice',
  'Phone +1 (555) 123-0000 is the test number',
  'sessionStorage.setItem("tally.lastView", "invoices")',
  // Prose.
  'Rotate the Stripe keys every 90 days; the runbook is in Confluence',
  'The Heroku API key moved to Doppler in March',
  'Ask platform for a Databricks PAT if the job fails with 403',
  'Never paste tokens into Slack; use the 1Password share link',
  'Password reset emails go through SendGrid template d-1a2b3c4d5e6f',
  'The Twilio auth token was rotated after the incident',
  'Use the GitLab deploy token from CI variables, not a personal token',
  'Telegram bot tokens look like 123456:ABC-DEF..., ours lives in Vault',
  'The PyPI upload token is scoped to tally-sdk only',
  'Azure SAS URLs expire after 1h; regenerate with az storage blob generate-sas',
  'Basic authentication is disabled in production',
  'Bearer tokens are validated in src/auth/middleware.ts',
  'max_tokens=4096 for the summarizer; temperature: 0.2',
  'encoding token: cl100k_base',
  'token budget: 600 tokens for the session context',
  'passwordless login via magic links since v2',
  'The secret scanner rejects memories with credentials',
  'API keys are hashed with sha256 before storage (api_key_hash column)',
  'the password field is optional for SSO users',
  'set DB_PASSWORD in .env before running migrations',
  'password: see the 1Password entry "staging db"',
  'okta SSO: click "Sign in with Okta", MFA required',
  'Sumo Logic was replaced by Datadog in 2025',
  'The Mailgun webhook signs requests; verify with the signing key from Doppler',
  'DigitalOcean Spaces is S3-compatible; endpoint fra1.digitaloceanspaces.com',
]

describe('scanSecrets: corpora', () => {
  it('catches at least 95% of the detection corpus', async () => {
    expect(DETECTION_CORPUS.length).toBeGreaterThanOrEqual(100)
    const missed: string[] = []
    for (const text of DETECTION_CORPUS) if (!(await scanSecrets(text))) missed.push(text)
    const caught = DETECTION_CORPUS.length - missed.length
    console.info(`detection: ${caught} of ${DETECTION_CORPUS.length} caught${missed.map((t) => `\n  missed: ${t.slice(0, 40)}...`).join('')}`)
    expect({missed, rate: caught / DETECTION_CORPUS.length >= 0.95}).toEqual({missed, rate: true})
  })

  it('flags at most 5% of ordinary notes', async () => {
    expect(ORDINARY_CORPUS.length).toBeGreaterThanOrEqual(150)
    const flagged: string[] = []
    for (const text of ORDINARY_CORPUS) {
      const finding = await scanSecrets(text)
      if (finding) flagged.push(`${finding.rule}: ${text}`)
    }
    console.info(`false positives: ${flagged.length} of ${ORDINARY_CORPUS.length}${flagged.map((t) => `\n  ${t}`).join('')}`)
    expect({flagged, rate: flagged.length / ORDINARY_CORPUS.length <= 0.05}).toEqual({flagged, rate: true})
  })

  it('passes every memory of the recall evaluation set', async () => {
    const {readFileSync} = await import('node:fs')
    const path = new URL('../../bench/recall/data/memories.json', import.meta.url)
    const memories = JSON.parse(readFileSync(path, 'utf8')) as {content: string}[]
    expect(memories.length).toBe(350)
    const flagged: string[] = []
    for (const m of memories) if (await scanSecrets(m.content)) flagged.push(m.content)
    expect(flagged).toEqual([])
  })
})

// --- issue 28: passwords where no key names them, hidden and look-alike characters, tags ---------

describe('scanSecrets: command-line, .netrc, .pgpass and prose passwords (issue 28)', () => {
  // Built at run time: a password-shaped value, one of letters only, and a token.
  const pw = 'Xk2p' + 'Q9mW' + 'v7'
  const letters = 'zqkvm' + 'wplrt'
  const token = 'ghp_' + b62
  const CAUGHT: Array<[string, string, string]> = [
    ['PGPASSWORD= mid-line before psql', `then run PGPASSWORD=${pw} psql -h db -U app to check`, 'password-assignment'],
    ['MYSQL_PWD= before mysql', `MYSQL_PWD=${pw} mysql -u root app`, 'password-assignment'],
    ['mysql -p glued', `I connected with mysql -u root -p${pw} app_production`, 'command-line-password'],
    ['mysql -p glued, letters only', `mysql -uroot -p${letters} app`, 'command-line-password'],
    ['mysql -p glued, quoted', `mysqldump -u root -p'${pw}' app > dump.sql`, 'command-line-password'],
    ['mysql -p then a space', `mysql -h db -u root -p ${pw} app`, 'command-line-password'],
    ['mariadb -p', `mariadb -u app -p${pw}`, 'command-line-password'],
    ['docker login -p', `in CI: docker login -u ci -p ${pw} registry.example.io`, 'command-line-password'],
    ['docker login --password', `docker login registry.io --username ci --password ${letters}`, 'command-line-password'],
    ['sshpass -p', `sshpass -p ${pw} ssh deploy@10.0.0.5 uptime`, 'command-line-password'],
    ['sshpass -p glued', `sshpass -p${letters} scp a.tar host:`, 'command-line-password'],
    ['redis-cli -a', `redis-cli -h cache.internal -p 6379 -a ${pw} ping`, 'command-line-password'],
    ['.netrc, one line', `machine api.example.com login deploy password ${letters}`, 'netrc-password'],
    ['.netrc, one field a line', `machine git.example.com\n  login deploy\n  password ${pw}\n`, 'netrc-password'],
    ['.netrc, password first', `machine git.example.com password ${pw} login deploy`, 'netrc-password'],
    ['.netrc default entry', `default login anonymous password ${letters}`, 'netrc-password'],
    ['.pgpass line', `db.internal:5432:app:app:${pw}`, 'pgpass-password'],
    ['.pgpass line in a command', `echo "*:*:*:postgres:${letters}" >> ~/.pgpass`, 'pgpass-password'],
    ['.pgpass line with an escaped colon', `localhost:5432:*:app:${pw}\\:x`, 'pgpass-password'],
    ['properties *.password=', `ssl.keystore.password=${letters}`, 'password-assignment'],
    ['YAML *.password:', `spring:\n  datasource:\n    password: ${letters}\n`, 'password-assignment'],
    ['prose: the password is', `the staging password is ${pw}`, 'prose-password'],
    ['prose: keystore password is', `keystore password is ${'hunter' + '2!x'}`, 'prose-password'],
    ['prose: the password for … is', `The password for the staging db is ${pw}.`, 'prose-password'],
    ['prose: password was', `password was ${pw} until March`, 'prose-password'],
    ['Authorization: token (gitleaks curl-auth-header)', `curl -H "Authorization: token ${'f3a9c1e7b2d4' + '0c5e9a8b7c6d5e4f3a2b1c0d9e8f'}" https://api.github.com/user`, 'authorization-header'],
  ]
  for (const [name, text, rule] of CAUGHT) {
    it(`flags ${name} as ${rule} without echoing it`, async () => {
      const finding = await scanSecrets(text)
      expect(finding?.rule).toBe(rule)
      expectSafeMessage(finding!, text.includes(pw) ? pw : text.includes(letters) ? letters : text.includes('hunter2!x') ? 'hunter2!x' : 'f3a9c1e7b2d40c5e9a8b')
    })
  }

  const HIDDEN: Array<[string, string]> = [
    ['a token wrapped over two lines', `token ${token.slice(0, 20)}\n${token.slice(20)}`],
    ['a token wrapped with indentation and a backslash', `export GH=${token.slice(0, 18)} \\\n    ${token.slice(18)}`],
    ['a zero-width space inside a token', `token ${token.slice(0, 12)}\u200B${token.slice(12)}`],
    ['a soft hyphen inside a token', `token ${token.slice(0, 12)}\u00AD${token.slice(12)}`],
    ['a word joiner and a BOM inside a token', `${token.slice(0, 8)}\u2060${token.slice(8, 20)}\uFEFF${token.slice(20)}`],
    ['an invisible operator inside a token', `${token.slice(0, 8)}\u2062${token.slice(8)}`],
    ['tag characters inside a token', `${token.slice(0, 8)}\u{E0041}\u{E0042}${token.slice(8)}`],
    ['a bidi override inside a token', `${token.slice(0, 8)}\u202E${token.slice(8)}`],
  ]
  for (const [name, text] of HIDDEN) {
    it(`sees ${name}`, async () => {
      expect((await scanSecrets(text))?.rule).toBe('github-token')
    })
  }

  it('sees a homoglyph or a fullwidth form in `password:`', async () => {
    const cyrillicA = '\u0430' // а
    const greekO = '\u03BF' // ο
    expect((await scanSecrets(`p${cyrillicA}ssword: ${pw}`))?.rule).toBe('password-assignment')
    expect((await scanSecrets(`DB_PASSW${'\u041E'}RD=${letters}`))?.rule).toBe('password-assignment') // Cyrillic О
    expect((await scanSecrets(`passw${greekO}rd = "${pw}"`))?.rule).toBe('password-assignment')
    expect((await scanSecrets(`\uFF50\uFF41\uFF53\uFF53\uFF57\uFF4F\uFF52\uFF44=${pw}`))?.rule).toBe('password-assignment') // ｐａｓｓｗｏｒｄ
    expect((await scanSecrets(`mysql -u root -p\uFF58${pw}`))?.rule).toBe('command-line-password')
  })

  const PASSED: string[] = [
    'rotate the password monthly',
    'the password is stored in Vault under secret/staging/db',
    'the password is rotated every 90 days by the platform team',
    'password is at least 12 characters long',
    'the password is in 1Password, entry "staging db"',
    'the password is the same as on staging',
    'The password for the staging db is kept in Vault.',
    'password is SHA-256 hashed before it is stored',
    'mysql -u root -p<password> app',
    'mysql -u root -p app_production',
    'mysql -u root -p -h db app',
    'mysql -u root -p"$MYSQL_PASSWORD" app',
    'mysql -uroot -p$(cat /run/secrets/db) app',
    'mysql -P 3306 -u root -p app',
    'PGPASSWORD=$PGPASSWORD psql -h db',
    'export DB_PASS=${DB_PASS}',
    'MYSQL_PWD="$MYSQL_PWD" mysql -u root',
    'password: ***',
    'db.password = changeme',
    'docker login -u ci -p $DOCKER_TOKEN registry.io',
    'docker login -u ci --password-stdin < token.txt',
    'echo "$PW" | docker login -u ci --password-stdin',
    'sshpass -p "$SSHPASS" ssh host',
    'sshpass -e ssh deploy@host',
    'docker run -p 5432:5432 postgres:16',
    'docker compose up -d -p myproject',
    'psql -p 5433 -h db -U app',
    'pg_dump -p 5432 app > app.sql',
    'ssh -p 2222 deploy@host',
    'mkdir -p dist/cli && cp -p a b',
    'redis-cli -a $REDIS_PASS ping',
    'redis-cli -a "${REDIS_PASSWORD}" ping',
    'redis-cli -h cache -p 6379 ping',
    'the machine learning password reset flow lives in src/auth',
    'machine api.example.com login deploy password $NETRC_PASSWORD',
    'machine api.example.com login deploy password <password>',
    'build at 10:30:45:12 and again at 11:00',
    'src/main.go:12:5:undefined:foo',
    'fe80::1:2:3:4 is the link-local address',
    'localhost:5432:app:app:*',
    'postgres:5432:app:app:1234 in the docs example',
    'Password reset tokens expire after 30 minutes',
    'Store only the password hash; never log the password.',
    '-p 5432 is the default port',
    'send the header Authorization: token <your-token> to the API',
    'Authorization: token $GITHUB_TOKEN',
    'the token authorization: token scopes are listed in the docs',
  ]
  for (const text of PASSED) {
    it(`passes ${JSON.stringify(text)}`, async () => {
      expect(await scanSecrets(text)).toBeNull()
    })
  }

  it('reads ordinary text in other scripts and with accents as it is (no look-alike turns it into a finding)', async () => {
    for (const text of [
      'Пароль хранится в Vault; токен обновляется каждый час',
      'Le mot de passe est stocké dans Vault, pas dans le dépôt',
      'Das Passwort steht im Tresor: ändern Sie es monatlich',
      'パスワードは Vault に保存されています',
      'café, naïve, résumé, Ångström — ﬁle names with ligatures',
      '👨‍👩‍👧 family emoji and ❤️ with a variation selector',
    ]) {
      expect(await scanSecrets(text)).toBeNull()
    }
  })
})

describe('scanSecrets: what is refused in content is refused in a tag (issue 28)', () => {
  // the store's Tags schema lower-cases a tag and turns spaces into dashes
  const asTag = (text: string) => text.trim().toLowerCase().replace(/\s+/g, '-')
  const tokens = CASES.filter((c) => !/\n/.test(c.text) && c.text.length <= 200)
  for (const c of tokens) {
    it(`refuses ${c.name} as a tag`, async () => {
      const {gate} = await import('../../../src/engines/gates/admit.js')
      const ctx = {scanSecrets} as never
      const r = await gate(ctx, {content: 'an ordinary note about the deploy', tags: ['deploy', asTag(c.text)]})
      expect(r?.success).toBe(false)
      expect(r!.reason).toMatch(/^Rejected: a tag /)
      for (let i = 0; i + 5 <= c.secret.length; i++) expect(r!.reason.toLowerCase()).not.toContain(c.secret.toLowerCase().slice(i, i + 5))
    })
  }

  it('passes tags people write', async () => {
    const {gate} = await import('../../../src/engines/gates/admit.js')
    const ctx = {scanSecrets} as never
    const tags = ['setup', 'pnpm', 'ci', 'utf8mb4', 'cl100k-base', 'x86-64', 'node20', 'fix-3f2c9a1b7e4d5f6a8b9c0d1e2f3a4b5c6d7e8f90', 'source:agents.md', 'intake', 'auth', 'password-reset', 'k8s', 'p99-latency', 'd1:3']
    expect(await gate(ctx, {content: 'an ordinary note', tags})).toBeNull()
  })
})
