/**
 * Intake: project files → seed memories, through the store's own path (the secret scanner, the
 * content gate and the duplicate check apply to every seed).
 *
 * Each seed remembers its place (`extra.intake = {path, key}`; source `intake:<path>`; tags
 * `intake` and `source:<path>`). A run matches a file's new seeds against the seeds it wrote
 * before, its "current" seeds (not replaced or retired by intake since):
 * 1. same text → skipped (also when a person edited or forgot that memory since: their change stands);
 * 2. same key (section, script, target), different text → the new seed supersedes the live head
 *    of the old one's version chain (a person's edit included: the file changed after it);
 * 3. a new seed with no counterpart → stored;
 * 4. an old seed with no counterpart (its line or the whole file is gone) → forgotten with the
 *    reason `intake: …`, unless a person edited it (then it is theirs and stays).
 * A new seed updates (docs/currency.md) no seed of case 1 — its line is still in the files — nor
 * another seed of the run: lines the files hold at once are all true.
 */
import {MemError} from '../../model/errors.js'
import {MAX_TAG_CHARS, MAX_TAGS} from '../../model/memory.js'
import type {MemContext, RepoHandle} from '../context.js'
import {gate, planStore} from '../gates/admit.js'
import {normalizeForDuplicate} from '../../text/tokenize.js'
import {factShapeOf, withoutSectionLabel} from '../../text/values.js'
import {updateRelation} from '../currency/rules.js'
import type {Db} from '../../storage/db.js'
import {intakeRows, type IntakeRow} from '../../storage/intake.js'
import {getMemory, type Op} from '../../storage/memories.js'
import {hasSecretAssignment, type Seed} from './extract.js'
import {scanProject} from './scan.js'
import type {IntakeResult, IntakeFileReport} from '../../model/shapes/operations.js'
export type {IntakeResult, IntakeFileReport} from '../../model/shapes/operations.js'

export interface IntakeProgress {
  phase: 'scan' | 'write'
  done: number
  total: number
}

export interface IntakeOptions {
  signal?: AbortSignal
  onProgress?: (p: IntakeProgress) => void
}

type Action =
  /** `keep`: the live head of the seed whose text is still in the file (a person's edit of it included) */
  | {kind: 'skip'; keep?: string}
  | {kind: 'create'; seed: Seed}
  | {kind: 'replace'; seed: Seed; headId: string; oldId: string}
  | {kind: 'forget'; headId: string; reason: string}

interface FilePlan {
  path: string
  seeds: number
  actions: Action[]
  /** Seeds past the most a file gives, not read (scan.ts). */
  leftOut?: number
}

function words(text: string): Set<string> {
  return new Set(normalizeForDuplicate(text).split(' ').filter((w) => w.length > 2))
}

/** Whether two seeds' texts share a word of substance (a subject word or a value, not an instruction or a stop word), without their labels. */
function sharesSubstance(a: string, b: string): boolean {
  const [x, y] = [factShapeOf(a), factShapeOf(b)]
  const theirs = new Set([...y.core, ...y.values])
  return [...x.core, ...x.values].some((w) => theirs.has(w))
}

/** How alike two seeds' texts are, read without their labels (the file and section both share). */
function similarity(a: string, b: string): number {
  const x = words(withoutSectionLabel(a))
  const y = words(withoutSectionLabel(b))
  let common = 0
  for (const w of x) if (y.has(w)) common++
  return common / Math.max(1, x.size + y.size - common)
}

/** Follows the version chain from `id` to its newest version. */
function headOf(db: Db, byId: Map<string, IntakeRow>, id: string): {id: string; live: boolean; content: string; edited: boolean} | undefined {
  let cur = byId.get(id) ?? toRow(db, id)
  const start = cur
  for (let hops = 0; cur && cur.supersededBy && hops < 100; hops++) {
    const next = byId.get(cur.supersededBy) ?? toRow(db, cur.supersededBy)
    if (!next) break
    cur = next
  }
  if (!cur || !start) return undefined
  return {id: cur.id, live: cur.forgottenAt === null && cur.supersededBy === null, content: cur.content, edited: cur.id !== start.id}
}

function toRow(db: Db, id: string): IntakeRow | undefined {
  const m = getMemory(db, id)
  if (!m) return undefined
  return {id: m.id, type: m.type, content: m.content, source: m.source, supersedes: m.supersedes, supersededBy: m.supersededBy, forgottenAt: m.forgottenAt, forgetReason: m.forgetReason, seed: null}
}

/** Seeds intake wrote and has not replaced or retired since, by file. */
function currentSeeds(rows: IntakeRow[]): {byId: Map<string, IntakeRow>; byPath: Map<string, IntakeRow[]>} {
  const byId = new Map(rows.map((r) => [r.id, r]))
  const byPath = new Map<string, IntakeRow[]>()
  for (const row of rows) {
    if (!row.seed || row.forgetReason?.startsWith('intake:')) continue
    let replaced = false
    let cur = row
    for (let hops = 0; cur.supersededBy && hops < 100; hops++) {
      const next = byId.get(cur.supersededBy)
      if (!next) break
      if (next.seed) {
        replaced = true
        break
      }
      cur = next
    }
    if (replaced) continue
    const list = byPath.get(row.seed.path) ?? []
    list.push(row)
    byPath.set(row.seed.path, list)
  }
  return {byId, byPath}
}

