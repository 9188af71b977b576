/**
 * Admission of a new memory, shared by every path that writes one (store, edit, intake, pack
 * import, layer sync, consolidation): the secret scanner and content gate, then, under the lock,
 * the version-chain checks and the duplicate gate, and the insert it plans.
 */
import {createHash} from 'node:crypto'
import {MemError} from '../../model/errors.js'
import {OWN_ORIGIN, setLink, UPDATED_BY, UPDATES, type Memory} from '../../model/memory.js'
import {heuristicOneLiner} from '../enrichment/heuristic.js'
import {checkContent} from './content.js'
import {candidatesFor, findDuplicate, findRestatedReverts, findUpdateCandidates} from './duplicates.js'
import {getMemory, hasMemory, type Op} from '../../storage/memories.js'
import type {Db} from '../../storage/db.js'
import type {MemContext, RepoHandle} from '../context.js'
import type {StoreResult} from '../../model/shapes/memories.js'

export {isRejected} from '../../model/memory.js'
export type {StoreResult} from '../../model/shapes/memories.js'

export function memoryId(repoId: string, type: string, content: string, createdAt: string): string {
  const key = createHash('sha256').update(content + createdAt).digest('hex').slice(0, 12)
  return `memories/${repoId}/${type}/${key}`
}

/** Runs the secret scanner and content gate; a finding becomes a rejection that never echoes the text. */
export async function gate(ctx: MemContext, content: string): Promise<{success: false; reason: string} | null> {
  const secret = await ctx.scanSecrets(content)
  if (secret) return {success: false, reason: `Rejected: ${secret.message}`}
  const bad = checkContent(content)
  if (bad) return {success: false, reason: `Rejected: ${bad.message} (rule ${bad.rule})`}
  return null
}

export interface NewMemory {
  content: string
  type: Memory['type']
  tags: string[]
  importance: number
  source: string
  sessionId: string | null
  supersedes: string | null
  createdAt: string
  derivedFrom?: string[]
  oneLiner?: string
  /** Where it came from (model/memory.ts `origin`); the user's own when not given. */
  origin?: string
}

/** Under the lock: checks the chain and duplicates, and returns the ops of a store. */
export function planStore(db: Db, repo: RepoHandle, m: NewMemory): {ops: Op[]; result: StoreResult} {
  let old: Memory | undefined
  if (m.supersedes) {
    old = getMemory(db, m.supersedes)
    if (!old || old.repoId !== repo.id) {
      throw new MemError('not_found', `No memory ${m.supersedes} in repo ${repo.id} to supersede.`, {
        hint: 'Check the id with `mem browse` or `mem history`.',
      })
    }
    if (old.supersededBy) {
      throw new MemError('conflict', `${m.supersedes} is already superseded by ${old.supersededBy}.`, {
        hint: `Supersede the newest version, ${old.supersededBy}.`,
      })
    }
    if (old.forgottenAt) {
      throw new MemError('conflict', `${m.supersedes} was forgotten; it cannot be superseded.`, {
        hint: 'Store the new memory without --supersedes.',
      })
    }
  }
  const candidates = candidatesFor(db, m.content)
  const duplicateId = findDuplicate(db, m.content, m.supersedes, candidates)
  if (duplicateId) return {ops: [], result: {success: false, duplicateId, reason: 'duplicate'}}

  const id = memoryId(repo.id, m.type, m.content, m.createdAt)
  // Live memories of the same subject with another value: the newer of each pair updates the
  // older (an import can bring in a text older than what the repo holds).
  const found = findUpdateCandidates(db, m.content, m.type, m.supersedes, candidates)
  // and the newest versions of what it restates in other words (a revert across wordings)
  for (const r of findRestatedReverts(db, m.content, m.type, m.supersedes, candidates)) if (!found.some((f) => f.id === r.id)) found.push(r)
  // a version another of them already updates is reached through that one (currency.ts follows
  // the chain): only the current versions are linked, one row rewritten per fact, not one per version
  const foundIds = new Set(found.map((f) => f.id))
  const related = found.filter((f) => !f.links.some((l) => l.relation === UPDATED_BY && foundIds.has(l.targetId)))
  const links: Memory['links'] = []
  const relinks: Op[] = []
  const updates: Array<{id: string; reason: string}> = []
  for (const other of related) {
    const newer = other.createdAt <= m.createdAt
    if (newer) updates.push({id: other.id, reason: other.reason})
    links.push({targetId: other.id, relation: newer ? UPDATES : UPDATED_BY})
    relinks.push({op: 'update', id: other.id, set: {links: setLink(other.links, id, newer ? UPDATED_BY : UPDATES)}})
  }
  const memory: Memory = {
    id,
    repoId: repo.id,
    type: m.type,
    content: m.content,
    oneLiner: m.oneLiner ?? heuristicOneLiner(m.content),
    summary: null,
    tags: m.tags,
    importance: m.importance,
    source: m.source,
    sessionId: m.sessionId,
    supersedes: m.supersedes,
    supersededBy: null,
    createdAt: m.createdAt,
    updatedAt: m.createdAt,
    forgottenAt: null,
    forgetReason: null,
    expiresAt: null,
    accessCount: 0,
    lastAccessedAt: null,
    usedCount: 0,
    unusedCount: 0,
    lastUsedAt: null,
    derivedFrom: m.derivedFrom ?? [],
    links,
    origin: m.origin ?? OWN_ORIGIN,
  }
  if (hasMemory(db, id)) {
    throw new MemError('conflict', `A memory with id ${id} already exists.`, {hint: 'Store it again; the id includes the time.'})
  }
  const ops: Op[] = [{op: 'insert', memory}, ...relinks]
  if (old) ops.push({op: 'update', id: old.id, set: {supersededBy: id, updatedAt: m.createdAt}})
  return {ops, result: updates.length > 0 ? {success: true, id, updates} : {success: true, id}}
}
