// OpenCode (pinned in versions.json) runs mem's plugin and MCP tools: see session.ts.
import {copyFileSync, cpSync, existsSync, mkdirSync, renameSync, rmSync, symlinkSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'
import {REAL_HOSTS, hostBin, hostDir} from './hosts.js'
import {assertSession, assertUninstall, prepare, PROMPTS, run, type Session} from './session.js'

/**
 * OpenCode installs its plugin package (@opencode-ai/plugin and its dependencies, ~2,000 files)
 * into every config folder it reads: the repository's .opencode, where mem's plugin is (uninstall
 * must leave what OpenCode put there: see below), and the user's own ~/.config/opencode, which
 * holds nothing of mem's. A user who has run OpenCode before has both installed already; so does
 * the test after its first run on a machine: the set installed into the user's folder is kept beside
 * the host's install (like OpenCode's package cache) and laid into each new HOME and repository,
 * node_modules as a link. OpenCode installs again when the set is missing or its lock lacks a
 * dependency its package.json names. (Measured alone: the file's CPU 39.6 s with both installs,
 * 33.0–35.9 s without the user's; its wall time 22.4 s with the repository's install, 15.4 s without.)
 */
const USER_DEPS = ['package.json', 'package-lock.json', 'node_modules']

function layUserDeps(config: string): boolean {
  const kept = join(hostDir('opencode'), 'user-config-deps')
  if (!USER_DEPS.every((f) => existsSync(join(kept, f)))) return false
  copyFileSync(join(kept, 'package.json'), join(config, 'package.json'))
  copyFileSync(join(kept, 'package-lock.json'), join(config, 'package-lock.json'))
  symlinkSync(join(kept, 'node_modules'), join(config, 'node_modules'), 'dir')
  return true
}

/** What OpenCode installed into the user's config folder, kept for the next run (a concurrent run may keep its own first). */
function keepUserDeps(config: string): void {
  const kept = join(hostDir('opencode'), 'user-config-deps')
  if (existsSync(kept) || !USER_DEPS.every((f) => existsSync(join(config, f)))) return
  const staging = `${kept}.${process.pid}`
  try {
    for (const f of USER_DEPS) cpSync(join(config, f), join(staging, f), {recursive: true, verbatimSymlinks: true})
    renameSync(staging, kept)
  } catch {
    // another run kept its set first
  } finally {
    rmSync(staging, {recursive: true, force: true})
  }
}

const CONFIG = {
  'opencode.json': '{\n  "$schema": "https://opencode.ai/config.json",\n  "share": "disabled"\n}\n',
  'AGENTS.md': '# Agents\n\n- run `make check` before committing\n',
}

describe(`OpenCode ${REAL_HOSTS.opencode.version}, headless, against a fake OpenAI-compatible server`, () => {
  let s: Session | undefined
  afterAll(async () => s?.fake.close())

  it("gets the context once, a relevant memory once and only when relevant, mem's tools, a recall answered, nothing of mem's in the title call; uninstall is byte-exact but for what OpenCode installed", async () => {
    s = await prepare('opencode', CONFIG)
    // the user's config: an @ai-sdk/openai-compatible provider pointing at the fake model (a dummy key)
    const config = join(s.home, '.config', 'opencode')
    mkdirSync(config, {recursive: true})
    writeFileSync(
      join(config, 'opencode.json'),
      JSON.stringify({
        $schema: 'https://opencode.ai/config.json',
        provider: {fake: {npm: '@ai-sdk/openai-compatible', name: 'Fake', options: {baseURL: `${s.fake.url}/v1`, apiKey: 'test-dummy-key'}, models: {'test-model': {name: 'Test model', tool_call: true}}}},
        model: 'fake/test-model',
        small_model: 'fake/test-model',
        autoupdate: false,
        // OpenCode's undo snapshots (a git repository of the work tree, ~20 git processes a run)
        // are OpenCode's own, not what mem's plugin or MCP server meet
        snapshot: false,
      }),
    )
    const laid = layUserDeps(config)
    // and into the repository's .opencode, as for a user who has run OpenCode there before (the set
    // is the same package); a first run on a machine (CI) installs both, as a new user's does
    layUserDeps(join(s.root, '.opencode'))
    // OpenCode's package cache (the provider package, the plugin's dependencies) is kept beside the
    // host's install and reused, like the install itself
    const cache = join(hostDir('opencode'), 'xdg-cache')
    const env = {...s.env, XDG_CONFIG_HOME: join(s.home, '.config'), XDG_DATA_HOME: join(s.home, '.local', 'share'), XDG_CACHE_HOME: cache, BUN_INSTALL_CACHE_DIR: join(cache, 'bun'), npm_config_cache: join(cache, 'npm'), XDG_STATE_HOME: join(s.home, '.local', 'state'), OPENCODE_DISABLE_AUTOUPDATE: '1'}
    const stderrs: string[] = []
    for (const [i, prompt] of PROMPTS.entries()) {
      const r = await run(hostBin('opencode'), ['run', ...(i > 0 ? ['--continue'] : []), prompt], {cwd: s.root, env})
      expect(r.status, r.stderr + r.stdout).toBe(0)
      stderrs.push(r.stderr)
    }
    const chats = s.fake.requests.filter((r) => r.path.endsWith('/chat/completions'))
    const main = chats.filter((r) => JSON.stringify(r.body.tools ?? []).includes('memory_recall'))
    assertSession(s, main, {stopReminder: false})
    // OpenCode's own calls (the title generator) carry nothing of mem's
    const side = chats.filter((r) => !main.includes(r))
    expect(side.length).toBeGreaterThan(0)
    for (const r of side) expect(r.text).not.toMatch(/\[Memory: |Memories relevant to this prompt/)
    // no warning or error (OpenCode prints the transcript on stderr)
    for (const e of stderrs) expect(e).not.toMatch(/warn|error|fail/i)
    if (!laid) keepUserDeps(config)
    assertUninstall(s, 'opencode', ['.opencode/.gitignore', '.opencode/node_modules', '.opencode/package-lock.json', '.opencode/package.json'])
  }, 240_000)
})
