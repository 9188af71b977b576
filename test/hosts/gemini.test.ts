// Gemini CLI (pinned in versions.json) runs mem's hooks and MCP tools: see session.ts.
import {mkdirSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'
import {REAL_HOSTS, hostBin} from './hosts.js'
import {assertSession, assertUninstall, prepare, PROMPTS, run, type Session} from './session.js'

const CONFIG = {
  '.gemini/settings.json': '{\n  "ui": {"theme": "GitHub"}\n}\n',
  'GEMINI.md': '# App\n\nUse tabs.\n',
}

describe(`Gemini CLI ${REAL_HOSTS.gemini.version}, headless, against a fake Gemini API server`, () => {
  let s: Session | undefined
  afterAll(async () => s?.fake.close())

  it("gets the context once, a relevant memory once and only when relevant, mem's tools, a recall answered; uninstall is byte-exact", async () => {
    s = await prepare('gemini', CONFIG)
    // the user's setup: an API key (a dummy) as the auth; and the trust steps mem setup prints: the
    // repository a trusted folder, mem's hooks trusted (as an interactive session records them), and
    // mem's MCP tools allowed for headless runs
    mkdirSync(join(s.home, '.gemini'), {recursive: true})
    writeFileSync(join(s.home, '.gemini', 'settings.json'), JSON.stringify({security: {auth: {selectedType: 'gemini-api-key'}}}))
    mkdirSync(join(s.home, '.gemini', 'policies'))
    writeFileSync(join(s.home, '.gemini', 'policies', 'mem.toml'), '[[rule]]\ntoolName = "mcp_mem_*"\ndecision = "allow"\npriority = 200\n')
    writeFileSync(join(s.home, '.gemini', 'trustedFolders.json'), JSON.stringify({[s.root]: 'TRUST_FOLDER'}))
    writeFileSync(join(s.home, '.gemini', 'trusted_hooks.json'), JSON.stringify({[s.root]: ['mem-context:mem hook session-start --host gemini', 'mem-recall:mem hook prompt --host gemini']}))
    const env = {...s.env, GOOGLE_GEMINI_BASE_URL: s.fake.url, GEMINI_API_KEY: 'test-dummy-key'}
    const stderrs: string[] = []
    for (const [i, prompt] of PROMPTS.entries()) {
      const r = await run(hostBin('gemini'), ['-p', prompt, '--output-format', 'json', ...(i > 0 ? ['--resume', 'latest'] : [])], {cwd: s.root, env})
      expect(r.status, r.stderr + r.stdout).toBe(0)
      stderrs.push(r.stderr)
    }
    const main = s.fake.requests.filter((r) => /GenerateContent$/i.test(r.path) && JSON.stringify(r.body.tools ?? []).includes('memory_recall'))
    // Gemini CLI escapes < and > in what a hook adds
    assertSession(s, main, {stopReminder: false, unescape: (t) => t.replace(/&lt;/g, '<').replace(/&gt;/g, '>')})
    // no warning about mem's configuration (what is left is about this machine: no ripgrep)
    for (const e of stderrs) expect(e.split('\n').filter((l) => l.trim() && !/^Ripgrep is not available/.test(l))).toEqual([])
    assertUninstall(s, 'gemini')
  }, 240_000)
})
