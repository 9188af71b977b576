import {existsSync} from 'node:fs'
import {Command, Flags, type Interfaces} from '@oclif/core'
import {errorBody, errorText, exitCodeOf, MemError} from '../../model/errors.js'
import {resolve} from 'node:path'
import {findRepoRoot, isDrivePath, looksLikePath} from '../../config/paths.js'
import type {MemRuntime} from '../../runtime/open-mem.js'
import {MEMORY_TYPES} from '../../model/memory.js'
import type {OpDef} from '../../operations/define.js'
import {IndexRefresher} from './index-refresh.js'
import {isQueued, queuedText, type QueuedAnswer} from '../remote/queued.js'

export type MemFlags<T extends typeof Command> = Interfaces.InferredFlags<(typeof MemCommand)['baseFlags'] & T['flags']>

/**
 * The one place that knows oclif, the runtime and errors: every command extends it. It opens the
 * context on demand, finds the repo (--repo, MEM_REPO, or the nearest ancestor with .git/.mem),
 * maps a MemError to its exit code and a message with a hint (or `{error, code, hint}` under --json),
 * and closes the context (flushing writes) when the command ends.
 */
export abstract class MemCommand extends Command {
  static enableJsonFlag = true

  static baseFlags = {
    repo: Flags.string({
      summary: 'Repository path or repo id (default: the nearest folder with .git or .mem).',
      env: 'MEM_REPO',
      helpGroup: 'GLOBAL',
    }),
  }

  private ctx: MemRuntime | undefined
  /** Repos whose recall index a recall found behind: rebuilt detached once the command is done. */
  private readonly indexRefresher = new IndexRefresher()

  /** The repository this command works on. */
  protected repoRef(flags: {repo?: string}): string {
    return flags.repo && flags.repo.trim() ? absoluteRepoRef(flags.repo) : findRepoRoot(process.cwd())
  }

  /**
   * The repo a command that takes a memory id looks it up in: `--repo`/MEM_REPO when given (the id
   * must then belong to it), else none, since a full id names its repository. A mounted layer's
   * memory (`memories/layer-<id>/…`) is found through this folder's repository, which mounts it.
   */
  protected idRepoRef(flags: {repo?: string}, id: string): string | undefined {
    if (flags.repo && flags.repo.trim()) return absoluteRepoRef(flags.repo)
    // a short ref (a prefix of the key, no repo segment) names a memory of this folder's repository
    const v = id.trim()
    return v.startsWith('memories/layer-') || !v.startsWith('memories/') ? findRepoRoot(process.cwd()) : undefined
  }

  /**
   * The context, opened on first use; `longLived` for commands that answer many requests (serve,
   * mcp). A `server` context takes no relative repo paths: its clients are elsewhere.
   */
  protected async mem(options: {longLived?: boolean; server?: boolean; local?: boolean} = {}): Promise<MemRuntime> {
    if (!this.ctx) {
      const {openMem} = await import('../../runtime/open-mem.js')
      // remote mode (docs/team.md): a checkout mapped to a team server sends its calls there; a server never does
      const remote = options.server || options.local ? undefined : (await import('../remote/here.js')).remoteRouteHere()
      this.ctx = openMem({
        remote,
        env: process.env,
        cwd: options.server ? undefined : process.cwd(),
        longLived: options.longLived,
        usage: {elapsed: hrtimeMs},
        onRecallIndexBehind: this.indexRefresher.note,
        onNotice: (m) => process.stderr.write(`${m}\n`),
      })
    }
    return this.ctx
  }

  /**
   * Runs a declared operation as every face does (usage counted as declared) and applies its outcome:
   * the exit code its declaration gives (a rejected store exits 5), and for a refused answer its
   * message on stderr (not under --json, where the body says it). Returns the result.
   */
  protected async runOp<I, O, P>(op: OpDef<I, O, P>, input: I, options?: P): Promise<O> {
    const {invoke, outcomeOf} = await import('../../operations/define.js')
    const result = await invoke(await this.mem(), op, input, options)
    if (isQueued(result)) return result // a write waiting in the remote outbox: no answer yet to map
    const outcome = outcomeOf(op, result)
    if (outcome.exit !== 0) this.setExitCode(outcome.exit)
    if (outcome.failed && outcome.message && !this.jsonEnabled()) process.stderr.write(`${outcome.message}\n`)
    return result
  }

  /** A write that waits in the remote outbox (the team server could not be reached): says so, and answers it under --json. */
  protected queued(result: QueuedAnswer): QueuedAnswer {
    this.log(queuedText(result))
    return result
  }

