// `mem setup <host>` on real temporary git repositories that already hold config files (issue 18):
// merged without clobbering, idempotent, no machine paths, and --uninstall gives every file back
// byte for byte.
import {execFileSync, spawnSync} from 'node:child_process'
import {existsSync, mkdirSync, readFileSync, readdirSync, symlinkSync} from 'node:fs'
import {dirname, join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {runCliInProcess} from '../../helpers/cli.js'
import {tempDir, writeTree} from '../../helpers/mem.js'
import {hostEntry} from '../../hosts/hosts.js'

const EXISTING: Record<string, string> = {
  '.claude/settings.json': '{\n    "permissions": {\n        "allow": ["Bash(npm test)"]\n    },\n    "hooks": {\n        "Stop": [{"hooks": [{"type": "command", "command": "./notify.sh"}]}]\n    }\n}',
  '.mcp.json': '{"mcpServers": {"github": {"command": "gh-mcp"}}}\n',
  'CLAUDE.md': '# Project\n\nUse tabs.',
  'AGENTS.md': '# Agents\n\n- run `make check` before committing\n',
  '.codex/config.toml': 'model = "gpt-5"\n\n[mcp_servers.docs]\ncommand = "docs-mcp"\n',
  '.cursor/mcp.json': '{\n  "mcpServers": {}\n}\n',
  '.gemini/settings.json': '{\n  "ui": {"theme": "GitHub"}\n}\n',
  'opencode.json': '{\n  "$schema": "https://opencode.ai/config.json",\n  "model": "anthropic/claude-sonnet-4-5"\n}\n',
}

function repo(files: Record<string, string> = EXISTING) {
  const base = tempDir()
  const root = join(base, 'app')
  const home = join(base, 'home')
  writeTree(root, files)
  execFileSync('git', ['init', '-q', root])
  const mem = (args: string[]) => runCliInProcess(args, {cwd: root, home})
  return {root, home, mem}
}

/** Every file of the tree but .git and mem's own store, with its bytes. */
function snapshot(root: string, dir = ''): Record<string, string> {
  const out: Record<string, string> = {}
  for (const name of readdirSync(join(root, dir))) {
    const rel = dir ? `${dir}/${name}` : name
    if (rel === '.git' || rel === '.mem') continue
    const path = join(root, rel)
    try {
      Object.assign(out, snapshot(root, rel))
    } catch {
      out[rel] = readFileSync(path, 'utf8')
    }
  }
  return out
}

const HOSTS = ['claude', 'codex', 'cursor', 'gemini', 'opencode'] as const

describe('mem setup', () => {
  for (const host of HOSTS) {
    it(`${host}: merges into the files there, changes nothing the second time, and --uninstall restores every byte`, async () => {
      const {root, mem} = repo()
      const before = snapshot(root)
      const first = await mem(['setup', host, '--json'])
      expect(first.code).toBe(0)
      const result = first.json()
      expect(result.files.map((f: {action: string}) => f.action)).not.toContain('conflict')
      expect(result.files.some((f: {action: string}) => f.action === 'create' || f.action === 'update')).toBe(true)
      const after = snapshot(root)
      // what was there is still there
      for (const [path, text] of Object.entries(before)) {
        if (path.endsWith('.json') && after[path]) {
          const was = JSON.parse(text)
          const now = JSON.parse(after[path])
          for (const key of Object.keys(was)) expect(now[key]).toBeDefined()
        } else if (after[path]) {
          expect(after[path].startsWith(text.trimEnd())).toBe(true)
        }
      }
      // no machine path in anything a team commits
      for (const text of Object.values(after)) {
        expect(text).not.toContain(root)
        expect(text).not.toContain(process.execPath)
      }
      expect(Object.values(after).join('\n')).toContain(`mem hook session-start --host ${host}`)
      const second = (await mem(['setup', host, '--json'])).json()
      expect(second.files.every((f: {action: string}) => f.action === 'unchanged')).toBe(true)
      expect(snapshot(root)).toEqual(after)
      const removed = await mem(['setup', host, '--uninstall'])
      expect(removed.code).toBe(0)
      expect(snapshot(root)).toEqual(before)
    })
  }

  it('takes the names the hosts go by: claude-code is claude, gemini-cli is gemini; another name is refused, naming the hosts', async () => {
    const {root, mem} = repo()
    await mem(['setup', 'claude-code'])
    const viaAlias = snapshot(root)
    expect(JSON.parse(viaAlias['.claude/settings.json']).hooks.SessionStart[0].hooks[0].command).toBe('mem hook session-start --host claude')
    await mem(['setup', 'gemini-cli'])
    expect(readFileSync(join(root, '.gemini/settings.json'), 'utf8')).toContain('mem hook session-start --host gemini')
    const wrong = await mem(['setup', 'claude-desktop'])
    expect(wrong.code).toBe(2)
    expect(wrong.stderr).toMatch(/Expected claude-desktop to be one of: claude, codex, cursor, gemini, opencode/)
  })

  it('claude: the hooks, the MCP server and the instructions land where Claude Code reads them', async () => {
    const {root, mem} = repo()
    await mem(['setup', 'claude'])
    const settings = JSON.parse(readFileSync(join(root, '.claude/settings.json'), 'utf8'))
    expect(settings.permissions).toEqual({allow: ['Bash(npm test)']})
    expect(settings.hooks.Stop).toEqual([
      {hooks: [{type: 'command', command: './notify.sh'}]},
      {hooks: [{type: 'command', command: 'mem hook stop --host claude', timeout: 10}]},
    ])
    expect(settings.hooks.SessionStart).toEqual([{matcher: 'startup|resume|clear|compact', hooks: [{type: 'command', command: 'mem hook session-start --host claude', timeout: 10}]}])
    expect(settings.hooks.UserPromptSubmit[0].hooks[0].command).toBe('mem hook prompt --host claude')
    expect(settings.hooks.PreCompact).toBeUndefined()
    // written back in its own four-space indentation
    expect(readFileSync(join(root, '.claude/settings.json'), 'utf8')).toMatch(/^\{\n {4}"permissions"/)
    expect(JSON.parse(readFileSync(join(root, '.mcp.json'), 'utf8')).mcpServers).toEqual({github: {command: 'gh-mcp'}, mem: {command: 'mem', args: ['mcp']}})
    expect(readFileSync(join(root, 'CLAUDE.md'), 'utf8')).toMatch(/^# Project\n\nUse tabs.\n\n<!-- mem:begin[^\n]*-->\n## Project memory \(mem\)/)
  })

  it('a file mem added is removed again, with the folder it created; AGENTS.md stays while another host uses it', async () => {
    const {root, mem} = repo({'README.md': '# app\n'})
    await mem(['setup', 'codex'])
    await mem(['setup', 'cursor'])
    expect(readFileSync(join(root, '.codex/config.toml'), 'utf8')).toBe(
      '# mem:begin (added by `mem setup`; `mem setup <host> --uninstall` takes it out)\n[mcp_servers.mem]\ncommand = "mem"\nargs = ["mcp"]\nenv_vars = ["MEM_HOME", "MEM_REPO"]\n# mem:end\n',
    )
    const out = (await mem(['setup', 'codex', '--uninstall', '--json'])).json()
    expect(out.files.find((f: {path: string}) => f.path === 'AGENTS.md').action).toBe('kept')
    expect(existsSync(join(root, '.codex'))).toBe(false)
    expect(readFileSync(join(root, 'AGENTS.md'), 'utf8')).toContain('mem:begin')
    await mem(['setup', 'cursor', '--uninstall'])
    expect(snapshot(root)).toEqual({'README.md': '# app\n'})
  })

  it('--dry-run prints the diff and writes nothing; --list names each host\'s files and the events it has no hook for', async () => {
    const {root, mem} = repo()
    const before = snapshot(root)
    const dry = await mem(['setup', 'gemini', '--dry-run'])
    expect(dry.code).toBe(0)
    expect(dry.stdout).toContain('--- a/.gemini/settings.json')
    expect(dry.stdout).toContain('+  "hooks": {')
    expect(dry.stdout).toContain('--- /dev/null\n+++ b/GEMINI.md')
    expect(snapshot(root)).toEqual(before)
    const list = await mem(['setup', '--list', '--json'])
    const hosts = list.json().hosts
    expect(hosts.map((h: {host: string}) => h.host)).toEqual([...HOSTS])
    const cursor = hosts.find((h: {host: string}) => h.host === 'cursor')
    expect(cursor.missing.map((m: {event: string}) => m.event)).toEqual(['prompt', 'pre-compact'])
    expect((await mem(['setup', '--list'])).stdout).toContain('no hook for pre-compact')
  })

  it('edits a JSON file in place: comments and the lines around mem\'s entries stay as they were', async () => {
    const original = '{\n  // the team\'s model\n  "model": "anthropic/claude-sonnet-4-5",\n  "mcp": {\n    "docs": {"type": "remote", "url": "https://docs.example/mcp"},\n  },\n}\n'
    const {root, mem} = repo({'opencode.json': original})
    expect((await mem(['setup', 'opencode'])).code).toBe(0)
    const after = readFileSync(join(root, 'opencode.json'), 'utf8')
    // every line that was there is there, in order; mem's entry is the only addition
    const lines = after.split('\n')
    let at = 0
    for (const line of original.split('\n')) {
      at = lines.indexOf(line, at)
      expect(at, line).toBeGreaterThanOrEqual(0)
    }
    expect(after).toMatch(/"mem": \{\n {6}"type": "local",\n {6}"command": \[\n {8}"mem",\n {8}"mcp"\n {6}\],\n {6}"enabled": true\n {4}\}/)
    await mem(['setup', 'opencode', '--uninstall'])
    expect(readFileSync(join(root, 'opencode.json'), 'utf8')).toBe(original)
  })

  it('codex: no deprecated [features] codex_hooks (an older block with it is replaced in place); one that defines the mem server is left alone', async () => {
    const older = '[features]\nweb_search = true\n\n# mem:begin (added by `mem setup`; `mem setup <host> --uninstall` takes it out)\n[mcp_servers.mem]\ncommand = "mem"\nargs = ["mcp"]\n\n[features]\ncodex_hooks = true\n# mem:end\n'
    const own = repo({'.codex/config.toml': older})
    await own.mem(['setup', 'codex'])
    const text = readFileSync(join(own.root, '.codex/config.toml'), 'utf8')
    expect(text.match(/^\[features\]/gm)).toHaveLength(1)
    expect(text).not.toContain('codex_hooks')
    expect(text).toContain('[mcp_servers.mem]\ncommand = "mem"\nargs = ["mcp"]\nenv_vars = ["MEM_HOME", "MEM_REPO"]\n# mem:end\n')
    const taken = repo({'.codex/config.toml': '[mcp_servers.mem]\ncommand = "other"\n'})
    const r = await taken.mem(['setup', 'codex'])
    expect(r.code).toBe(1)
    expect(r.stdout).toContain('already defines [mcp_servers.mem]')
    expect(readFileSync(join(taken.root, '.codex/config.toml'), 'utf8')).toBe('[mcp_servers.mem]\ncommand = "other"\n')
  })

  it('prints the trust steps each host needs; --list says them too', async () => {
    const {mem} = repo()
    const out = await mem(['setup', 'codex'])
    expect(out.stdout).toContain('Before Codex CLI runs them, once:')
    expect(out.stdout).toContain('/hooks')
    expect(out.stdout).toContain('codex exec')
    const list = (await mem(['setup', '--list', '--json'])).json().hosts
    for (const h of list) expect(h.trust.length, h.host).toBeGreaterThan(0)
    expect((await mem(['setup', '--list'])).stdout).toMatch(/trust: .*\/hooks/)
  })

  it('opencode: --uninstall names what OpenCode itself left in the folder setup made, and leaves it', async () => {
    const {root, mem} = repo({'README.md': '# app\n'})
    await mem(['setup', 'opencode'])
    // what OpenCode installs for a project's plugins at its first start
    writeTree(root, {'.opencode/package.json': '{"dependencies":{"@opencode-ai/plugin":"1.18.33"}}\n', '.opencode/.gitignore': 'node_modules\n'})
    const dry = await mem(['setup', 'opencode', '--uninstall', '--dry-run', '--json'])
    expect(dry.json().leftBehind).toEqual([])
    const out = await mem(['setup', 'opencode', '--uninstall'])
    expect(out.code).toBe(0)
    expect(out.stdout).toContain("Left in place (OpenCode put these into folders setup made; they are not mem's): .opencode/.gitignore, .opencode/package.json.")
    expect(existsSync(join(root, '.opencode/plugins'))).toBe(false)
    expect(snapshot(root)).toEqual({'README.md': '# app\n', '.opencode/.gitignore': 'node_modules\n', '.opencode/package.json': '{"dependencies":{"@opencode-ai/plugin":"1.18.33"}}\n'})
  })

  it('keeps its backups in MEM_HOME, not in the repository', async () => {
    const {root, home, mem} = repo()
    await mem(['setup', 'claude'])
    expect(existsSync(join(root, '.mem', 'hooks'))).toBe(false)
    const dirs = readdirSync(join(home, 'hooks'))
    expect(readdirSync(join(home, 'hooks', dirs[0], 'setup'))).toEqual(['claude.json'])
  })

  it('a file that is not JSON is left alone and reported (exit 1)', async () => {
    const {root, mem} = repo({'.cursor/hooks.json': '{ this is not json'})
    const r = await mem(['setup', 'cursor'])
    expect(r.code).toBe(1)
    expect(r.stdout).toContain('not valid JSON')
    expect(readFileSync(join(root, '.cursor/hooks.json'), 'utf8')).toBe('{ this is not json')
  })
})

describe('a hostile repository (issue 28): mem setup never writes through a symlink out of the repository', () => {
  /** A repo beside a victim folder, with `links` (repo path → victim path) as symlinks. */
  function hostile(links: Record<string, string>, files: Record<string, string> = {}) {
    const r = repo({'README.md': '# app\n', ...files})
    const victim = join(r.root, '..', 'victim')
    writeTree(victim, {'settings.json': '{"mine": true}\n', 'CLAUDE.md': '# my notes\n', 'AGENTS.md': '# mine\n', 'config.toml': 'model = "x"\n', 'plugins/keep.js': '// mine\n'})
    for (const [from, to] of Object.entries(links)) {
      mkdirSync(dirname(join(r.root, from)), {recursive: true})
      symlinkSync(join(victim, to), join(r.root, from))
    }
    return {...r, victim}
  }

  const cases: Array<[string, string, Record<string, string>]> = [
    ['claude', 'CLAUDE.md', {'CLAUDE.md': 'CLAUDE.md'}],
    ['claude', '.claude/settings.json', {'.claude/settings.json': 'settings.json'}],
    ['claude', '.claude', {'.claude': '.'}],
    ['codex', '.codex', {'.codex': '.'}],
    ['codex', 'AGENTS.md', {'AGENTS.md': 'AGENTS.md'}],
    ['gemini', '.gemini/settings.json', {'.gemini/settings.json': 'settings.json'}],
    ['opencode', '.opencode', {'.opencode': '.'}],
    ['cursor', 'AGENTS.md', {'AGENTS.md': 'AGENTS.md'}],
  ]
  for (const [host, path, links] of cases) {
    it(`${host}: a symlinked ${path} refuses the run (exit 4, the path named), nothing written in or out`, async () => {
      const {root, mem, victim} = hostile(links)
      const victimBefore = snapshot(victim)
      const before = snapshot(root)
      for (const args of [['setup', host], ['setup', host, '--uninstall'], ['setup', host, '--dry-run']]) {
        const r = await mem([...args, '--json'])
        expect(r.code, args.join(' ')).toBe(4)
        expect(r.json().error).toContain(`${path} is a symlink to ${victim}`)
        expect(r.json().hint).toMatch(/Replace .* with a real/)
      }
      expect(snapshot(victim)).toEqual(victimBefore)
      expect(snapshot(root)).toEqual(before)
    })
  }

  it('a symlink that stays inside the repository is followed', async () => {
    const {root, mem} = repo({'README.md': '# app\n', 'docs/AGENTS.md': '# agents\n'})
    symlinkSync(join(root, 'docs/AGENTS.md'), join(root, 'AGENTS.md'))
    expect((await mem(['setup', 'codex'])).code).toBe(0)
    expect(readFileSync(join(root, 'docs/AGENTS.md'), 'utf8')).toContain('mem:begin')
  })

  it('a dangling symlink is refused too (where it would write is unknown)', async () => {
    const {root, mem} = repo({'README.md': '# app\n'})
    symlinkSync(join(root, '..', 'nowhere', 'CLAUDE.md'), join(root, 'CLAUDE.md'))
    const r = await mem(['setup', 'claude'])
    expect(r.code).toBe(4)
    expect(r.stderr + r.stdout).toContain('CLAUDE.md is a symlink to a path that does not exist')
    expect(existsSync(join(root, '..', 'nowhere'))).toBe(false)
  })
})

describe('Gemini CLI validates what mem setup wrote (its own package, offline)', () => {
  // @google/gemini-cli (the pinned version the real-host tests install into their cache,
  // test/hosts/hosts.ts) checks .gemini/settings.json against its own settings schema on load and
  // names every field it refuses ("Error in: <path>").
  const gemini = hostEntry('gemini')
  // it reports on stderr, the server list included
  const run = (root: string, home: string) => {
    const r = spawnSync(process.execPath, [gemini, 'mcp', 'list'], {cwd: root, env: {PATH: process.env.PATH ?? '', HOME: home, NO_COLOR: '1'}, encoding: 'utf8', timeout: 60_000})
    return `${r.stdout}${r.stderr}`
  }

  it('accepts the hooks and the MCP server entry, and refuses a broken hooks entry (the check can fail)', async () => {
    const {root, home, mem} = repo()
    await mem(['setup', 'gemini'])
    const ok = run(root, home)
    expect(ok).not.toMatch(/Error in:/)
    expect(ok).toMatch(/mem: mem mcp \(stdio\)/)
    const settings = JSON.parse(readFileSync(join(root, '.gemini/settings.json'), 'utf8'))
    settings.hooks.SessionStart[0].hooks = 'mem hook session-start'
    writeTree(root, {'.gemini/settings.json': JSON.stringify(settings)})
    expect(run(root, home)).toMatch(/Error in: hooks\.SessionStart\[0\]\.hooks/)
  }, 120_000)
})
