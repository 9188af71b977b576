import {spawnSync} from 'node:child_process'
import {mkdirSync} from 'node:fs'
import {join} from 'node:path'
import {Readable, Writable} from 'node:stream'
import {Console} from 'node:console'
import {pathToFileURL} from 'node:url'
import {tempDir} from './mem.js'

export const BIN = join(import.meta.dirname, '..', '..', 'bin', 'run.js')
const DIST_CLI = join(import.meta.dirname, '..', '..', 'dist', 'cli')

export interface CliResult {
  code: number
  stdout: string
  stderr: string
  json: () => any
}

export interface CliOptions {
  cwd: string
  home: string
  /** Standard input (a pipe that ends after it; empty when not given, like spawnSync with `input: ''`). */
  input?: string
  env?: Record<string, string>
}

/** What every CLI run sees on top of this process's environment. */
function cliEnvVars(home: string, env?: Record<string, string>): Record<string, string> {
  return {MEM_HOME: home, NO_COLOR: '1', FORCE_COLOR: '0', MEM_REPO: '', ...env}
}

function cliEnv(home: string, env?: Record<string, string>): NodeJS.ProcessEnv {
  return {...process.env, ...cliEnvVars(home, env)}
}

function result(code: number, stdout: string, stderr: string): CliResult {
  return {code, stdout, stderr, json: () => JSON.parse(stdout)}
}

/** Runs the built CLI as a user would, in `cwd`, with a private MEM_HOME: a real process (bin/run.js). */
export function runCli(args: string[], opts: CliOptions): CliResult {
  const r = spawnSync(process.execPath, [BIN, ...args], {
    cwd: opts.cwd,
    input: opts.input ?? '',
    encoding: 'utf8',
    env: cliEnv(opts.home, opts.env),
    timeout: 60_000,
  })
  return result(r.status ?? -1, r.stdout, r.stderr)
}

// ---- in process -------------------------------------------------------------------------------

/**
 * Commands that serve until a signal (`serve`, `mcp` without --print-config) keep the process: they
 * are tested through runCli/spawn, never in process. (`browse` takes the terminal only when stdout
 * and stdin are TTYs, which they are not here: in process it prints pages, as into a pipe.)
 */
const LONG_RUNNING = new Set(['serve', 'mcp'])

interface CliModules {
  execute: (options: {args: string[]; dir: string}) => Promise<unknown>
  runFast: (argv: string[]) => Promise<boolean>
  runHook: (argv: string[], options: {exit: (code: number) => void}) => Promise<void>
}

let modules: Promise<CliModules> | undefined
/** The built CLI (dist/cli/main.js, the quick path dist/cli/fast.js and the hook entry dist/cli/hook.js), loaded once per test worker. */
function cliModules(): Promise<CliModules> {
  const load = (file: string) => import(/* @vite-ignore */ pathToFileURL(join(DIST_CLI, file)).href)
  modules ??= Promise.all([load('main.js'), load('fast.js'), load('hook.js')]).then(([main, fast, hook]) => ({execute: main.execute, runFast: fast.runFast, runHook: hook.runHook}))
  return modules
}

let queue: Promise<unknown> = Promise.resolve()

