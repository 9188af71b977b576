/**
 * Currency: which of two live memories about the same subject is the current one. A store that
 * states another value of a live memory's subject (currency/rules.ts) links the pair both ways —
 * `updates` on the newer, `updated-by` on the older — and never drops either. Recall ranks the
 * newer above the older and warns on the older; the session context shows only the newest.
 * A person undoes a wrong grouping by relinking the pair as `distinct` (`mem links attach NEWER
 * OLDER --relation distinct`), which removes both directions. See docs/currency.md.
 */
import type {Db} from '../storage/db.js'
import {recallFieldsById, type RecallFields} from '../storage/memories.js'
import {UPDATED_BY, type MemoryLink} from '../model/memory.js'

export {DISTINCT, UPDATED_BY, UPDATES} from '../model/memory.js'

/**
 * How far a chain of versions is followed (each hop reads its memories once; the visited set ends a
 * loop). 6 left the first of a chain whose versions between were forgotten current again when the
 * newest live one was 7 or more versions on (issue 30 item 5, test/engines/currency/context.test.ts).
 */
const MAX_HOPS = 256

/** The ids a memory's links name as its newer versions. */
export function updatedByIds(links: readonly MemoryLink[]): string[] {
  return links.filter((l) => l.relation === UPDATED_BY).map((l) => l.targetId)
}

/**
 * The newest live memory that updates each of `memories` (following `updated-by` links, at most
 * MAX_HOPS), by the older memory's id; memories nothing live updates are absent.
 */
export function newestVersions(db: Db, memories: ReadonlyArray<Pick<RecallFields, 'id' | 'links'>>): Map<string, RecallFields> {
  const out = new Map<string, RecallFields>()
  const known = new Map<string, RecallFields & {live: boolean; supersededBy: string | null}>()
  for (const m of memories) {
    let frontier = updatedByIds(m.links)
    if (frontier.length === 0) continue
    const visited = new Set<string>([m.id])
    let best: RecallFields | undefined
    for (let hop = 0; hop < MAX_HOPS && frontier.length > 0; hop++) {
      const missing = frontier.filter((id) => !known.has(id))
      for (const [id, f] of recallFieldsById(db, missing)) known.set(id, f)
      const next: string[] = []
      for (const id of frontier) {
        if (visited.has(id)) continue
        visited.add(id)
        const f = known.get(id)
        if (!f) continue
        if (f.live && (!best || f.createdAt > best.createdAt)) best = f
        next.push(...updatedByIds(f.links))
        // an edited version's successor is current in its place
        if (f.supersededBy) next.push(f.supersededBy)
      }
      frontier = next
    }
    if (best) out.set(m.id, best)
  }
  return out
}

/** A recall hit: its fields and score; `newer` is set on a hit a newer live memory updates. */
export interface CurrentHit<M extends RecallFields = RecallFields> {
  memory: M
  score: number
  newer?: {id: string; createdAt: string}
}

/**
 * Puts the newer of each update pair above the older in a ranked list: an older hit is preceded
 * by its newest version (brought in when the query did not find it, if `accepts` it), and
 * carries `newer`. Scores stay in order (a version brought up takes the older one's score).
 */
export function newestFirst(db: Db, hits: Array<{memory: RecallFields; score: number}>, limit: number, accepts: (m: RecallFields) => boolean): CurrentHit[] {
  return placeNewestFirst(hits, newestVersions(db, hits.map((h) => h.memory)), limit, accepts)
}

/** newestFirst with the newest versions already known (`newest`, from newestVersions, by older id). */
export function placeNewestFirst(
  hits: Array<{memory: RecallFields; score: number}>,
  newest: ReadonlyMap<string, RecallFields>,
  limit: number,
  accepts: (m: RecallFields) => boolean,
): CurrentHit[] {
  if (newest.size === 0) return hits
  const placed = new Set<string>()
  const byId = new Map(hits.map((h) => [h.memory.id, h]))
  const out: CurrentHit[] = []
  for (const h of hits) {
    if (placed.has(h.memory.id)) continue
    const n = newest.get(h.memory.id)
    if (n) {
      if (!placed.has(n.id) && accepts(n)) {
        const found = byId.get(n.id)
        out.push({memory: found?.memory ?? n, score: Math.max(found?.score ?? 0, h.score)})
        placed.add(n.id)
      }
      out.push({...h, newer: {id: n.id, createdAt: n.createdAt}})
    } else {
      out.push(h)
    }
    placed.add(h.memory.id)
  }
  return out.slice(0, limit)
}
