import type {Db} from './db.js'
import {originOf} from './memories.js'

/** The source of the memories `mem links add` writes; a partial index (migration 6) finds them. */
export const LINK_SOURCE = 'mem-links'

/** Live cross-repo link memories (source mem-links, carrying `tag`), newest first. */
export function liveRepoLinks(db: Db, tag: string): Array<{id: string; content: string; createdAt: string; extra: Record<string, unknown>; origin: string}> {
  return db
    .all<{id: string; content: string; created_at: string; tags: string; extra: string; origin: string; origin_mac: string | null}>(
      `SELECT id, content, created_at, tags, extra, origin, origin_mac FROM memories INDEXED BY memories_repo_links WHERE source = '${LINK_SOURCE}' AND +live = 1 ORDER BY created_at DESC, seq DESC`,
    )
    .filter((r) => (JSON.parse(r.tags) as string[]).includes(tag))
    .map((r) => ({id: r.id, content: r.content, createdAt: r.created_at, extra: JSON.parse(r.extra) as Record<string, unknown>, origin: originOf(db, r.id, r.content, r.origin, r.origin_mac)}))
}