/**
 * Runs the built CLI in this process, as bin/run.js would run it in its own: `mem recall` through
 * the quick path when it takes the arguments (dist/cli/fast.js runFast), `mem hook` (but its
 * --help) through the hook entry (dist/cli/hook.js runHook, whose hard limit's exit is recorded
 * like process.exit), anything else through oclif's `execute` over the package root
 * (dist/cli/main.js, the bundle a user runs). Returns what
 * `runCli` returns: the exit code, stdout, stderr.
 *
 * For the length of the run it stands in for the process: the working directory (process.chdir),
 * the environment (MEM_HOME, MEM_REPO='', NO_COLOR, plus `env`), process.argv, standard input (a
 * pipe holding `input`), stdout and stderr (process.stdout/stderr.write and the global console,
 * which oclif prints through, captured; neither is a TTY), process.exitCode and process.exit
 * (recorded, not obeyed: oclif's error handler calls it last, after printing). Everything is put
 * back in `finally`. Runs are serialized: a second call waits for the first to end.
 *
 * What stays per process in a real run stays per run here: each command opens its context and
 * closes it (flushing writes, releasing locks) in MemCommand.finally, and the quick path does the
 * same. What the loaded bundle keeps between runs is what never depends on the run: sql.js's
 * compiled WebAssembly, the tokenizer and thesaurus tables, the secret scanner's rules, the
 * package version.
 *
 * Node's own warnings (process.emitWarning) go to the run's stderr as a fresh process prints them.
 *
 * Limits: `serve` and `mcp` (stdio) are refused (they wait for a signal or for stdin to close:
 * run them with runCli/spawn); a command must not leave timers that call process.exit after it
 * returns (none does: `intake --time-limit` clears its own); the working directory is changed
 * with process.chdir, which needs the forks pool (worker threads cannot chdir); the V8 flags
 * bin/run.js sets for speed are not set; what a command prints from a timer it leaves running
 * after it returns is not captured (none does: a CLI context is closed before the command ends).
 */
export function runCliInProcess(args: string[], opts: CliOptions): Promise<CliResult> {
  if (LONG_RUNNING.has(args[0]) && !args.includes('--print-config') && !args.includes('--help')) {
    return Promise.reject(new Error(`mem ${args[0]} serves until stopped: run it in its own process (runCli)`))
  }
  const run = queue.then(() => invoke(args, opts))
  queue = run.catch(() => undefined)
  return run
}

