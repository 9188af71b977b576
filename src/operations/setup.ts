/**
 * `mem setup <host>`: writes a host's project configuration (hook entries, the MCP server entry,
 * the agent-instructions block) into the repository, merged into the files already there, and takes
 * it out again. Idempotent: a second run changes nothing. Reversible byte for byte: the first
 * install keeps each file's original bytes under `.mem/hooks/setup/` (never committed), and an
 * uninstall that leaves a file as it was then (same JSON, same text) writes those bytes back; a
 * file changed meanwhile keeps the changes and loses only mem's part.
 */
import {existsSync, mkdirSync, readdirSync, readFileSync, rmdirSync, rmSync, writeFileSync} from 'node:fs'
import {dirname, join} from 'node:path'
import {MemError} from '../model/errors.js'
import {isDirectory} from '../config/paths.js'
import type {MemContext} from '../engines/context.js'
import {HOOK_EVENTS, HOST_SPECS, HOSTS, type HookEvent, type HostId} from '../engines/agents/hosts.js'
import {hostFiles, SetupConflict, unifiedDiff, type FilePlan, type Templates} from '../engines/agents/setup-plan.js'

export interface SetupInput {
  repo: string
  host: HostId
  uninstall?: boolean
  dryRun?: boolean
  templates: Templates
}

export type SetupAction = 'create' | 'update' | 'remove' | 'restore' | 'unchanged' | 'kept' | 'conflict'

export interface SetupFile {
  path: string
  action: SetupAction
  /** The change as a unified diff ('' when nothing changes). */
  diff: string
  note?: string
}

export interface SetupResult {
  host: HostId
  name: string
  root: string
  uninstall: boolean
  dryRun: boolean
  files: SetupFile[]
  /** The events the host gets a hook for (host's event name), and those it has none for, with why. */
  hooked: Array<{event: HookEvent; hostEvent: string}>
  missing: Array<{event: HookEvent; why: string}>
}

interface Backup {
  files: Record<string, {existed: boolean; text?: string}>
  dirs: string[]
}

function backupPath(root: string, host: HostId): string {
  return join(root, '.mem', 'hooks', 'setup', `${host}.json`)
}

function readText(path: string): string | null {
  try {
    return readFileSync(path, 'utf8')
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null
    throw new MemError('unavailable', `Cannot read ${path}: ${(err as Error).message}`)
  }
}

/** What setup makes of a file's text, or undefined when it would refuse it. */
function safeInstall(plan: FilePlan, text: string | null): string | undefined {
  try {
    return plan.install(text)
  } catch {
    return undefined
  }
}

/** Same content: the same JSON document, or the same text but for the whitespace at its end. */
function sameContent(path: string, a: string | null, b: string | null): boolean {
  if (a === b) return true
  if (a === null || b === null) return false
  if (!path.endsWith('.json')) return a.trimEnd() === b.trimEnd()
  try {
    return JSON.stringify(JSON.parse(a)) === JSON.stringify(JSON.parse(b))
  } catch {
    return false
  }
}

/** A file with nothing in it: blank, or an empty JSON object. */
function emptyDocument(text: string): boolean {
  if (!text.trim()) return true
  try {
    const doc = JSON.parse(text)
    return typeof doc === 'object' && doc !== null && !Array.isArray(doc) && Object.keys(doc).length === 0
  } catch {
    return false
  }
}

export function hostEvents(host: HostId): Pick<SetupResult, 'hooked' | 'missing'> {
  const spec = HOST_SPECS[host]
  return {
    hooked: HOOK_EVENTS.filter((e) => spec.events[e]).map((event) => ({event, hostEvent: spec.events[event]!})),
    missing: HOOK_EVENTS.filter((e) => spec.missing[e]).map((event) => ({event, why: spec.missing[event]!})),
  }
}

