import type {MemoryLink} from '../model/memory.js'
import type {Db} from './db.js'

/**
 * The figures of the quality report (src/operations/quality.ts), over live memories. `staleBefore` and
 * `deadBefore` are ISO timestamps (now − 30 days, now − 60 days); a memory's last activity is
 * the later of its last recall and its last reported use.
 */
export interface QualityFigures {
  total: number
  recalled: number
  echo: number
  fizzle: number
  stale: number
  dead: number
  feedback: number
  withoutOneLiner: number
}

const LAST_ACTIVITY = `max(coalesce(last_accessed_at, ''), coalesce(last_used_at, ''))`
const RECALLED = `(access_count > 0 OR used_count + unused_count > 0)`
const ECHO = `(used_count > 0 AND used_count >= unused_count)`
const FIZZLE = `(unused_count > used_count)`
const STALE = `(created_at < :stale AND ${LAST_ACTIVITY} < :stale)`
const DEAD = `((created_at < :dead AND ${LAST_ACTIVITY} < :dead) OR (unused_count >= 3 AND unused_count > 2 * used_count))`
const NO_ONE_LINER = `(one_liner IS NULL OR one_liner = '')`

export function qualityFigures(db: Db, staleBefore: string, deadBefore: string): QualityFigures {
  const r = db.get<Record<string, number | null>>(
    `SELECT count(*) AS total, sum(${RECALLED}) AS recalled, sum(${ECHO}) AS echo, sum(${FIZZLE}) AS fizzle,
       sum(${STALE}) AS stale, sum(${DEAD}) AS dead, sum(used_count + unused_count) AS feedback,
       sum(${NO_ONE_LINER}) AS without_one_liner
     FROM memories WHERE live = 1`,
    {':stale': staleBefore, ':dead': deadBefore},
  )!
  return {
    total: r.total ?? 0,
    recalled: r.recalled ?? 0,
    echo: r.echo ?? 0,
    fizzle: r.fizzle ?? 0,
    stale: r.stale ?? 0,
    dead: r.dead ?? 0,
    feedback: r.feedback ?? 0,
    withoutOneLiner: r.without_one_liner ?? 0,
  }
}

export type QualityKind = 'fizzle' | 'dead' | 'stale' | 'no-feedback' | 'missing-one-liner'

const EXAMPLES: Record<QualityKind, {where: string; order: string}> = {
  fizzle: {where: FIZZLE, order: 'unused_count - used_count DESC, seq'},
  dead: {where: DEAD, order: 'created_at, seq'},
  stale: {where: STALE, order: 'created_at, seq'},
  'no-feedback': {where: RECALLED, order: 'access_count DESC, seq'},
  'missing-one-liner': {where: NO_ONE_LINER, order: 'seq'},
}

/** Up to `limit` ids of live memories of one kind, the most telling first. */
export function qualityExamples(db: Db, kind: QualityKind, staleBefore: string, deadBefore: string, limit = 5): string[] {
  const {where, order} = EXAMPLES[kind]
  const params: Record<string, string | number> = {':limit': limit}
  if (where.includes(':stale')) params[':stale'] = staleBefore
  if (where.includes(':dead')) params[':dead'] = deadBefore
  return db.column<string>(`SELECT id FROM memories WHERE live = 1 AND ${where} ORDER BY ${order} LIMIT :limit`, params)
}

/** Live memories with a link of `relation` (a LIKE prefilter; callers check the links). */
export function liveWithRelation(db: Db, relation: string): Array<{id: string; links: MemoryLink[]}> {
  return db
    .all<{id: string; links: string}>(`SELECT id, links FROM memories WHERE live = 1 AND links LIKE ? ORDER BY created_at, seq`, [`%"relation":"${relation}"%`])
    .map((r) => ({id: r.id, links: JSON.parse(r.links) as MemoryLink[]}))
}