function planFile(db: Db, byId: Map<string, IntakeRow>, path: string, fresh: Seed[], old: IntakeRow[], fileGone: boolean): FilePlan {
  const actions: Action[] = []
  const seen = new Set<string>()
  const news: Seed[] = []
  for (const seed of fresh) {
    const norm = normalizeForDuplicate(seed.content)
    if (seen.has(norm)) continue
    seen.add(norm)
    news.push(seed)
  }
  const oldByNorm = new Map<string, IntakeRow[]>()
  for (const row of old) {
    const norm = normalizeForDuplicate(row.content)
    oldByNorm.set(norm, [...(oldByNorm.get(norm) ?? []), row])
  }
  const unmatchedOld = new Set(old)
  const unmatchedNew: Seed[] = []
  for (const seed of news) {
    const same = oldByNorm.get(normalizeForDuplicate(seed.content))?.find((r) => unmatchedOld.has(r))
    if (same) {
      unmatchedOld.delete(same)
      const head = headOf(db, byId, same.id)
      actions.push(head?.live ? {kind: 'skip', keep: head.id} : {kind: 'skip'})
    } else unmatchedNew.push(seed)
  }

  // pair what is left within each key: one for one, else by word overlap
  const pairs: Array<[Seed, IntakeRow]> = []
  const keys = new Set(unmatchedNew.map((s) => s.key))
  const pairedNew = new Set<Seed>()
  for (const key of keys) {
    const ns = unmatchedNew.filter((s) => s.key === key)
    const os = [...unmatchedOld].filter((r) => r.seed!.key === key)
    if (os.length === 0) continue
    // a new line and an old one of a place are one rule changed when they say something of one thing:
    // alike words, one word of substance shared where one line went and one came, or the update
    // rules reading the new as the old's update; else the old rule went and another came
    const one = ns.length === 1 && os.length === 1
    const scored = ns
      .flatMap((n) => os.map((o) => ({n, o, s: similarity(n.content, o.content)})))
      .filter((p) => p.s >= 0.2 || (one && sharesSubstance(p.n.content, p.o.content)) || updateRelation(factShapeOf(p.n.content), factShapeOf(p.o.content)) !== null)
    scored.sort((a, b) => b.s - a.s)
    for (const {n, o} of scored) {
      if (pairedNew.has(n) || !unmatchedOld.has(o)) continue
      pairs.push([n, o])
      pairedNew.add(n)
      unmatchedOld.delete(o)
    }
  }
  for (const [seed, row] of pairs) {
    const head = headOf(db, byId, row.id)
    if (head?.live && normalizeForDuplicate(head.content) === normalizeForDuplicate(seed.content)) actions.push({kind: 'skip', keep: head.id})
    else if (head?.live) actions.push({kind: 'replace', seed, headId: head.id, oldId: row.id})
    else actions.push({kind: 'create', seed})
  }
  for (const seed of unmatchedNew) if (!pairedNew.has(seed)) actions.push({kind: 'create', seed})
  for (const row of unmatchedOld) {
    const head = headOf(db, byId, row.id)
    if (head?.live && !head.edited) {
      actions.push({kind: 'forget', headId: head.id, reason: fileGone ? `intake: ${path} is gone` : `intake: no longer in ${path}`})
    }
  }
  return {path, seeds: news.length, actions}
}

function seedTags(path: string, seed: Seed): string[] {
  // the same normalisation the store's tag schema applies (lower case, spaces as dashes)
  const norm = (t: string) => t.trim().toLowerCase().replace(/\s+/g, '-')
  const source = norm(`source:${path}`).slice(0, MAX_TAG_CHARS)
  return [...new Set(['intake', source, ...seed.tags.map(norm)])].slice(0, MAX_TAGS)
}