export async function setup(ctx: MemContext, input: SetupInput): Promise<SetupResult> {
  if (!HOSTS.includes(input.host)) {
    throw new MemError('invalid_input', `Unknown host ${input.host}.`, {hint: `One of ${HOSTS.join(', ')}; \`mem setup --list\` shows what each gets.`})
  }
  const {root} = await ctx.locate(input.repo, 'read')
  if (!isDirectory(root)) throw new MemError('not_found', `No working tree for repo ${input.repo}.`, {hint: 'Run it inside the repository, or pass its path with --repo.'})
  const plans = hostFiles(input.host, input.templates)
  const bpath = backupPath(root, input.host)
  const backup: Backup = JSON.parse(readText(bpath) ?? '{"files":{},"dirs":[]}')
  const files: SetupFile[] = []
  const dryRun = input.dryRun === true
  for (const plan of plans) {
    const abs = join(root, plan.path)
    const before = readText(abs)
    let after: string | null
    let action: SetupAction
    let note: string | undefined
    try {
      if (!input.uninstall) {
        after = plan.install(before)
        action = after === before ? 'unchanged' : before === null ? 'create' : 'update'
      } else if (before === null || !plan.has(before)) {
        after = before
        action = 'unchanged'
      } else if (plan.shared && otherHostKeeps(root, input.host, plan.path, input.templates)) {
        after = before
        action = 'kept'
        note = 'another host set up here still uses it'
      } else {
        after = plan.uninstall(before)
        const original = backup.files[plan.path]
        const was = original ? (original.existed ? (original.text ?? '') : null) : undefined
        // nobody changed the file since setup wrote it (it is what setup makes of the original), or
        // taking mem's part out leaves the original's content: the original bytes come back
        const untouched = was !== undefined && safeInstall(plan, was) === before
        if (was !== undefined && (untouched || sameContent(plan.path, after, was) || (after === null && was !== null && emptyDocument(was)))) {
          // as it was before setup: its original bytes, or no file
          after = original.existed ? (original.text ?? null) : null
          action = after === null ? 'remove' : 'restore'
        } else {
          action = after === null ? 'remove' : 'update'
        }
      }
    } catch (err) {
      if (!(err instanceof SetupConflict)) throw err
      files.push({path: plan.path, action: 'conflict', diff: '', note: err.message})
      continue
    }
    files.push({path: plan.path, action, diff: unifiedDiff(plan.path, before, after), ...(note ? {note} : {})})
    if (dryRun || after === before) continue
    if (!input.uninstall) {
      backup.files[plan.path] ??= before === null ? {existed: false} : {existed: true, text: before}
      for (let d = dirname(plan.path); d !== '.' && !existsSync(join(root, d)); d = dirname(d)) backup.dirs.push(d)
      mkdirSync(dirname(abs), {recursive: true})
    }
    if (after === null) rmSync(abs, {force: true})
    else writeFileSync(abs, after)
  }
  if (!dryRun) {
    if (input.uninstall) {
      // the folders setup created, deepest first, if nothing else is in them now
      for (const d of [...new Set(backup.dirs)].sort((a, b) => b.length - a.length)) {
        try {
          if (readdirSync(join(root, d)).length === 0) rmdirSync(join(root, d))
        } catch {
          // gone already
        }
      }
      rmSync(bpath, {force: true})
    } else if (files.some((f) => f.action === 'create' || f.action === 'update')) {
      mkdirSync(dirname(bpath), {recursive: true})
      try {
        writeFileSync(join(root, '.mem', 'hooks', '.gitignore'), "# per-machine state of mem's agent hooks\n*\n", {flag: 'wx'})
      } catch {
        // already there
      }
      writeFileSync(bpath, JSON.stringify(backup))
    }
  }
  return {host: input.host, name: HOST_SPECS[input.host].name, root, uninstall: input.uninstall === true, dryRun, files, ...hostEvents(input.host)}
}

/** Whether another host's setup (its own files, not the shared one) is in place and uses `path`. */
function otherHostKeeps(root: string, host: HostId, path: string, templates: Templates): boolean {
  return HOSTS.some((other) => {
    if (other === host) return false
    const plans: FilePlan[] = hostFiles(other, templates)
    if (!plans.some((p) => p.path === path)) return false
    return plans.some((p) => {
      if (p.shared) return false
      const text = readText(join(root, p.path))
      return text !== null && p.has(text)
    })
  })
}