  /** MEM_HOME: the user config (API keys, update check) and the repo registry live there. */
  protected async home(): Promise<string> {
    const {resolveHome} = await import('../../config/home.js')
    return resolveHome(process.env)
  }

  /** Sets the exit code without throwing (for outcomes that are answers, like a rejected store). */
  protected setExitCode(code: number): void {
    process.exitCode = code
  }

  protected override async catch(err: Error & {oclif?: {exit?: number}}): Promise<void> {
    let error: unknown = err
    // oclif's own parse errors (unknown flag, missing argument) are invalid input
    if (!(err instanceof MemError) && err?.oclif && typeof err.message === 'string') {
      // a file whose name starts with "-" reads as a flag: say how to name it
      const flag = /Nonexistent flags?: (-[^\s,]+)/.exec(err.message)?.[1]
      const isFile = flag !== undefined && existsSync(flag)
      error = new MemError('invalid_input', plainParseMessage(err.message), {
        hint: isFile
          ? `${flag} is a file here; a name that starts with "-" reads as a flag: write ./${flag} (or put -- before it).`
          : `Run \`mem ${this.id?.replace(/:/g, ' ') ?? ''} --help\` for usage.`,
      })
    }
    const body = errorBody(error)
    process.exitCode = exitCodeOf(error)
    if (this.jsonEnabled()) {
      this.logJson(body)
    } else {
      process.stderr.write(errorText(body))
    }
    if (!(error instanceof MemError) && process.env.DEBUG?.includes('mem')) process.stderr.write(`${err?.stack ?? err}\n`)
  }

  protected override async finally(err: Error | undefined): Promise<void> {
    const ctx = this.ctx
    this.ctx = undefined
    try {
      await ctx?.close()
    } catch (closeErr) {
      if (!err) await this.catch(closeErr as Error)
    }
    this.indexRefresher.start()
  }
}

/**
 * oclif's parse errors in one plain line, as mem words its own: "Parsing --limit \n\tExpected an
 * integer but received: abc" is "Invalid --limit: expected an integer but received: abc", "The
 * following error occurred:\n  Missing required flag type" is "Missing required flag --type", and
 * "Missing 1 required arg:\nq  The question or keywords." is "Missing the argument q (the question
 * or keywords)". A message of another shape keeps its words, its lines joined.
 */
export function plainParseMessage(message: string): string {
  const lines = message
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && l !== 'See more help with --help')
  const lower = (t: string) => t.charAt(0).toLowerCase() + t.slice(1)
  const parts: string[] = []
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]
    if (/^The following errors? occurred:?$/.test(line)) continue
    const parsing = /^Parsing (--?[\w-]+)$/.exec(line)
    if (parsing && i + 1 < lines.length) {
      parts.push(`Invalid ${parsing[1]}: ${lower(lines[++i])}`)
      continue
    }
    const missingArgs = /^Missing (\d+) required args?:$/.exec(line)
    if (missingArgs) {
      const args = lines.slice(i + 1, i + 1 + Number(missingArgs[1])).map((l) => {
        const space = l.search(/\s/)
        if (space < 0) return l
        const what = l.slice(space).trim()
        return `${l.slice(0, space)} (${lower(what.endsWith('.') ? what.slice(0, -1) : what)})`
      })
      i += args.length
      parts.push(args.length === 1 ? `Missing the argument ${args[0]}` : `Missing the arguments ${args.join(', ')}`)
      continue
    }
    parts.push(line.replace(/^Missing required flag ([\w-]+)$/, 'Missing required flag --$1'))
  }
  return parts.join('; ') || message
}

/**
 * Milliseconds of a monotonic clock for the usage statistics: process.hrtime, not performance.now,
 * since the first use of the global performance loads perf_hooks, which a short command notices.
 */
export function hrtimeMs(): number {
  return Number(process.hrtime.bigint()) / 1e6
}

/** A `--repo` value as given on the command line: a relative path is taken from the working directory. */
export function absoluteRepoRef(value: string): string {
  const v = value.trim()
  return looksLikePath(v) && !isDrivePath(v) ? resolve(process.cwd(), v) : v
}

/** `--type` for commands that filter or set a memory type. */
export const typeFlag = Flags.option({
  options: MEMORY_TYPES,
  char: 't',
  summary: 'Memory type.',
})

export function splitTags(value: string | undefined): string[] | undefined {
  if (value === undefined) return undefined
  return value.split(',').map((t) => t.trim()).filter(Boolean)
}

export function parseNumber(value: string | undefined): number | undefined {
  if (value === undefined) return undefined
  const n = Number(value)
  return value.trim() === '' ? Number.NaN : n
}
