/**
 * `mem browse` in a real terminal: tmux runs a shell at 80×24, the test types with send-keys and
 * reads the screen with capture-pane. It needs tmux (CI installs it); without it the test fails.
 */
import {execFileSync, spawnSync} from 'node:child_process'
import {mkdirSync, mkdtempSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {store} from '../../src/operations/store.js'
import {openMem} from '../../src/runtime/open-mem.js'
import {BIN} from '../helpers/cli.js'

const SOCKET = `mem-test-${process.pid}`
const PROMPT = 'memtest$ '

function tmux(...args: string[]): string {
  return execFileSync('tmux', ['-L', SOCKET, '-f', '/dev/null', ...args], {encoding: 'utf8'})
}

/** Each test fails (never skips) where tmux is missing. */
function requireTmux(): void {
  if (spawnSync('tmux', ['-V']).status !== 0) {
    throw new Error('tmux is not installed: these tests drive `mem browse` in tmux (apt-get install -y tmux).')
  }
}

interface Shell {
  name: string
  screen(opts?: {escapes?: boolean}): string
  flag(format: string): string
  keys(...keys: string[]): void
  text(text: string): void
  waitFor(check: (screen: string) => boolean, what: string): Promise<string>
}

let count = 0

/** A shell in a fresh 80×24 tmux session, with a clean environment (no CI variables). */
function shell(cwd: string, env: Record<string, string>): Shell {
  requireTmux()
  const name = `s${++count}`
  const vars = Object.entries({
    PATH: process.env.PATH ?? '/usr/bin:/bin',
    HOME: process.env.HOME ?? '/tmp',
    TERM: 'xterm-256color',
    PS1: PROMPT,
    ...env,
  }).map(([k, v]) => `${k}=${v}`)
  tmux('new-session', '-d', '-s', name, '-x', '80', '-y', '24', '-c', cwd, 'env', '-i', ...vars, 'bash', '--norc', '--noprofile')
  const sh: Shell = {
    name,
    screen: ({escapes = false} = {}) => tmux('capture-pane', '-p', ...(escapes ? ['-e'] : []), '-t', name),
    flag: (format) => tmux('display-message', '-p', '-t', name, format).trim(),
    keys: (...keys) => void tmux('send-keys', '-t', name, ...keys),
    text: (text) => void tmux('send-keys', '-t', name, '-l', text),
    async waitFor(check, what) {
      const deadline = Date.now() + 15_000
      let last = ''
      while (Date.now() < deadline) {
        last = sh.screen()
        if (check(last)) return last
        await new Promise((r) => setTimeout(r, 50))
      }
      throw new Error(`timed out waiting for ${what}; screen:\n${last}`)
    },
  }
  return sh
}

const lastLine = (screen: string) => screen.trimEnd().split('\n').at(-1) ?? ''

describe('mem browse in a terminal (tmux)', () => {
  let base: string
  let root: string
  let home: string
  /** A second repo of 5 memories for the tests that forget (the first one keeps its 30). */
  let small: string
  const browse = `${process.execPath} ${BIN} browse`

  beforeAll(async () => {
    base = mkdtempSync(join(tmpdir(), 'mem-tmux-'))
    root = join(base, 'repo')
    home = join(base, 'home')
    mkdirSync(join(root, '.git'), {recursive: true})
    const ctx = openMem({home, cwd: root})
    for (let i = 0; i < 30; i++) {
      const content = i === 3 ? 'integration tests need docker running: npm run test:int' : `note ${i}: the cache layer ${['evicts', 'warms', 'shards', 'pins'][i % 4]} entry group ${i * 7}`
      await store(ctx, {repo: root, content, type: (['observation', 'insight', 'procedure', 'heuristic'] as const)[i % 4], tags: ['t']})
    }
    await ctx.close()
    small = join(base, 'small')
    mkdirSync(join(small, '.git'), {recursive: true})
    const other = openMem({home, cwd: small})
    for (const word of ['alpha', 'bravo', 'charlie', 'delta', 'echo']) {
      await store(other, {repo: small, content: `the ${word} service restarts when its config changes`, type: 'observation'})
    }
    await other.close()
  })

  afterAll(() => {
    spawnSync('tmux', ['-L', SOCKET, 'kill-server'])
    if (base) rmSync(base, {recursive: true, force: true})
  })

  it('starts on the alternate screen, searches, opens a memory, and q restores the terminal', async () => {
    const sh = shell(root, {MEM_HOME: home})
    await sh.waitFor((s) => s.includes(PROMPT.trimEnd()), 'the shell prompt')
    sh.text(browse)
    sh.keys('Enter')
    let screen = await sh.waitFor((s) => s.includes('mem browse · 1–19 of 30'), 'the first screen')
    expect(sh.flag('#{alternate_on}')).toBe('1')
    expect(screen).not.toContain(PROMPT.trimEnd())
    for (const line of screen.split('\n')) expect([...line].length).toBeLessThanOrEqual(80)
    expect(lastLine(screen)).toContain('q quit')

    sh.keys('/')
    sh.text('docker')
    screen = await sh.waitFor((s) => /search "docker": \d+ results?/.test(s), 'search results')
    expect(screen.split('\n')[2]).toContain('integration tests need docker')
    sh.keys('Enter')
    sh.keys('Enter')
    screen = await sh.waitFor((s) => s.includes('── content ──'), 'the detail pane')
    expect(screen).toMatch(/^type +heuristic$/m)
    sh.keys('Escape')
    await sh.waitFor((s) => !s.includes('── content ──') && s.includes('search "docker"'), 'the list again')

    sh.keys('q')
    screen = await sh.waitFor((s) => lastLine(s) === PROMPT.trimEnd(), 'the shell prompt after quitting')
    expect(sh.flag('#{alternate_on}')).toBe('0')
    expect(sh.flag('#{cursor_flag}')).toBe('1')
    // the main screen is as it was: the command line, then the prompt; the app's screen is gone
    expect(screen).toContain(`${PROMPT}${browse}`)
    expect(screen).not.toContain('mem browse ·')
    // the terminal is back in cooked mode: a typed command runs
    sh.text('echo back-$((40+2))')
    sh.keys('Enter')
    await sh.waitFor((s) => s.includes('back-42'), 'the shell to run a command')
  })

  it('Ctrl-C leaves cleanly too, and Esc quits from the list', async () => {
    for (const quit of ['C-c', 'Escape']) {
      const sh = shell(root, {MEM_HOME: home})
      await sh.waitFor((s) => s.includes(PROMPT.trimEnd()), 'the shell prompt')
      sh.text(browse)
      sh.keys('Enter')
      await sh.waitFor((s) => s.includes('mem browse · 1–19 of 30'), 'the first screen')
      sh.keys(quit)
      await sh.waitFor((s) => lastLine(s) === PROMPT.trimEnd(), `the prompt after ${quit}`)
      expect(sh.flag('#{alternate_on}')).toBe('0')
      expect(sh.flag('#{cursor_flag}')).toBe('1')
    }
  })

  it('Esc after a search clears it and stays on the browser; the next Esc quits', async () => {
    const sh = shell(root, {MEM_HOME: home})
    await sh.waitFor((s) => s.includes(PROMPT.trimEnd()), 'the shell prompt')
    sh.text(browse)
    sh.keys('Enter')
    await sh.waitFor((s) => s.includes('mem browse · 1–19 of 30'), 'the first screen')
    sh.keys('/')
    sh.text('docker')
    await sh.waitFor((s) => /search "docker": \d+ results?/.test(s), 'search results')
    sh.keys('Enter')
    await sh.waitFor((s) => s.split('\n')[1]?.trimEnd() === '/ docker', 'the kept search')
    sh.keys('Escape')
    const screen = await sh.waitFor((s) => s.includes('mem browse · 1–19 of 30'), 'browsing again')
    expect(screen).toContain('/ to search · f to filter')
    expect(sh.flag('#{alternate_on}')).toBe('1')
    sh.keys('Escape')
    await sh.waitFor((s) => lastLine(s) === PROMPT.trimEnd(), 'the prompt after the second Esc')
    expect(sh.flag('#{alternate_on}')).toBe('0')
  })

  it('counts again in the header after a forget', async () => {
    const sh = shell(small, {MEM_HOME: home})
    await sh.waitFor((s) => s.includes(PROMPT.trimEnd()), 'the shell prompt')
    sh.text(browse)
    sh.keys('Enter')
    await sh.waitFor((s) => s.includes('mem browse · 1–5 of 5'), 'the first screen')
    sh.keys('d')
    sh.keys('Enter')
    await sh.waitFor((s) => s.includes('? y/N'), 'the question')
    sh.keys('y')
    const screen = await sh.waitFor((s) => s.includes('mem browse · 1–4 of 4'), 'the new count')
    expect(screen).toContain('Forgot memories/')
    sh.keys('q')
    await sh.waitFor((s) => lastLine(s) === PROMPT.trimEnd(), 'the prompt')
  })

  it('restores the terminal when it is sent SIGTERM', async () => {
    const sh = shell(root, {MEM_HOME: home})
    await sh.waitFor((s) => s.includes(PROMPT.trimEnd()), 'the shell prompt')
    sh.text(browse)
    sh.keys('Enter')
    await sh.waitFor((s) => s.includes('1–19 of 30'), 'the first screen')
    // the browser is the shell's child in this pane
    const shellPid = sh.flag('#{pane_pid}')
    const child = execFileSync('ps', ['-o', 'pid=', '--ppid', shellPid], {encoding: 'utf8'}).trim().split(/\s+/)
    expect(child).toHaveLength(1)
    process.kill(Number(child[0]), 'SIGTERM')
    await sh.waitFor((s) => lastLine(s) === PROMPT.trimEnd(), 'the prompt after SIGTERM')
    expect(sh.flag('#{alternate_on}')).toBe('0')
    expect(sh.flag('#{cursor_flag}')).toBe('1')
  })

  it('redraws on resize', async () => {
    const sh = shell(root, {MEM_HOME: home})
    await sh.waitFor((s) => s.includes(PROMPT.trimEnd()), 'the shell prompt')
    sh.text(browse)
    sh.keys('Enter')
    await sh.waitFor((s) => s.includes('1–19 of 30'), 'the first screen')
    tmux('resize-window', '-t', sh.name, '-x', '100', '-y', '30')
    // the header can be redrawn before the rest of the screen: wait for the whole longer page
    const screen = await sh.waitFor((s) => s.includes('1–25 of 30') && lastLine(s).includes('q quit'), 'a longer page after the resize, with its keys bar')
    expect(screen.trimEnd().split('\n').length).toBeLessThanOrEqual(30)
    sh.keys('q')
    await sh.waitFor((s) => lastLine(s) === PROMPT.trimEnd(), 'the prompt')
  })

  it('hands the terminal to $EDITOR and saves a new version', async () => {
    // a non-interactive editor: it changes the file it is given and exits
    const sh = shell(root, {MEM_HOME: home, EDITOR: 'sed -i s/docker/podman/'})
    await sh.waitFor((s) => s.includes(PROMPT.trimEnd()), 'the shell prompt')
    sh.text(browse)
    sh.keys('Enter')
    await sh.waitFor((s) => s.includes('1–19 of 30'), 'the first screen')
    sh.keys('/')
    sh.text('docker')
    await sh.waitFor((s) => s.split('\n')[2]?.includes('integration tests need docker'), 'the docker memory')
    sh.keys('Enter')
    sh.keys('Enter')
    await sh.waitFor((s) => s.includes('── content ──'), 'the detail pane')
    sh.keys('e')
    const screen = await sh.waitFor((s) => s.includes('Saved a new version'), 'the saved version')
    expect(sh.flag('#{alternate_on}')).toBe('1') // back on the app's screen, redrawn
    await sh.waitFor((s) => s.includes('integration tests need podman running') && s.includes('history (2 versions'), 'the new version')
    expect(screen.split('\n')[0]).toContain('mem browse')
    sh.keys('q')
    await sh.waitFor((s) => lastLine(s) === PROMPT.trimEnd(), 'the prompt')
  })

  it('uses no colour under NO_COLOR, and colour otherwise', async () => {
    const sgr = (screen: string) => [...screen.matchAll(/\u001b\[([0-9;]*)m/g)].map((m) => m[1]).filter((p) => p !== '' && p !== '0')
    for (const noColor of [false, true]) {
      const sh = shell(root, {MEM_HOME: home, ...(noColor ? {NO_COLOR: '1'} : {})})
      await sh.waitFor((s) => s.includes(PROMPT.trimEnd()), 'the shell prompt')
      sh.text(browse)
      sh.keys('Enter')
      await sh.waitFor((s) => s.includes('1–19 of 30'), 'the first screen')
      sh.keys('i')
      sh.keys('C-u')
      sh.text('7')
      sh.keys('Enter')
      await sh.waitFor((s) => s.includes('! Importance is a number'), 'the error line')
      const styles = sgr(sh.screen({escapes: true}))
      const colours = styles.filter((p) => p.split(';').some((n) => /^(3[0-8]|4[0-8]|9\d|10\d|2|7)$/.test(n)))
      if (noColor) expect(colours).toEqual([])
      else expect(colours.length).toBeGreaterThan(0)
      sh.keys('Escape')
      sh.keys('q')
      await sh.waitFor((s) => lastLine(s) === PROMPT.trimEnd(), 'the prompt')
    }
  })

  it('prints pages on a terminal under --json or CI, without the browser', async () => {
    const sh = shell(root, {MEM_HOME: home})
    await sh.waitFor((s) => s.includes(PROMPT.trimEnd()), 'the shell prompt')
    sh.text(`${browse} --take 2 --json | head -c 300; echo; echo done-json`)
    sh.keys('Enter')
    let screen = await sh.waitFor((s) => /^done-json$/m.test(s), 'the JSON page')
    expect(screen).toContain('"skip": 0')
    sh.text('clear')
    sh.keys('Enter')
    sh.text(`${browse} --take 1 --json`)
    sh.keys('Enter')
    screen = await sh.waitFor((s) => /\n\}\n/.test(s) && lastLine(s) === PROMPT.trimEnd(), 'the JSON page on the terminal')
    expect(screen).toContain('"links": []')
    sh.text('clear')
    sh.keys('Enter')
    sh.text(`CI=true ${browse} --take 2`)
    sh.keys('Enter')
    screen = await sh.waitFor((s) => s.includes('1–2 of 30 (next: --skip 2)') && lastLine(s) === PROMPT.trimEnd(), 'the text page under CI')
    expect(screen).not.toContain('mem browse ·')
    expect(sh.flag('#{alternate_on}')).toBe('0')
  })
})
