import {OUTDATED_WARNING, type Memory, type MemoryType} from '../../model/memory.js'

/**
 * The final recall score, in 0..1. Text relevance dominates; the rest breaks near-ties the way
 * an agent wants them broken:
 *
 *   score = 0.72 · relevance + 0.10 · importance + 0.06 · recency + 0.12 · feedback
 *
 * - relevance: BM25F of this memory divided by the best BM25F in the candidate set (0..1);
 * - importance: as stored (0..1);
 * - recency: 2^(−age / half-life), the half-life per type (observations fade fastest);
 * - feedback: (used + 1) / (used + unused + 2), a Laplace-smoothed use rate (0.5 with no feedback),
 *   so memories reported used rank up and repeatedly unused ones rank down.
 * Hits from mounted (non-local) layers are multiplied by their layer weight (0.8).
 */
export interface Blend {
  relevance: number
  importance: number
  recency: number
  feedback: number
}

export const BLEND: Blend = {relevance: 0.72, importance: 0.1, recency: 0.06, feedback: 0.12}

export const HALF_LIFE_DAYS: Record<MemoryType, number> = {
  observation: 30,
  insight: 90,
  procedure: 365,
  heuristic: 730,
}

const DAY_MS = 86_400_000

export function ageDays(createdAt: string, now: Date): number {
  return Math.max(0, Math.floor((now.getTime() - Date.parse(createdAt)) / DAY_MS))
}

export function recencyScore(m: Pick<Memory, 'type' | 'createdAt' | 'lastUsedAt'>, now: Date): number {
  const ref = m.lastUsedAt && m.lastUsedAt > m.createdAt ? m.lastUsedAt : m.createdAt
  const age = Math.max(0, (now.getTime() - Date.parse(ref)) / DAY_MS)
  return 2 ** (-age / HALF_LIFE_DAYS[m.type])
}

export function feedbackScore(m: Pick<Memory, 'usedCount' | 'unusedCount'>): number {
  return (m.usedCount + 1) / (m.usedCount + m.unusedCount + 2)
}

export function blendScore(
  relevance: number,
  m: Pick<Memory, 'type' | 'importance' | 'createdAt' | 'lastUsedAt' | 'usedCount' | 'unusedCount'>,
  now: Date,
  layerWeight = 1,
  blend: Blend = BLEND,
): number {
  const s =
    blend.relevance * relevance +
    blend.importance * m.importance +
    blend.recency * recencyScore(m, now) +
    blend.feedback * feedbackScore(m)
  return Math.min(1, Math.max(0, s * layerWeight))
}

/** Context priority: what an agent should see first when it starts a session (no query). */
export function contextPriority(m: Memory, now: Date): number {
  return 0.55 * m.importance + 0.3 * feedbackScore(m) + 0.15 * recencyScore(m, now)
}

/** `not confirmed in N days` for memories older than 30 days that were never reported used. */
export function stalenessWarning(m: Pick<Memory, 'usedCount' | 'createdAt'>, now: Date): string | null {
  const age = ageDays(m.createdAt, now)
  if (age <= 30 || m.usedCount > 0) return null
  return `not confirmed in ${age} days`
}

/** The warning on a memory a newer live memory updates (same subject, another value): names the newer. */
export function outdatedWarning(newer: {id: string; createdAt: string}): string {
  return `${OUTDATED_WARNING}: ${newer.id} (${newer.createdAt.slice(0, 10)}) states a newer value`
}
