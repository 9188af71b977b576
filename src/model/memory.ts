/**
 * The memory model shared by every layer: the four types and the full entry shape.
 * Like errors.ts it imports nothing from src.
 */

export const MEMORY_TYPES = ['observation', 'insight', 'procedure', 'heuristic'] as const
export type MemoryType = (typeof MEMORY_TYPES)[number]

export const TYPE_LETTER: Record<MemoryType, string> = {
  observation: 'O',
  insight: 'I',
  procedure: 'P',
  heuristic: 'H',
}

/** A memory id; its repo segment is a repo id (never `.` or `..`, no separator or control character). */
export const MEMORY_ID_PATTERN = /^memories\/(?!\.\.?\/)[^/\\\s\u0000-\u001f<>:"|?*]{1,200}\/(observation|insight|procedure|heuristic)\/[0-9a-f]{12}$/

/** The repo id a memory id names. */
export function repoIdOf(id: string): string {
  return id.split('/')[1]
}

export const DEFAULT_IMPORTANCE = 0.5
export const DEFAULT_SOURCE = 'claude-session'
export const MAX_CONTENT_CHARS = 16_000
export const MAX_TAGS = 32
export const MAX_TAG_CHARS = 64

/** The full memory entry, as `GET /api/mem/{id}` and browse return it. */
export interface Memory {
  id: string
  repoId: string
  type: MemoryType
  content: string
  oneLiner: string | null
  summary: string | null
  tags: string[]
  importance: number
  source: string
  sessionId: string | null
  supersedes: string | null
  supersededBy: string | null
  createdAt: string
  updatedAt: string
  forgottenAt: string | null
  forgetReason: string | null
  expiresAt: string | null
  accessCount: number
  lastAccessedAt: string | null
  usedCount: number
  unusedCount: number
  lastUsedAt: string | null
  derivedFrom: string[]
  links: MemoryLink[]
  /**
   * Where it came from, as this machine can vouch for it (storage/origin.ts): `user` (this user,
   * through a face), `intake:<path>` (a project file), `pack:<name>`, `layer:<id>`, `derived`
   * (consolidated from memories not all the user's), or `foreign` (not written on this machine).
   */
  origin: string
}

export interface MemoryLink {
  targetId: string
  relation: string
}

/** What a memory must be given when it is made; every other field may be given, or starts as a new memory's. */
export type NewMemoryFields = Pick<Memory, 'id' | 'repoId' | 'type' | 'content' | 'createdAt'> & Partial<Memory>

/**
 * A memory as it is made: the given fields, and for the rest a new memory's state (no one-liner or
 * summary, the default importance and source, never updated, recalled, used, forgotten or linked,
 * the user's own). The one place that spells the whole entry.
 */
export function newMemory(fields: NewMemoryFields): Memory {
  return {
    id: fields.id,
    repoId: fields.repoId,
    type: fields.type,
    content: fields.content,
    oneLiner: fields.oneLiner ?? null,
    summary: fields.summary ?? null,
    tags: fields.tags ?? [],
    importance: fields.importance ?? DEFAULT_IMPORTANCE,
    source: fields.source ?? DEFAULT_SOURCE,
    sessionId: fields.sessionId ?? null,
    supersedes: fields.supersedes ?? null,
    supersededBy: fields.supersededBy ?? null,
    createdAt: fields.createdAt,
    updatedAt: fields.updatedAt ?? fields.createdAt,
    forgottenAt: fields.forgottenAt ?? null,
    forgetReason: fields.forgetReason ?? null,
    expiresAt: fields.expiresAt ?? null,
    accessCount: fields.accessCount ?? 0,
    lastAccessedAt: fields.lastAccessedAt ?? null,
    usedCount: fields.usedCount ?? 0,
    unusedCount: fields.unusedCount ?? 0,
    lastUsedAt: fields.lastUsedAt ?? null,
    derivedFrom: fields.derivedFrom ?? [],
    links: fields.links ?? [],
    origin: fields.origin ?? OWN_ORIGIN,
  }
}

/** A memory this user's own agents or the user stored through a face on this machine. */
export const OWN_ORIGIN = 'user'
/** A memory this machine cannot vouch for: a committed or copied store written elsewhere. */
export const FOREIGN_ORIGIN = 'foreign'
/** An insight consolidated from memories that were not all the user's own. */
export const DERIVED_ORIGIN = 'derived'

/** Whether a memory came from this user's own agents (anything else is marked where agents see it). */
export function isOwnOrigin(origin: string): boolean {
  return origin === OWN_ORIGIN
}

/** A short mark for a memory of another origin, as agents see it (`from README.md`), or '' for the user's own. */
export function originMark(origin: string): string {
  if (isOwnOrigin(origin)) return ''
  const at = origin.indexOf(':')
  const kind = at < 0 ? origin : origin.slice(0, at)
  const what = at < 0 ? '' : origin.slice(at + 1)
  if (kind === 'intake') return `from ${what}`
  if (kind === 'pack') return `from pack ${what}`
  if (kind === 'layer') return `from layer ${what}`
  if (kind === 'repo') return `from repo ${what}`
  if (kind === DERIVED_ORIGIN) return 'from others\' notes'
  return 'unverified'
}

/**
 * Tags that say where a memory came from (intake seeds, packs, layers, links), not what it is
 * about: they never relate two memories (consolidation, the graph).
 */
export function isOriginTag(tag: string): boolean {
  return /^(?:intake|seed|source:.*|project|imported|pack|layer:.*|mem-links|cross-repo-link)$/.test(tag)
}

/** The currency relations (engines/currency.ts): kept on both memories of a pair. */
export const UPDATES = 'updates'
export const UPDATED_BY = 'updated-by'
/** A pair a person (or maintenance) marked as two facts: never grouped again. */
export const DISTINCT = 'distinct'

/** How a recall item's stalenessWarning starts when a newer memory updates it (search/rank.ts). */
export const OUTDATED_WARNING = 'may be outdated'
/**
 * How the reason of a memory maintenance superseded by its update begins (kept in its
 * `forgetReason`); `mem links attach NEWER OLDER --relation distinct` undoes such a supersede.
 */
export const RESOLVED_UPDATE = 'maintenance: the same sentence with another value'

/** Whether links name a relation: a list of links, or the links as stored (JSON text). */
export function hasRelation(links: readonly MemoryLink[] | string, relation: string): boolean {
  return typeof links === 'string' ? links.includes(`"${relation}"`) : links.some((l) => l.relation === relation)
}

/** `links` with the link to `targetId` set to `relation` (a second link to a target replaces the first), or removed. */
export function setLink(links: readonly MemoryLink[], targetId: string, relation?: string): MemoryLink[] {
  const rest = links.filter((l) => l.targetId !== targetId)
  return relation === undefined ? rest : [...rest, {targetId, relation}]
}

export function isLive(m: Pick<Memory, 'forgottenAt' | 'supersededBy'>): boolean {
  return m.forgottenAt === null && m.supersededBy === null
}

export function capitalizeType(type: MemoryType): string {
  return type.charAt(0).toUpperCase() + type.slice(1)
}

/** A store or edit outcome that the secret scanner or content gate refused (not stored, not a duplicate). */
export function isRejected(r: {success: boolean}): r is {success: false; reason: string} {
  return !r.success && !('duplicateId' in r)
}
