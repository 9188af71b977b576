/**
 * The quick way in for the commands agents and hooks run most, one call after another
 * (`mem recall`): the same core call, output, errors and exit codes as the oclif command, without
 * loading oclif (about 85 ms of a command's start on this machine). Only plain invocations are
 * taken: anything else (help, an unknown or repeated flag, a value oclif would refuse, a missing
 * argument) returns false and goes through oclif, which answers it exactly as before.
 * MEM_CLI_FAST=0 turns this off.
 */
import {parseArgs, type ParseArgsConfig} from 'node:util'
import {errorBody, errorText, exitCodeOf, MemError} from '../../model/errors.js'
import {findRepoRoot} from '../../config/paths.js'
import type {MemRuntime} from '../../runtime/open-mem.js'
import {MEMORY_TYPES} from '../../model/memory.js'
import {RECALL_LIMITS} from '../../model/inputs.js'
import {precompileSqlJs} from '../../storage/sqljs.js'
import {RECALL_INDEX_FILE} from '../../storage/recall-index.js'
import {existsSync} from 'node:fs'
import {join} from 'node:path'
import {IndexRefresher} from './index-refresh.js'
export {runIndexRefresh} from './index-refresh.js'

interface Invocation {
  positionals: string[]
  values: Record<string, string | boolean | undefined>
  json: boolean
}

type Runner = (mem: MemRuntime, repo: string, call: Invocation) => Promise<{text: string; result: unknown}>

interface FastCommand {
  options: NonNullable<ParseArgsConfig['options']>
  positionals: number
  /** False when oclif would refuse or treat the values differently. */
  accepts(values: Invocation['values']): boolean
  run: Runner
}

const INTEGER = /^\d{1,9}$/

const COMMANDS: Record<string, FastCommand> = {
  recall: {
    options: {limit: {type: 'string', short: 'n'}, type: {type: 'string', short: 't'}},
    positionals: 1,
    accepts: (v) =>
      (v.limit === undefined || INTEGER.test(v.limit as string)) && (v.type === undefined || (MEMORY_TYPES as readonly string[]).includes(v.type as string)),
    async run(mem, repo, {positionals: [q], values}) {
      const [{recallCall}, {invoke}, {formatRecall}] = await Promise.all([import('../../operations/recall.js'), import('../../operations/define.js'), import('./format.js')])
      const result = await invoke(mem, recallCall, {
        repo,
        q,
        limit: values.limit === undefined ? RECALL_LIMITS.defaultLimit : Number(values.limit),
        type: values.type as (typeof MEMORY_TYPES)[number] | undefined,
      })
      return {text: formatRecall(result.results, q), result}
    },
  },
}

/** The commands this module may take (bin/run.js imports it only for these). */
export const FAST_COMMANDS = Object.keys(COMMANDS)

/** Parses `argv` (after the node and script paths) the way oclif would, or returns null to leave it to oclif. */
export function parseFast(argv: string[]): {command: FastCommand; call: Invocation} | null {
  const command = COMMANDS[argv[0]]
  if (!command) return null
  const rest = argv.slice(1)
  if (rest.includes('--')) return null
  let parsed
  try {
    parsed = parseArgs({
      args: rest,
      options: {...command.options, repo: {type: 'string'}, json: {type: 'boolean'}, help: {type: 'boolean', short: 'h'}},
      allowPositionals: true,
      strict: true,
      tokens: true,
    })
  } catch {
    return null // unknown flag, missing value: oclif words the error
  }
  const names = parsed.tokens.filter((t) => t.kind === 'option').map((t) => t.name)
  if (new Set(names).size !== names.length || parsed.values.help) return null
  if (parsed.positionals.length !== command.positionals) return null
  const values = parsed.values as Invocation['values']
  // a value that looks like a flag is read by oclif as the next flag (`--limit --json`)
  for (const t of parsed.tokens) if (t.kind === 'option' && typeof t.value === 'string' && t.value.startsWith('-')) return null
  if (!command.accepts(values)) return null
  return {command, call: {positionals: parsed.positionals, values, json: values.json === true}}
}

/**
 * Runs `argv` if it is a plain invocation of a fast command and returns true; returns false
 * (having done nothing) otherwise. Output, errors and exit codes are those of MemCommand.
 */
export async function runFast(argv: string[]): Promise<boolean> {
  if (process.env.MEM_CLI_FAST === '0') return false
  const found = parseFast(argv)
  if (!found) return false
  const {command, call} = found
  let mem: MemRuntime | undefined
  let failed: unknown
  const refresher = new IndexRefresher()
  try {
    const flag = (call.values.repo as string | undefined) ?? process.env.MEM_REPO
    const repo = flag && flag.trim() ? flag : findRepoRoot(process.cwd())
    // remote mode (docs/team.md) goes through oclif's command, which routes to the team server: this
    // path stays local only, at the cost of one stat
    if (process.env.MEM_SERVER?.trim() || existsSync(join(repo, '.mem', 'remote.json'))) return false
    // every fast command opens a store: sqlite's WebAssembly compiles while the rest starts up,
    // unless the store has a recall index (storage/recall-index.ts), which answers without sqlite
    // (a compile would only hold the process at exit); a stale index costs the overlap only
    if (!existsSync(join(repo, '.mem', RECALL_INDEX_FILE))) precompileSqlJs()
    const {openMem} = await import('../../runtime/open-mem.js')
    mem = openMem({env: process.env, cwd: process.cwd(), usage: {elapsed: () => Number(process.hrtime.bigint()) / 1e6}, onRecallIndexBehind: refresher.note, onNotice: (m) => process.stderr.write(`${m}\n`)})
    const {text, result} = await command.run(mem, repo, call)
    process.stdout.write(call.json ? `${JSON.stringify(result, null, 2)}\n` : `${text}\n`)
  } catch (err) {
    failed = err
    report(err, call.json)
  }
  try {
    await mem?.close()
  } catch (err) {
    if (!failed) report(err, call.json)
  }
  refresher.start()
  return true
}

function report(err: unknown, json: boolean): void {
  const body = errorBody(err)
  process.exitCode = exitCodeOf(err)
  if (json) process.stdout.write(`${JSON.stringify(body, null, 2)}\n`)
  else process.stderr.write(errorText(body))
  if (!(err instanceof MemError) && process.env.DEBUG?.includes('mem')) process.stderr.write(`${(err as Error)?.stack ?? err}\n`)
}
