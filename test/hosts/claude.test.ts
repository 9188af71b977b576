// Claude Code (pinned in versions.json) runs mem's hooks and MCP tools: see session.ts.
import {writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'
import {REAL_HOSTS, hostBin} from './hosts.js'
import {assertSession, assertUninstall, prepare, PROMPTS, run, type Session} from './session.js'

const CONFIG = {
  '.claude/settings.json': '{\n  "permissions": {\n    "allow": ["Bash(npm test)"]\n  }\n}\n',
  'CLAUDE.md': '# App\n\nUse tabs.\n',
}

describe(`Claude Code ${REAL_HOSTS.claude.version}, headless, against a fake Anthropic Messages server`, () => {
  let s: Session | undefined
  afterAll(async () => s?.fake.close())

  it('gets the context once, a relevant memory once and only when relevant, mem\'s tools, a recall answered, the stop reminder; uninstall is byte-exact', async () => {
    s = await prepare('claude', CONFIG)
    // the user's trust step (the trust dialog of a first interactive session), as Claude Code itself names it
    writeFileSync(join(s.home, '.claude.json'), JSON.stringify({projects: {[s.root]: {hasTrustDialogAccepted: true}}}))
    const env = {...s.env, ANTHROPIC_BASE_URL: s.fake.url, ANTHROPIC_API_KEY: 'sk-ant-test-dummy', CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1', DISABLE_AUTOUPDATER: '1'}
    let sessionId: string | undefined
    const stderrs: string[] = []
    for (const prompt of PROMPTS) {
      const r = await run(hostBin('claude'), ['-p', prompt, '--output-format', 'json', ...(sessionId ? ['--resume', sessionId] : [])], {cwd: s.root, env})
      expect(r.status, r.stderr).toBe(0)
      const out = JSON.parse(r.stdout)
      expect(out.is_error).toBe(false)
      sessionId ??= out.session_id
      expect(out.session_id).toBe(sessionId)
      stderrs.push(r.stderr)
    }
    // the agent's own conversation: the requests that offer its tools
    const main = s.fake.requests.filter((r) => r.path.endsWith('/messages') && Array.isArray(r.body.tools) && r.body.tools.length > 0)
    assertSession(s, main, {stopReminder: true})
    // what the model sees of the Stop reminder (docs/agents.md): mem gives it once a session, and
    // Claude Code ${REAL_HOSTS.claude.version} shows it twice in every request after it (host behaviour)
    const copies = main.map((r) => r.text.split('Before you finish: if this session taught').length - 1)
    expect(copies.filter((n) => n > 0).length).toBeGreaterThan(0)
    expect(new Set(copies.filter((n) => n > 0))).toEqual(new Set([2]))
    // Claude Code defers MCP tools behind ToolSearch: mem's are named in the list of deferred tools
    expect(main[0].text).toContain('mcp__mem__memory_recall')
    // no warning at all, about mem's configuration or anything else
    for (const e of stderrs) expect(e).toBe('')
    assertUninstall(s, 'claude')
  }, 240_000)
})