async function invoke(args: string[], opts: CliOptions): Promise<CliResult> {
  const {execute, runFast, runHook} = await cliModules()
  const out: string[] = []
  const err: string[] = []
  const restore: Array<() => void> = []
  let exitRequested: number | undefined
  try {
    // environment
    for (const [key, value] of Object.entries(cliEnvVars(opts.home, opts.env))) {
      const had = Object.prototype.hasOwnProperty.call(process.env, key)
      const before = process.env[key]
      process.env[key] = value
      restore.push(() => {
        if (had) process.env[key] = before
        else delete process.env[key]
      })
    }
    // working directory and argv
    const cwd = process.cwd()
    process.chdir(opts.cwd)
    restore.push(() => process.chdir(cwd))
    const argv = process.argv
    process.argv = [process.execPath, BIN, ...args]
    restore.push(() => (process.argv = argv))
    // standard input: a pipe that holds `input` and ends
    const stdin = Object.getOwnPropertyDescriptor(process, 'stdin')!
    Object.defineProperty(process, 'stdin', {value: Readable.from(opts.input ? [Buffer.from(opts.input)] : []), configurable: true, enumerable: true})
    restore.push(() => Object.defineProperty(process, 'stdin', stdin))
    // stdout and stderr: captured, not terminals (a command checks isTTY for colour and progress)
    for (const [stream, chunks] of [
      [process.stdout, out],
      [process.stderr, err],
    ] as const) {
      // oclif's flush() waits for a 'drain' the captured stream never emits: its listener goes with the run
      const listeners = new Set(stream.listeners('drain'))
      restore.push(() => {
        for (const l of stream.listeners('drain')) if (!listeners.has(l)) stream.off('drain', l as () => void)
      })
      const own = ['write', 'isTTY', 'columns', 'rows'].map((k) => [k, Object.getOwnPropertyDescriptor(stream, k)] as const)
      Object.assign(stream, {write: capture(chunks), isTTY: false, columns: undefined, rows: undefined})
      restore.push(() => {
        for (const [k, d] of own) {
          if (d) Object.defineProperty(stream, k, d)
          else delete (stream as unknown as Record<string, unknown>)[k]
        }
      })
    }
    const savedConsole = globalThis.console
    globalThis.console = new Console({stdout: sink(out), stderr: sink(err), colorMode: false})
    restore.push(() => (globalThis.console = savedConsole))
    // oclif keeps what it read of stdin for an omitted argument in globalThis.oclif.stdinCache: one
    // process, one stdin; here each run has its own
    const g = globalThis as {oclif?: unknown}
    const oclifGlobal = g.oclif
    g.oclif = undefined
    restore.push(() => (g.oclif = oclifGlobal))
    // exit codes
    const exitCode = process.exitCode
    process.exitCode = undefined
    restore.push(() => (process.exitCode = exitCode))
    const exit = process.exit
    process.exit = ((code?: number | string | null) => {
      exitRequested ??= Number(code ?? process.exitCode ?? 0)
    }) as typeof process.exit
    restore.push(() => (process.exit = exit))
    // node's own warnings (process.emitWarning, e.g. oclif's UnparsedCommand under NODE_ENV=test) as a
    // fresh process prints them on stderr: the hint to --trace-warnings after its first one
    const nodeWarnings = process.listeners('warning')
    process.removeAllListeners('warning')
    let hinted = false
    const onWarning = (w: Error & {code?: string}) => {
      err.push(`(node:${process.pid}) ${w.code ? `[${w.code}] ` : ''}${w.name}: ${w.message}\n`)
      if (!hinted) err.push(`(Use \`node ${w.name === 'DeprecationWarning' ? '--trace-deprecation' : '--trace-warnings'} ...\` to show where the warning was created)\n`)
      hinted = true
    }
    process.on('warning', onWarning)
    restore.push(() => {
      process.off('warning', onWarning)
      for (const l of nodeWarnings) process.on('warning', l)
    })

    try {
      // as bin/run.js: a plain `mem recall` is answered without oclif
      const done = args[0] === 'recall' && (await runFast(args))
      const hooked =
        args[0] === 'hook' &&
        !args.includes('--help') &&
        !args.includes('-h') &&
        (await runHook(args, {exit: (code) => void (exitRequested ??= code)}), true)
      if (!done && !hooked) await execute({args, dir: BIN})
    } catch (e) {
      // what node does with an error nothing caught: print it, exit 1
      err.push(`${(e as Error)?.stack ?? e}\n`)
      exitRequested ??= 1
    }
    // a warning is emitted on the next tick: it belongs to this run, not the next
    await new Promise((r) => setImmediate(r))
    const code = exitRequested ?? Number(process.exitCode ?? 0)
    return result(code, out.join(''), err.join(''))
  } finally {
    for (const undo of restore.reverse()) undo()
  }
}

function capture(chunks: string[]) {
  return (chunk: string | Uint8Array, encoding?: BufferEncoding | ((e?: Error | null) => void), cb?: (e?: Error | null) => void): boolean => {
    if (typeof encoding === 'function') cb = encoding
    chunks.push(typeof chunk === 'string' ? chunk : Buffer.from(chunk).toString('utf8'))
    if (cb) process.nextTick(cb)
    return true
  }
}

function sink(chunks: string[]): Writable {
  return new Writable({
    decodeStrings: false,
    write(chunk: string | Buffer, _encoding, cb) {
      chunks.push(typeof chunk === 'string' ? chunk : chunk.toString('utf8'))
      cb()
    },
  })
}

/**
 * A temp git repo and MEM_HOME with the CLI bound to them: `mem` runs in this process
 * (runCliInProcess), `memProcess` in a real one (runCli).
 */
export function cliRepo() {
  const base = tempDir()
  const root = join(base, 'app')
  const home = join(base, 'home')
  mkdirSync(join(root, '.git'), {recursive: true})
  mkdirSync(home, {recursive: true})
  const mem = (args: string[], extra: {input?: string; env?: Record<string, string>} = {}) => runCliInProcess(args, {cwd: root, home, ...extra})
  const memProcess = (args: string[]) => runCli(args, {cwd: root, home})
  return {base, root, home, mem, memProcess}
}
