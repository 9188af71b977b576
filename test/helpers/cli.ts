import {spawn, spawnSync} from 'node:child_process'
import {mkdirSync} from 'node:fs'
import {join} from 'node:path'
import {tempDir} from './mem.js'

export const BIN = join(import.meta.dirname, '..', '..', 'bin', 'run.js')

export interface CliResult {
  code: number
  stdout: string
  stderr: string
  json: () => any
}

function cliEnv(home: string, env?: Record<string, string>): NodeJS.ProcessEnv {
  return {...process.env, MEM_HOME: home, NO_COLOR: '1', FORCE_COLOR: '0', MEM_REPO: '', ...env}
}

/** Runs the built CLI as a user would, in `cwd`, with a private MEM_HOME. */
export function runCli(args: string[], opts: {cwd: string; home: string; input?: string; env?: Record<string, string>}): CliResult {
  const r = spawnSync(process.execPath, [BIN, ...args], {
    cwd: opts.cwd,
    input: opts.input ?? '',
    encoding: 'utf8',
    env: cliEnv(opts.home, opts.env),
    timeout: 60_000,
  })
  return {
    code: r.status ?? -1,
    stdout: r.stdout,
    stderr: r.stderr,
    json: () => JSON.parse(r.stdout),
  }
}

/** The built CLI without blocking this process (a server in it, such as a fake runtime, must answer meanwhile). */
export function runCliAsync(args: string[], opts: {cwd: string; home: string}): Promise<{code: number; stdout: string; stderr: string}> {
  return new Promise((resolve) => {
    const child = spawn(process.execPath, [BIN, ...args], {cwd: opts.cwd, env: cliEnv(opts.home)})
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (d) => (stdout += d))
    child.stderr.on('data', (d) => (stderr += d))
    child.on('close', (code) => resolve({code: code ?? -1, stdout, stderr}))
  })
}

/** A temp git repo and MEM_HOME with the CLI bound to them, blocking (`mem`) and not (`memAsync`). */
export function cliRepo() {
  const base = tempDir()
  const root = join(base, 'app')
  const home = join(base, 'home')
  mkdirSync(join(root, '.git'), {recursive: true})
  mkdirSync(home, {recursive: true})
  const mem = (args: string[]) => runCli(args, {cwd: root, home})
  const memAsync = (args: string[]) => runCliAsync(args, {cwd: root, home})
  return {root, home, mem, memAsync}
}
