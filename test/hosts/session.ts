// Issue 29: mem's hooks and MCP tools in the real agent hosts (the helpers; a test file per host). Each host's pinned version
// (versions.json, installed into a cache folder by scripts/test-prepare.mjs) runs headless in a
// temporary git repository that already holds the host's config, after `mem setup <host>`, against
// a scripted fake model server on 127.0.0.1 that records every request. A session of four prompts:
//   1. an off-topic question                      → no memory injected
//   2. a question one memory answers              → that memory injected, once
//   3. "RECALL: …"                                → the model calls mem's memory_recall; the answer comes back
//   4. the question of prompt 2 again             → nothing injected a second time
// and then the assertions on what the model received, and `mem setup <host> --uninstall`
// byte for byte. The hosts run one after another within a file, the files side by side.
import {execFileSync, spawn} from 'node:child_process'
import {chmodSync, mkdirSync, readdirSync, readFileSync, readlinkSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {expect} from 'vitest'
import {tempDir, writeTree} from '../helpers/mem.js'
import {PROMPT_MEMORIES, seedFixture} from './fixture.js'
import {startFakeModel, type FakeModel, type Recorded} from './fake-model.js'
import type {RealHost} from './hosts.js'

const BIN = join(import.meta.dirname, '..', '..', 'bin', 'run.js')

export const PROMPTS = [
  'Write a haiku about autumn leaves, please.',
  'How do I run the integration tests, do they need docker?',
  'RECALL: pnpm monorepo install',
  'How do I run the integration tests, do they need docker?',
]

/** Every file of the tree but .git and mem's store, with its bytes; a symbolic link as its target (not followed). */
export function snapshot(root: string, dir = ''): Record<string, string> {
  const out: Record<string, string> = {}
  for (const e of readdirSync(join(root, dir), {withFileTypes: true})) {
    const rel = dir ? `${dir}/${e.name}` : e.name
    if (rel === '.git' || rel === '.mem') continue
    if (e.isSymbolicLink()) out[rel] = `symlink → ${readlinkSync(join(root, rel))}`
    else if (e.isDirectory()) Object.assign(out, snapshot(root, rel))
    else out[rel] = readFileSync(join(root, rel), 'latin1')
  }
  return out
}

export interface HostRun {
  status: number | null
  stdout: string
  stderr: string
}

/** Runs a host command without blocking this process (the fake model answers from it). */
export function run(cmd: string, args: string[], opts: {cwd: string; env: NodeJS.ProcessEnv; timeoutMs?: number}): Promise<HostRun> {
  return new Promise((resolve) => {
    // a process group of its own: the host's children (hooks, `mem mcp`) go with it
    const child = spawn(cmd, args, {cwd: opts.cwd, env: opts.env, stdio: ['ignore', 'pipe', 'pipe'], detached: true})
    let stdout = ''
    let stderr = ''
    let done = false
    child.stdout.on('data', (d) => (stdout += d))
    child.stderr.on('data', (d) => (stderr += d))
    const killGroup = () => {
      try {
        process.kill(-child.pid!, 'SIGKILL')
      } catch {
        // gone already
      }
    }
    const finish = (status: number | null) => {
      if (done) return
      done = true
      clearTimeout(timer)
      killGroup()
      resolve({status, stdout, stderr})
    }
    const timer = setTimeout(killGroup, opts.timeoutMs ?? 90_000)
    child.on('close', (status) => finish(status))
    // a child that keeps the pipes open (an MCP server the host left running) must not hold the test
    child.on('exit', (status) => setTimeout(() => finish(status), 1_500))
  })
}

export interface Session {
  root: string
  home: string
  memHome: string
  env: NodeJS.ProcessEnv
  fake: FakeModel
  /** The repository's files before `mem setup`. */
  before: Record<string, string>
  mem(...args: string[]): string
  refs: Record<keyof typeof PROMPT_MEMORIES, string>
}

/**
 * A temporary git repository holding `files` (the host's own config), the fixture's memories, and
 * `mem setup <host>` run in it; a `mem` on the PATH that runs this working copy; a HOME of its own
 * (the host's user config goes there, never the real one); the fake model started.
 */
export async function prepare(host: RealHost, files: Record<string, string>): Promise<Session> {
  const base = tempDir(`mem-host-${host}-`)
  const root = join(base, 'repo')
  const home = join(base, 'home')
  const memHome = join(base, 'mem-home')
  const bin = join(base, 'bin')
  for (const d of [root, home, memHome, bin]) mkdirSync(d, {recursive: true})
  writeFileSync(join(bin, 'mem'), `#!/bin/sh\nexec "${process.execPath}" "${BIN}" "$@"\n`)
  chmodSync(join(bin, 'mem'), 0o755)
  writeTree(root, files)
  execFileSync('git', ['init', '-q', root])
  const env: NodeJS.ProcessEnv = {
    PATH: `${bin}:${process.env.PATH}`,
    HOME: home,
    MEM_HOME: memHome,
    // the hook's own hard limit (3 s for a prompt) answers nothing on a machine loaded by other work;
    // the tests assert what reaches the model, not timings: the hosts' limits (10 s) still bound it
    MEM_HOOK_TIMEOUT_MS: '9000',
    LANG: 'C.UTF-8',
    TERM: 'xterm-256color',
    COLORTERM: 'truecolor',
    NO_COLOR: '1',
    CI: '1',
    TMPDIR: process.env.TMPDIR ?? '/tmp',
  }
  const mem = (...args: string[]) => execFileSync('mem', args, {cwd: root, env, encoding: 'utf8'})
  // the fixture's memories, stored in this process (test/hosts/fixture.ts); setup, the sessions and
  // uninstall run in processes of their own, as a user's do
  const ids = await seedFixture(root, memHome)
  const refs = Object.fromEntries(Object.entries(ids).map(([name, id]) => [name, id.split('/').pop()!.slice(0, 8)])) as Record<keyof typeof PROMPT_MEMORIES, string>
  const before = snapshot(root)
  mem('setup', host)
  const fake = await startFakeModel()
  return {root, home, memHome, env, fake, before, mem, refs}
}

const count = (text: string, needle: string) => text.split(needle).length - 1

/** mem's own record of what the prompt hook injected in this repository: memory id → times. */
export function injections(s: Session): Record<string, number> {
  const dirs = readdirSync(join(s.memHome, 'hooks')).filter((d) => d !== 'setup')
  expect(dirs).toHaveLength(1)
  let record: Record<string, {n: number}> = {}
  try {
    record = JSON.parse(readFileSync(join(s.memHome, 'hooks', dirs[0], 'injections.json'), 'utf8'))
  } catch {
    // nothing injected
  }
  return Object.fromEntries(Object.entries(record).map(([id, r]) => [id.split('/').pop()!.slice(0, 8), r.n]))
}

/** What every host must show the model (issue 29 item 2); `main` are the requests of the agent's own conversation. */
export function assertSession(s: Session, main: Recorded[], opts: {stopReminder: boolean; unescape?: (t: string) => string}) {
  const un = opts.unescape ?? ((t: string) => t)
  const texts = main.map((r) => un(r.text))
  expect(main.length).toBeGreaterThanOrEqual(PROMPTS.length)
  // the session context: in every request of the conversation, exactly once
  for (const t of texts) expect(count(t, '[Memory: ')).toBe(1)
  // mem's tools are listed
  expect(texts.every((t) => t.includes('memory_recall'))).toBe(true)
  // the docker memory: never in a request twice; first at the prompt about it (not at the off-topic
  // one before it); injected once in the session (the same question again injects nothing)
  const dockerLine = PROMPT_MEMORIES.docker.content
  for (const t of texts) expect(count(t, dockerLine)).toBeLessThanOrEqual(1)
  const firstWith = texts.findIndex((t) => t.includes(dockerLine))
  expect(firstWith).toBeGreaterThan(0)
  expect(texts[firstWith]).toContain(PROMPTS[1])
  expect(texts[firstWith]).toContain('Memories relevant to this prompt (mem)')
  expect(injections(s)[s.refs.docker]).toBe(1)
  expect(s.refs.clock in injections(s)).toBe(false)
  // the recall call was answered with the pnpm memory
  expect(texts.some((t) => t.includes('RECALL:') && t.includes(PROMPT_MEMORIES.pnpm.content))).toBe(true)
  // the stop reminder, where the host has a stop hook
  expect(texts.some((t) => t.includes('Before you finish: if this session taught'))).toBe(opts.stopReminder)
}

/**
 * `mem setup <host> --uninstall` after the session gives back the repository's files byte for byte,
 * but for what the host itself put into folders setup made, which uninstall names (`hostLeft`).
 */
export function assertUninstall(s: Session, host: RealHost, hostLeft: string[] = []) {
  const out = JSON.parse(s.mem('setup', host, '--uninstall', '--json'))
  expect(out.leftBehind).toEqual(hostLeft)
  const after = snapshot(s.root)
  for (const left of hostLeft) for (const k of Object.keys(after)) if (k === left || k.startsWith(`${left}/`)) delete after[k]
  expect(after).toEqual(s.before)
}
