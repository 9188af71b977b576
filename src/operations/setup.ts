/**
 * `mem setup <host>`: writes a host's project configuration (hook entries, the MCP server entry,
 * the agent-instructions block) into the repository, merged into the files already there, and takes
 * it out again. Idempotent: a second run changes nothing. Reversible byte for byte: the first
 * install keeps each file's original bytes in this machine's hook folder (MEM_HOME/hooks/<repo
 * key>/setup/, never in the repository), and an uninstall that leaves a file as it was then (same
 * JSON, same text) writes those bytes back; a file changed meanwhile keeps the changes and loses
 * only mem's part.
 *
 * The repository is untrusted input (issue 28): before anything is read or written, every path
 * setup would touch is checked, and a symlink on the way whose target leaves the repository (a
 * `CLAUDE.md` or `.claude/` pointing at a file or folder elsewhere) refuses the whole run.
 */
import {existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, realpathSync, rmdirSync, rmSync, writeFileSync} from 'node:fs'
import {dirname, join} from 'node:path'
import {MemError} from '../model/errors.js'
import {isDirectory, realPathIn} from '../config/paths.js'
import type {MemContext} from '../engines/context.js'
import {HOOK_EVENTS, HOST_SPECS, HOSTS, type HookEvent, type HostId} from '../engines/agents/hosts.js'
import {hostFiles, SetupConflict, unifiedDiff, type FilePlan, type Templates} from '../engines/agents/setup-plan.js'
import {hookStateDir, readSetupBackup, removeSetupBackup, writeSetupBackup, type SetupBackup} from '../storage/hook-state.js'

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
  /** After an uninstall: files the host itself put into folders setup made, which setup leaves (they are not its own). */
  leftBehind: string[]
  /** What the user must do once before the host runs mem's hooks and MCP server. */
  trust: string[]
  /** The events the host gets a hook for (host's event name), and those it has none for, with why. */
  hooked: Array<{event: HookEvent; hostEvent: string}>
  missing: Array<{event: HookEvent; why: string}>
}

/**
 * Refuses (conflict, nothing read or written) when a path setup would touch goes through a
 * symlink out of the repository: each part of `rel` that exists is checked, and a symlink must
 * resolve inside the repository's real path.
 */
function refuseOutside(root: string, realRoot: string, rel: string): void {
  const parts = rel.split('/')
  for (let i = 1; i <= parts.length; i++) {
    const part = parts.slice(0, i).join('/')
    const abs = join(root, part)
    let link: boolean
    try {
      link = lstatSync(abs).isSymbolicLink()
    } catch {
      return // not there: nothing below it is either
    }
    if (!link) continue
    // a dangling link (real null): where a write would land is not known
    const {real: target, inside} = realPathIn(realRoot, abs)
    if (!inside) {
      throw new MemError('conflict', `${part} is a symlink to ${target ?? 'a path that does not exist'}, outside the repository; mem setup writes only inside the repository, so it wrote nothing.`, {
        hint: `Replace ${part} with a real ${i === parts.length ? 'file' : 'folder'} (or remove the link), then run mem setup again.`,
        details: {path: part, target: target ?? null},
      })
    }
  }
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
  const realRoot = realpathSync(root)
  // every file setup reads or writes for this host, and for the other hosts whose files it reads (a shared instructions file)
  for (const rel of new Set(HOSTS.flatMap((h) => hostFiles(h, input.templates).map((p) => p.path)))) refuseOutside(root, realRoot, rel)
  if (!ctx.home) throw new MemError('unavailable', 'mem setup needs MEM_HOME to keep the original files in.', {hint: 'Set MEM_HOME, or run it as the user whose home holds mem\'s config.'})
  const stateDir = hookStateDir(ctx.home, root)
  const backup: SetupBackup = readSetupBackup(stateDir, input.host)
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
  const leftBehind: string[] = []
  if (!dryRun) {
    if (input.uninstall) {
      // the folders setup created, deepest first, if nothing else is in them now; what the host put
      // there is not setup's to delete: it is reported
      const ownFolders = new Set(backup.dirs)
      for (const d of [...ownFolders].sort((a, b) => b.length - a.length)) {
        let entries: string[]
        try {
          entries = readdirSync(join(root, d))
        } catch {
          continue // gone already
        }
        if (entries.length === 0) rmdirSync(join(root, d))
        else for (const e of entries.sort()) if (!ownFolders.has(`${d}/${e}`)) leftBehind.push(`${d}/${e}`)
      }
      removeSetupBackup(stateDir, input.host)
    } else if (files.some((f) => f.action === 'create' || f.action === 'update')) {
      writeSetupBackup(stateDir, input.host, backup)
    }
  }
  const spec = HOST_SPECS[input.host]
  return {host: input.host, name: spec.name, root, uninstall: input.uninstall === true, dryRun, files, leftBehind, trust: spec.trust, ...hostEvents(input.host)}
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
