// `mem team` and `mem keys … --team` over a real Postgres, as a user runs them: the key printed
// once, --json answers, the URL from --store, MEM_STORE or the user config, and each mistake a clear
// error with its exit code (bad URL 2, unknown team 3, Postgres unreachable 69), never the password.
import {existsSync, mkdirSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {runCli, runCliInProcess} from '../../helpers/cli.js'
import {tempDir} from '../../helpers/mem.js'
import {closedPort, freshDatabase} from '../../helpers/pg.js'

function setup() {
  const base = tempDir()
  const home = join(base, 'home')
  const mem = (args: string[], env?: Record<string, string>) => runCliInProcess(args, {cwd: base, home, env: {MEM_STORE: '', ...env}})
  return {base, home, mem}
}


describe('mem team and mem keys --team', () => {
  it('create a team, a key (printed once), list and revoke it; --json bodies; nothing written to MEM_HOME', async () => {
    const {mem, home} = setup()
    const {url} = await freshDatabase()
    const team = await mem(['team', 'create', 'platform', '--store', url])
    expect(team.code, team.stderr).toBe(0)
    expect(team.stdout).toContain('Team platform created in ')

    const created = await mem(['keys', 'create', 'ci', '--team', 'platform', '--scope', 'write', '--store', url])
    expect(created.code, created.stderr).toBe(0)
    const key = created.stdout.split('\n')[0]
    expect(key).toMatch(/^mem_[A-Za-z0-9_-]{43}$/)
    expect(created.stdout).toContain('Key ci (write, every repo) created for team platform')

    const scoped = await mem(['keys', 'create', 'rev', '--team', 'platform', '--scope', 'read', '--repos', 'github.com/org/app,github.com/org/lib', '--store', url, '--json'])
    expect(scoped.code, scoped.stderr).toBe(0)
    expect(scoped.json()).toMatchObject({team: 'platform', name: 'rev', scope: 'read', repos: ['github.com/org/app', 'github.com/org/lib']})

    const listed = await mem(['keys', 'list', '--team', 'platform', '--store', url, '--json'])
    expect(listed.code, listed.stderr).toBe(0)
    expect(listed.json().keys.map((k: {name: string; scope: string; repos: string[] | null}) => [k.name, k.scope, k.repos])).toEqual([
      ['ci', 'write', null],
      ['rev', 'read', ['github.com/org/app', 'github.com/org/lib']],
    ])
    expect(listed.stdout).not.toContain(key)

    const revoked = await mem(['keys', 'revoke', 'ci', '--team', 'platform', '--store', url])
    expect(revoked.code, revoked.stderr).toBe(0)
    expect(revoked.stdout).toBe('Revoked ci of team platform.\n')
    expect((await mem(['keys', 'list', '--team', 'platform', '--store', url, '--json'])).json().keys.map((k: {name: string}) => k.name)).toEqual(['rev'])
    // team keys are not local keys: the user config was never made
    expect(existsSync(join(home, 'config.yaml'))).toBe(false)
    expect((await mem(['keys', 'list', '--json'])).json()).toEqual({authEnabled: false, keys: []})
  })

  it('the URL from MEM_STORE, else from `store:` in the user config; --store wins', async () => {
    const {mem, home} = setup()
    const {url} = await freshDatabase()
    const viaEnv = await mem(['team', 'create', 'from-env', '--json'], {MEM_STORE: url})
    expect(viaEnv.code, viaEnv.stderr).toBe(0)
    mkdirSync(home, {recursive: true})
    writeFileSync(join(home, 'config.yaml'), `store: ${url}\n`)
    const viaConfig = await mem(['team', 'create', 'from-config', '--json'])
    expect(viaConfig.code, viaConfig.stderr).toBe(0)
    const port = await closedPort()
    const overridden = await mem(['team', 'list', '--store', `postgres://x@127.0.0.1:${port}/db`])
    expect(overridden.code).toBe(69)
    const listed = await mem(['team', 'list', '--json'])
    expect(listed.json().teams.map((t: {team: string}) => t.team)).toEqual(['from-config', 'from-env'])
  })

  it('mistakes: a clear error and its exit code, the password never shown', async () => {
    const {mem} = setup()
    const {url} = await freshDatabase()
    await mem(['team', 'create', 'platform', '--store', url])
    const port = await closedPort()
    const cases: Array<[string[], number, RegExp, Record<string, string>?]> = [
      [['keys', 'list', '--team', 'platform', '--store', `postgres://mem:hunter2@127.0.0.1:${port}/mem`], 69, /Postgres at postgres:\/\/mem:\*\*\*@127\.0\.0\.1:\d+\/mem cannot be reached \(connection refused\)/],
      [['team', 'create', 'x'], 69, /cannot be reached/, {MEM_STORE: `postgres://mem:hunter2@127.0.0.1:${port}/mem`}],
      [['keys', 'list', '--team', 'platform', '--store', 'https://mem:hunter2@db/mem'], 2, /not a Postgres URL/],
      [['keys', 'list', '--team', 'platform', '--store', 'hunter2'], 2, /is not a URL/],
      [['keys', 'list', '--team', 'platform'], 2, /No team store given/],
      [['keys', 'create', 'k', '--team', 'nope', '--scope', 'read', '--store', url], 3, /No team nope in this team store/],
      [['keys', 'create', 'k', '--team', 'platform', '--scope', 'owner', '--store', url], 2, /--scope=owner to be one of: read, write, admin/],
      [['keys', 'create', 'k', '--team', 'platform', '--scope', 'read', '--repos', '/home/me/app', '--store', url], 2, /never a path/],
      [['keys', 'create', 'k', '--scope', 'read', '--repos', 'github.com/org/app'], 2, /--team/],
      [['keys', 'create', 'k', '--scope', 'read', '--store', url], 2, /--store needs --team/],
      [['keys', 'revoke', 'nokey', '--team', 'platform', '--store', url], 3, /Team platform has no key named nokey/],
      [['team', 'create', 'platform', '--store', url], 4, /A team named platform exists already/],
      [['team', 'create', 'two words', '--store', url], 2, /Invalid team name/],
      [['team', 'create', `ghp_${'Zq8xW2mR7tY4uI9oP3aS6dF1gH5jK0lZ8cV2'}`, '--store', url], 5, /team name looks like a secret/],
    ]
    for (const [args, code, message, env] of cases) {
      const r = await mem(args, env)
      expect([r.code, r.stderr], args.join(' ')).toEqual([code, expect.stringMatching(message)])
      expect(r.stderr).toMatch(/^Hint: \S/m)
      expect(`${r.stdout}${r.stderr}`).not.toContain('hunter2')
      const json = await mem([...args, '--json'], env)
      expect([json.code, json.json().error], args.join(' ')).toEqual([code, expect.stringMatching(message)])
      expect(json.stdout).not.toContain('hunter2')
    }
  })

  it('help says how, with examples; and it runs as a user runs it (bin/run.js)', async () => {
    const {mem, base, home} = setup()
    const help = await mem(['keys', 'create', '--help'])
    expect(help.stdout).toContain('keys create ci --team platform --scope write --store postgres://')
    expect(help.stdout).toContain('--repos=<value>')
    expect((await mem(['team', 'create', '--help'])).stdout).toContain('team create platform --store postgres://')
    const {url} = await freshDatabase()
    const made = runCli(['team', 'create', 'web', '--json'], {cwd: base, home, env: {MEM_STORE: url}})
    expect(made.code, made.stderr).toBe(0)
    expect(made.json()).toMatchObject({team: 'web'})
    const key = runCli(['keys', 'create', 'agent', '--team', 'web', '--scope', 'write', '--json'], {cwd: base, home, env: {MEM_STORE: url}})
    expect(key.code, key.stderr).toBe(0)
    expect(key.json().key).toMatch(/^mem_/)
  })
})
