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
}

export interface MemoryLink {
  targetId: string
  relation: string
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

/** `links` with the link to `targetId` set to `relation` (a second link to a target replaces the first), or removed. */
/** Whether links name a relation: a list of links, or the links as stored (JSON text). */
export function hasRelation(links: readonly MemoryLink[] | string, relation: string): boolean {
  return typeof links === 'string' ? links.includes(`"${relation}"`) : links.some((l) => l.relation === relation)
}

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
