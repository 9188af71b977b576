// A checkout's team repo id (config/team-repo-id.ts): the normalized git remote, or the id of a
// committed .mem/team.yaml; many spellings of one remote give one id, and hostile input is refused
// with what is wrong and the fix (never echoing a remote's credentials).
import {execFileSync} from 'node:child_process'
import {mkdirSync, symlinkSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {checkoutTeamRepoId, parseRemotes, teamIdFromRemote} from '../../src/config/team-repo-id.js'
import {MemError} from '../../src/model/errors.js'
import {tempDir} from '../helpers/mem.js'

function refused(fn: () => unknown): MemError {
  try {
    fn()
  } catch (err) {
    expect(err).toBeInstanceOf(MemError)
    expect((err as MemError).code).toBe('invalid_input')
    return err as MemError
  }
  throw new Error('expected a refusal')
}

/** A checkout with a .git folder whose config holds `config`, and optionally a .mem/team.yaml. */
function checkout(config: string | null, teamYaml?: string): string {
  const root = tempDir('mem-team-id-')
  if (config !== null) {
    mkdirSync(join(root, '.git'), {recursive: true})
    writeFileSync(join(root, '.git', 'config'), config)
  }
  if (teamYaml !== undefined) {
    mkdirSync(join(root, '.mem'), {recursive: true})
    writeFileSync(join(root, '.mem', 'team.yaml'), teamYaml)
  }
  return root
}

const origin = (url: string) => `[core]\n\trepositoryformatversion = 0\n[remote "origin"]\n\turl = ${url}\n\tfetch = +refs/heads/*:refs/remotes/origin/*\n`

describe('teamIdFromRemote: the spellings of one remote give one id', () => {
  const app = [
    'git@github.com:org/app.git',
    'git@github.com:org/app',
    'git@github.com:/org/app.git',
    'github.com:org/app.git',
    'ssh://git@github.com/org/app.git',
    'ssh://git@github.com:22/org/app.git',
    'ssh://github.com/org/app',
    'git+ssh://git@github.com/org/app.git',
    'ssh+git://git@github.com/org/app.git',
    'https://github.com/org/app.git',
    'https://github.com/org/app',
    'https://github.com/org/app/',
    'https://github.com/org/app.git/',
    'https://user@github.com/org/app.git',
    'https://user:ghp_secretToken123@github.com/org/app.git',
    'https://GitHub.COM/org/app.git',
    'https://github.com:443/org/app.git',
    'http://github.com/org/app',
    'git://github.com/org/app.git',
    'https://github.com/Org/App.GIT',
    'git@GITHUB.com:ORG/APP.git',
    'https://github.com./org/app',
    '  https://github.com/org/app.git  ',
    'https://github.com//org//app.git',
    'https://github.com/org/app.git?ref=main#readme',
  ]
  for (const url of app) {
    it(url.trim(), () => {
      expect(teamIdFromRemote(url)).toBe('github.com/org/app')
    })
  }

  it('other hosts: lower-case host, port and user dropped, path case kept; nested groups kept', () => {
    expect(teamIdFromRemote('ssh://git@Git.Example.COM:2222/Team/Sub/Proj.git')).toBe('git.example.com/Team/Sub/Proj')
    expect(teamIdFromRemote('https://git.example.com/Team/Sub/Proj')).toBe('git.example.com/Team/Sub/Proj')
    expect(teamIdFromRemote('git@gitlab.com:Group/Sub-Group/my_app.git')).toBe('gitlab.com/group/sub-group/my_app')
    expect(teamIdFromRemote('https://gitlab.com/group/sub-group/my_app')).toBe('gitlab.com/group/sub-group/my_app')
    expect(teamIdFromRemote('git@bitbucket.org:Team/Repo.git')).toBe('bitbucket.org/team/repo')
    expect(teamIdFromRemote('https://git.example.com/a%2Bb/c.git')).toBe('git.example.com/a+b/c')
  })

  it('Azure DevOps: its https and ssh spellings of one repository give one id', () => {
    const id = 'dev.azure.com/org/project/repo'
    expect(teamIdFromRemote('https://dev.azure.com/org/project/_git/repo')).toBe(id)
    expect(teamIdFromRemote('https://org@dev.azure.com/org/project/_git/repo')).toBe(id)
    expect(teamIdFromRemote('git@ssh.dev.azure.com:v3/org/project/repo')).toBe(id)
    expect(teamIdFromRemote('ssh://git@ssh.dev.azure.com:22/v3/org/project/repo')).toBe(id)
  })

  it('different repositories stay different', () => {
    const ids = ['git@github.com:org/app.git', 'git@github.com:org/app2.git', 'git@github.com:org2/app.git', 'git@gitlab.com:org/app.git', 'git@git.example.com:org/app.git'].map(teamIdFromRemote)
    expect(new Set(ids).size).toBe(5)
  })

  it('hostile and local remotes are refused with the reason, never the credentials', () => {
    const cases: Array<[string, RegExp]> = [
      ['', /empty/],
      ['   ', /empty/],
      ['/srv/git/app.git', /path on this machine/],
      ['../app', /path on this machine/],
      ['./app.git', /path on this machine/],
      ['C:\\repos\\app', /path on this machine/],
      ['C:/repos/app.git', /path on this machine/],
      ['file:///srv/git/app.git', /file:\/\//],
      ['FILE:///srv/git/app.git', /file:\/\//],
      ['https://github.com', /no repository/],
      ['https://github.com/', /no repository/],
      ['git@github.com:', /no repository/],
      ['git@github.com:.git', /no repository/],
      ['https://github.com/org/../../etc/passwd', /'\.' or '\.\.'/],
      ['https://github.com/org/%2e%2e/app', /'\.' or '\.\.'/],
      ['https://github.com/org/%2F%2F/app', /encoded slash/],
      ['https://github.com/org/..%5C..%5Capp', /encoded slash/],
      ['https://github.com/org/./app', /'\.' or '\.\.'/],
      ['https://github.com/org/%ZZ', /percent|valid URL/],
      ['https://host.example/~user/app.git', /cannot carry/],
      ['https://github.com/org/app name', /spaces or control/],
      ['https://github.com/org/app\nid: x', /control/],
      ['https://github.com/org/\u0000app', /control/],
      ['https://[::1]/org/app', /host name/],
      ['ssh://git@[fe80::1]:22/org/app', /host name/],
      ['https://exa_mple.com/org/app', /host name/],
      ['javascript://github.com/org/app', /does not read as a server/],
      ['ext::sh -c touch% /tmp/pwned', /spaces|path on this machine|server/],
      ['https://github.com/org/ápp', /cannot carry/],
      [`https://github.com/${'a'.repeat(300)}`, /longer than 200|team repo id/],
      [`https://github.com/${'x'.repeat(3000)}`, /too long/],
    ]
    for (const [url, reason] of cases) {
      const err = refused(() => teamIdFromRemote(url))
      expect(err.message, url).toMatch(reason)
      expect(err.hint).toMatch(/\.mem\/team\.yaml/)
    }
    const leaked = refused(() => teamIdFromRemote('https://alice:hunter2-secret@git.example.com/~bob/app.git'))
    expect(`${leaked.message} ${leaked.hint}`).not.toMatch(/hunter2|alice/)
  })
})

describe('checkoutTeamRepoId: the checkout, its git config and .mem/team.yaml', () => {
  it('reads origin from .git/config', () => {
    expect(checkoutTeamRepoId(checkout(origin('git@github.com:org/app.git')))).toEqual({id: 'github.com/org/app', source: 'git remote', remote: 'origin'})
  })

  it('agrees with the remote git itself records (git remote add)', () => {
    const root = tempDir('mem-team-id-git-')
    execFileSync('git', ['init', '-q', root])
    execFileSync('git', ['-C', root, 'remote', 'add', 'origin', 'https://user:tok@GitHub.com/Org/App.git'])
    execFileSync('git', ['-C', root, 'remote', 'add', 'upstream', 'git@github.com:other/app.git'])
    expect(checkoutTeamRepoId(root)).toEqual({id: 'github.com/org/app', source: 'git remote', remote: 'origin'})
    // a worktree: .git is a file pointing at the main repository's folder
    execFileSync('git', ['-C', root, '-c', 'user.email=t@t', '-c', 'user.name=t', 'commit', '-q', '--allow-empty', '-m', 'x'])
    const wt = join(tempDir('mem-team-id-wt-'), 'wt')
    execFileSync('git', ['-C', root, 'worktree', 'add', '-q', wt])
    expect(checkoutTeamRepoId(wt).id).toBe('github.com/org/app')
  })

  it('the only remote when there is no origin; several without origin is refused, naming them', () => {
    expect(checkoutTeamRepoId(checkout('[remote "upstream"]\n\turl = https://gitlab.com/g/p.git\n')).id).toBe('gitlab.com/g/p')
    const err = refused(() => checkoutTeamRepoId(checkout('[remote "a"]\n\turl = https://gitlab.com/g/a.git\n[remote "b"]\n\turl = https://gitlab.com/g/b.git\n')))
    expect(err.message).toMatch(/several git remotes and none is called origin \(a, b\)/)
  })

  it('no remote, no .git, or a remote on this machine: refused, pointing at .mem/team.yaml', () => {
    for (const root of [checkout('[core]\n\tbare = false\n'), checkout(null), checkout(origin('/srv/git/app.git'))]) {
      const err = refused(() => checkoutTeamRepoId(root))
      expect(err.message).toMatch(/has no team repo id/)
      expect(err.hint).toMatch(/id: github\.com\/org\/app/)
    }
  })

  it('git config syntax: case of section and key, quotes, comments, continuation, the last url wins', () => {
    const text = [
      '# comment',
      '[Remote "origin"] ; trailing comment',
      '\tURL = "git@github.com:org/old.git"',
      '\turl = "git@github.com:org/app.git" # the newest',
      '[remote "with \\"quote\\""]',
      '\turl = https://example.com/a/b',
      '[branch "main"]',
      '\turl = https://example.com/not/a/remote',
      '[remote "long"]',
      '\turl = https://example.com/\\',
      'x/y',
    ].join('\n')
    const remotes = parseRemotes(text)
    expect(remotes.get('origin')).toBe('git@github.com:org/app.git')
    expect(remotes.get('with "quote"')).toBe('https://example.com/a/b')
    expect(remotes.get('long')).toBe('https://example.com/x/y')
    expect(remotes.size).toBe(3)
  })

  it('.mem/team.yaml names the id and wins over the remote', () => {
    const root = checkout(origin('git@github.com:org/app.git'), '# shared by every clone\nid: git.internal/platform/app-fork\n')
    expect(checkoutTeamRepoId(root)).toEqual({id: 'git.internal/platform/app-fork', source: 'team.yaml'})
    expect(checkoutTeamRepoId(checkout(null, 'id: "github.com/org/app"\n'))).toEqual({id: 'github.com/org/app', source: 'team.yaml'})
  })

  it('a bad .mem/team.yaml is refused with what is wrong and the fix, never falling back to the remote', () => {
    const cases: Array<[string, RegExp]> = [
      ['id: /etc/passwd\n', /not a team repo id.*never a path/],
      ['id: ../../other\n', /not a team repo id/],
      ['id: C:\\repos\\app\n', /not a team repo id/],
      ['id: github.com~org~app\n', /'~' and ':'/],
      ['id: github.com:org/app\n', /'~' and ':'/],
      ['id: ""\n', /has no id/],
      ['id: 42\n', /has no id/],
      ['id: [a, b]\n', /has no id/],
      ['name: app\n', /keys mem does not know \("name"\)/],
      ['id: github.com/org/app\nserver: https://evil.example\n', /keys mem does not know \("server"\)/],
      ['- github.com/org/app\n', /not a mapping/],
      ['just text\n', /not a mapping/],
      ['', /not a mapping/],
      ['id: github.com/org/app\nid: github.com/org/other\n', /not valid YAML/],
      ['id: &a github.com/org/app\nx: *a\n', /not valid YAML|keys mem does not know/],
      ['id: [unclosed\n', /not valid YAML/],
      [`id: github.com/${'a'.repeat(250)}\n`, /not a team repo id/],
      [`id: github.com/org/app\n# ${'x'.repeat(20_000)}\n`, /bytes; a team file is a few lines/],
    ]
    for (const [text, reason] of cases) {
      const err = refused(() => checkoutTeamRepoId(checkout(origin('git@github.com:org/app.git'), text)))
      expect(err.message, text.slice(0, 60)).toMatch(reason)
      expect(err.message).toContain('team.yaml')
      expect(err.hint).toMatch(/id: github\.com\/org\/app|remove the file/)
    }
  })

  it('a .mem/team.yaml or .mem that is a link is refused, not followed', () => {
    const outside = tempDir('mem-team-id-outside-')
    writeFileSync(join(outside, 'team.yaml'), 'id: github.com/evil/app\n')
    const linkedFile = checkout(origin('git@github.com:org/app.git'))
    mkdirSync(join(linkedFile, '.mem'))
    symlinkSync(join(outside, 'team.yaml'), join(linkedFile, '.mem', 'team.yaml'))
    expect(() => checkoutTeamRepoId(linkedFile)).toThrow(/symbolic link/)
    const linkedDir = checkout(origin('git@github.com:org/app.git'))
    symlinkSync(outside, join(linkedDir, '.mem'))
    expect(() => checkoutTeamRepoId(linkedDir)).toThrow(/symbolic link/)
    const folder = checkout(origin('git@github.com:org/app.git'))
    mkdirSync(join(folder, '.mem', 'team.yaml'), {recursive: true})
    expect(refused(() => checkoutTeamRepoId(folder)).message).toMatch(/is a folder/)
  })
})
