import {spawnSync} from 'node:child_process'
import {join} from 'node:path'

export const BIN = join(import.meta.dirname, '..', '..', 'bin', 'run.js')

export interface CliResult {
  code: number
  stdout: string
  stderr: string
  json: () => any
}

/** Runs the built CLI as a user would, in `cwd`, with a private MEM_HOME. */
export function runCli(args: string[], opts: {cwd: string; home: string; input?: string; env?: Record<string, string>}): CliResult {
  const r = spawnSync(process.execPath, [BIN, ...args], {
    cwd: opts.cwd,
    input: opts.input ?? '',
    encoding: 'utf8',
    env: {...process.env, MEM_HOME: opts.home, NO_COLOR: '1', FORCE_COLOR: '0', MEM_REPO: '', ...opts.env},
    timeout: 60_000,
  })
  return {
    code: r.status ?? -1,
    stdout: r.stdout,
    stderr: r.stderr,
    json: () => JSON.parse(r.stdout),
  }
}