/** Scans `repo.root` and writes its seeds. See the module comment for the matching rules. */
export async function runIntake(ctx: MemContext, repo: RepoHandle, options: IntakeOptions = {}): Promise<IntakeResult> {
  const {signal, onProgress} = options
  const stopped = () =>
    new MemError('unavailable', 'Intake stopped before it finished (time limit or cancel); what it wrote so far is kept.', {
      hint: 'Run `mem intake` again: it picks up where it stopped.',
    })
  onProgress?.({phase: 'scan', done: 0, total: 1})
  const {files: scanned, refused} = scanProject(repo.root, signal)
  if (signal?.aborted) throw stopped()
  onProgress?.({phase: 'scan', done: 1, total: 1})

  const plans = repo.store.read((db) => {
    const {byId, byPath} = currentSeeds(intakeRows(db))
    const out: FilePlan[] = scanned.map((f) => ({...planFile(db, byId, f.path, f.seeds, byPath.get(f.path) ?? [], false), ...(f.leftOut ? {leftOut: f.leftOut} : {})}))
    const present = new Set(scanned.map((f) => f.path))
    for (const [path, old] of [...byPath].sort(([a], [b]) => a.localeCompare(b))) {
      if (!present.has(path)) out.push(planFile(db, byId, path, [], old, true))
    }
    return out
  })

  // gate every seed that would be written before taking the writer lock (the scanner is async)
  const rejections = new Map<Seed, string>()
  await Promise.all(
    plans.flatMap((p) => p.actions.map((a) => ({path: p.path, a}))).map(async ({path, a}) => {
      if (a.kind !== 'create' && a.kind !== 'replace') return
      if (hasSecretAssignment(a.seed.content)) {
        rejections.set(a.seed, 'Rejected: a secret-named variable is given a value')
        return
      }
      const rejected = await gate(ctx, {content: a.seed.content, tags: seedTags(path, a.seed), source: `intake:${path}`})
      if (rejected) rejections.set(a.seed, rejected.reason)
    }),
  )
  if (signal?.aborted) throw stopped()

  const createdAt = ctx.now().toISOString()
  // what the project's files state now: a seed of this run updates none of these (two lines of the
  // files are both true at once); the seeds this run writes join them as they are written
  const current = new Set(plans.flatMap((p) => p.actions.flatMap((a) => (a.kind === 'skip' && a.keep ? [a.keep] : []))))
  const total = plans.reduce((n, p) => n + p.actions.length, 0)
  let done = 0
  const files: IntakeFileReport[] = []
  for (const plan of plans) {
    if (signal?.aborted) throw stopped()
    const report: IntakeFileReport = {path: plan.path, seeds: plan.seeds, newCount: 0, skippedCount: 0, replacedCount: 0, removedCount: 0, rejectedCount: 0, ...(plan.leftOut ? {leftOut: plan.leftOut} : {})}
    // queued together: the store applies them in order, each seeing the ones before, and syncs once
    const writes = plan.actions.map((action) => writeAction(repo, plan.path, action, rejections, createdAt, report, current))
    await Promise.all(writes)
    done += plan.actions.length
    onProgress?.({phase: 'write', done, total})
    files.push(report)
  }
  return {
    newCount: files.reduce((n, f) => n + f.newCount, 0),
    skippedCount: files.reduce((n, f) => n + f.skippedCount, 0),
    replacedCount: files.reduce((n, f) => n + f.replacedCount, 0),
    files,
    refused,
  }
}

async function writeAction(repo: RepoHandle, path: string, action: Action, rejections: Map<Seed, string>, createdAt: string, report: IntakeFileReport, current: Set<string>): Promise<void> {
  if (action.kind === 'skip') {
    report.skippedCount++
    return
  }
  if (action.kind === 'forget') {
    const forgotten = await repo.store.write((db) => {
      const m = getMemory(db, action.headId)
      if (!m || m.forgottenAt || m.supersededBy) return {ops: [], result: false}
      return {ops: [{op: 'update', id: m.id, set: {forgottenAt: createdAt, forgetReason: action.reason, updatedAt: createdAt}}], result: true}
    })
    if (forgotten) report.removedCount++
    return
  }
  if (rejections.has(action.seed)) {
    report.rejectedCount++
    report.skippedCount++
    return
  }
  const seed = action.seed
  const outcome = await repo.store.write<'new' | 'replaced' | 'skipped'>((db) => {
    let supersedes: string | null = null
    const ops: Op[] = []
    if (action.kind === 'replace') {
      const head = getMemory(db, action.headId)
      // another run may have moved the chain on since the plan: then this is a plain new seed
      if (head && !head.forgottenAt && !head.supersededBy) supersedes = head.id
    }
    const plan = planStore(db, repo, {
      content: seed.content,
      type: seed.type,
      tags: seedTags(path, seed),
      importance: seed.importance,
      source: `intake:${path}`.slice(0, 200),
      sessionId: null,
      supersedes,
      createdAt,
      origin: `intake:${path}`,
      updatesNone: current,
      ...(seed.oneLiner ? {oneLiner: seed.oneLiner} : {}),
    })
    if (!plan.result.success) {
      // the new text repeats a live memory: the outdated seed it would have replaced goes
      if (action.kind === 'replace' && supersedes === action.oldId) {
        ops.push({op: 'update', id: supersedes, set: {forgottenAt: createdAt, forgetReason: `intake: changed in ${path}; the new text repeats ${'duplicateId' in plan.result ? plan.result.duplicateId : 'a live memory'}`, updatedAt: createdAt}})
      }
      return {ops, result: 'skipped'}
    }
    for (const op of plan.ops) {
      if (op.op === 'insert') ops.push({...op, extra: {intake: {path, key: seed.key}}})
      else ops.push(op)
    }
    current.add(plan.result.id)
    return {ops, result: supersedes ? 'replaced' : 'new'}
  })
  if (outcome === 'skipped') report.skippedCount++
  else {
    report.newCount++
    if (outcome === 'replaced') report.replacedCount++
  }
}
