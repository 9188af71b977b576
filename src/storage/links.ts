import type {Db} from './db.js'

/** The source of the memories `mem links add` writes; a partial index (migration 6) finds them. */
export const LINK_SOURCE = 'mem-links'

/** Live cross-repo link memories (source mem-links, carrying `tag`), newest first. */
export function liveRepoLinks(db: Db, tag: string): Array<{id: string; content: string; createdAt: string; extra: Record<string, unknown>}> {
  return db
    .all<{id: string; content: string; created_at: string; tags: string; extra: string}>(
      `SELECT id, content, created_at, tags, extra FROM memories INDEXED BY memories_repo_links WHERE source = '${LINK_SOURCE}' AND +live = 1 ORDER BY created_at DESC, seq DESC`,
    )
    .filter((r) => (JSON.parse(r.tags) as string[]).includes(tag))
    .map((r) => ({id: r.id, content: r.content, createdAt: r.created_at, extra: JSON.parse(r.extra) as Record<string, unknown>}))
}
