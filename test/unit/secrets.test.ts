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
