// Codex CLI (pinned in versions.json) runs mem's hooks and MCP tools: see session.ts.
import {mkdirSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'
import {REAL_HOSTS, hostBin} from './hosts.js'
import {assertSession, assertUninstall, prepare, PROMPTS, run, type Session} from './session.js'

const CONFIG = {
  '.codex/config.toml': 'model_reasoning_effort = "low"\n',
  'AGENTS.md': '# Agents\n\n- run `make check` before committing\n',
}

describe(`Codex CLI ${REAL_HOSTS.codex.version}, headless, against a fake OpenAI Responses server`, () => {
  let s: Session | undefined
  afterAll(async () => s?.fake.close())

  it("gets the context once, a relevant memory once and only when relevant, mem's tools, a recall answered, the stop reminder; uninstall is byte-exact", async () => {
    s = await prepare('codex', CONFIG)
    const codexHome = join(s.home, '.codex')
    mkdirSync(codexHome, {recursive: true})
    // the user's config: a provider pointing at the fake model (a dummy key), and the trust step
    // `mem setup codex` prints first: the project trusted (Codex reads its .codex/ only then)
    writeFileSync(
      join(codexHome, 'config.toml'),
      [
        'model = "test-model"',
        'model_provider = "fake"',
        '[model_providers.fake]',
        'name = "fake"',
        `base_url = "${s.fake.url}/v1"`,
        'wire_api = "responses"',
        'env_key = "FAKE_MODEL_KEY"',
        `[projects."${s.root}"]`,
        'trust_level = "trusted"',
        '',
      ].join('\n'),
    )
    const env = {...s.env, CODEX_HOME: codexHome, FAKE_MODEL_KEY: 'test-dummy-key'}
    // the second trust step (/hooks in an interactive codex) cannot be taken headless: the test
    // stands in for it with Codex's own bypass of the hook review
    const common = ['--json', '--dangerously-bypass-hook-trust', '--skip-git-repo-check']
    let thread: string | undefined
    const stderrs: string[] = []
    for (const prompt of PROMPTS) {
      const args = thread ? ['exec', 'resume', ...common, thread, prompt] : ['exec', ...common, prompt]
      const r = await run(hostBin('codex'), args, {cwd: s.root, env})
      expect(r.status, r.stderr + r.stdout).toBe(0)
      thread ??= r.stdout.split('\n').filter(Boolean).map((l) => JSON.parse(l)).find((e) => e.type === 'thread.started')?.thread_id
      expect(thread).toBeTruthy()
      stderrs.push(r.stderr)
    }
    const main = s.fake.requests.filter((r) => r.path.endsWith('/responses') && JSON.stringify(r.body.tools ?? []).includes('memory_recall'))
    assertSession(s, main, {stopReminder: true})
    // no warning about mem's configuration (no deprecated codex_hooks); what is left is about this
    // machine (helper binaries refused under a temporary CODEX_HOME) and stdin
    const about = (l: string) => !/^WARNING: proceeding, even though we could not create PATH aliases: Refusing to create helper binaries under temporary dir/.test(l) && l !== 'Reading additional input from stdin...'
    for (const e of stderrs) expect(e.split('\n').filter((l) => l.trim() && about(l))).toEqual([])
    assertUninstall(s, 'codex')
  }, 240_000)
})
