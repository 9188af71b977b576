import {MemError} from '../model/errors.js'
import {PACKAGE_NAME} from '../model/package-name.js'
import {hasRelation, UPDATED_BY, UPDATES} from '../model/memory.js'
import type {Db} from './db.js'
import {bandKeys, contentBands, storedKeys} from '../text/minhash.js'
import {shingleSet} from '../text/shingles.js'

/**
 * Numbered schema migrations. A database records the highest one applied in `meta.schema_version`;
 * opening runs the missing ones in order, and a database from a newer mem is refused, never rewritten.
 */
type Migration = string | ((db: Db) => void)

/**
 * Context priority without recency (which the builder adds for the pool it reads):
 * importance and a Laplace-smoothed use rate. Kept in `memories.ctx_rank`.
 */
export const CONTEXT_RANK_SQL = '0.55 * importance + 0.3 * (used_count + 1.0) / (used_count + unused_count + 2.0)'

const MIGRATIONS: Migration[] = [
  // 1: memories, the full-text index, live counts kept by triggers.
  `
  CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
  CREATE TABLE memories (
    seq INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    repo_id TEXT NOT NULL,
    type TEXT NOT NULL,
    content TEXT NOT NULL,
    one_liner TEXT,
    summary TEXT,
    tags TEXT NOT NULL DEFAULT '[]',
    importance REAL NOT NULL,
    source TEXT NOT NULL,
    session_id TEXT,
    supersedes TEXT,
    superseded_by TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    forgotten_at TEXT,
    forget_reason TEXT,
    expires_at TEXT,
    access_count INTEGER NOT NULL DEFAULT 0,
    last_accessed_at TEXT,
    used_count INTEGER NOT NULL DEFAULT 0,
    unused_count INTEGER NOT NULL DEFAULT 0,
    last_used_at TEXT,
    derived_from TEXT NOT NULL DEFAULT '[]',
    links TEXT NOT NULL DEFAULT '[]',
    extra TEXT NOT NULL DEFAULT '{}',
    norm_hash TEXT NOT NULL,
    live INTEGER NOT NULL DEFAULT 1
  );
  CREATE INDEX memories_live_created ON memories(live, created_at);
  CREATE INDEX memories_live_type_created ON memories(live, type, created_at);
  CREATE INDEX memories_norm_hash ON memories(norm_hash) WHERE live = 1;
  CREATE INDEX memories_supersedes ON memories(supersedes) WHERE supersedes IS NOT NULL;
  CREATE VIRTUAL TABLE memories_fts USING fts4(body, tags, oneliner, tokenize=unicode61 "remove_diacritics=2");
  CREATE TABLE counts (type TEXT PRIMARY KEY, n INTEGER NOT NULL DEFAULT 0);
  INSERT INTO counts(type, n) VALUES ('observation', 0), ('insight', 0), ('procedure', 0), ('heuristic', 0);
  CREATE TRIGGER memories_count_insert AFTER INSERT ON memories WHEN new.live = 1
    BEGIN UPDATE counts SET n = n + 1 WHERE type = new.type; END;
  CREATE TRIGGER memories_count_update AFTER UPDATE OF live ON memories WHEN old.live <> new.live
    BEGIN UPDATE counts SET n = n + new.live - old.live WHERE type = new.type; END;
  CREATE TRIGGER memories_count_delete AFTER DELETE ON memories WHEN old.live = 1
    BEGIN UPDATE counts SET n = n - 1 WHERE type = old.type; END;
  `,
  // 2: a read-only view of the index vocabulary (typo correction, query expansion statistics).
  `
  CREATE VIRTUAL TABLE memories_vocab USING fts4aux(memories_fts);
  `,
  // 3: index totals (token counts per column, for BM25's average lengths) and a log of index
  //    changes that in-process search indexes follow incrementally.
  `
  CREATE TABLE fts_totals (col INTEGER PRIMARY KEY, tokens INTEGER NOT NULL);
  INSERT INTO fts_totals(col, tokens)
    SELECT 0, coalesce(sum(length(c0body) - length(replace(c0body, ' ', '')) + (c0body <> '')), 0) FROM memories_fts_content
    UNION ALL SELECT 1, coalesce(sum(length(c1tags) - length(replace(c1tags, ' ', '')) + (c1tags <> '')), 0) FROM memories_fts_content
    UNION ALL SELECT 2, coalesce(sum(length(c2oneliner) - length(replace(c2oneliner, ' ', '')) + (c2oneliner <> '')), 0) FROM memories_fts_content;
  CREATE TABLE fts_log (n INTEGER PRIMARY KEY, docid INTEGER NOT NULL, indexed INTEGER NOT NULL);
  `,
  // 4: MinHash band keys of live memories, for near-duplicate candidates in constant time.
  (db) => {
    db.exec(`CREATE TABLE dup_bands (band INTEGER NOT NULL, seq INTEGER NOT NULL, PRIMARY KEY (band, seq)) WITHOUT ROWID`)
    for (const row of db.all<{seq: number; content: string}>(`SELECT seq, content FROM memories WHERE live = 1`)) {
      for (const band of bandKeys(shingleSet(row.content))) db.run(`INSERT OR IGNORE INTO dup_bands(band, seq) VALUES (?, ?)`, [band, row.seq])
    }
  },
  // 5: the session-context priority of each memory, kept as it changes, so the best come off an index.
  `
  ALTER TABLE memories ADD COLUMN ctx_rank REAL NOT NULL DEFAULT 0;
  UPDATE memories SET ctx_rank = ${CONTEXT_RANK_SQL};
  CREATE INDEX memories_live_ctx_rank ON memories(live, ctx_rank DESC);
  `,
  // 6 (share): the shared and base layers mounted in this repo (their memories live in stores of their own),
  //    and an index that finds cross-repo link memories (source mem-links) without a scan, on every recall.
  `
  CREATE TABLE layers (
    id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    type TEXT NOT NULL,
    source TEXT,
    mounted_at TEXT NOT NULL,
    last_sync_at TEXT,
    memory_count INTEGER NOT NULL DEFAULT 0
  );
  CREATE INDEX memories_repo_links ON memories(seq) WHERE source = 'mem-links';
  `,
  // 7: usage roll-ups (per UTC hour, folded into days after 35 days; see storage/usage.ts) and
  //    enrichment supplements (one-liner, summary, foresight, entities beside a memory; see
  //    storage/supplements.ts).
  `
  CREATE TABLE usage_hourly (hour TEXT NOT NULL, operation TEXT NOT NULL, count INTEGER NOT NULL, total_ms REAL NOT NULL,
    max_ms REAL NOT NULL, total_results INTEGER NOT NULL, hist TEXT NOT NULL, PRIMARY KEY (hour, operation)) WITHOUT ROWID;
  CREATE TABLE usage_daily (day TEXT NOT NULL, operation TEXT NOT NULL, count INTEGER NOT NULL, total_ms REAL NOT NULL,
    max_ms REAL NOT NULL, total_results INTEGER NOT NULL, hist TEXT NOT NULL, PRIMARY KEY (day, operation)) WITHOUT ROWID;
  CREATE TABLE memory_supplements (memory_id TEXT PRIMARY KEY, provider TEXT NOT NULL, model TEXT, one_liner TEXT,
    summary TEXT, foresight TEXT, entities TEXT NOT NULL DEFAULT '[]', enriched_at TEXT NOT NULL);
  `,
  // 8: embedding vectors (one per memory and model, little-endian Float32; see storage/vectors.ts).
  `
  CREATE TABLE memory_vectors (memory_id TEXT PRIMARY KEY, model TEXT NOT NULL, dims INTEGER NOT NULL, vector BLOB NOT NULL,
    embedded_at TEXT NOT NULL);
  `,
  // 9: subject keys (text/values.ts) beside the MinHash band keys, so a store finds the live
  //    memories it may update ("… 'e_'" → "… 'j_'") as it finds near-duplicates.
  (db) => {
    for (const row of db.all<{seq: number; content: string}>(`SELECT seq, content FROM memories WHERE live = 1`)) {
      for (const band of contentBands(row.content).bands) db.run(`INSERT OR IGNORE INTO dup_bands(band, seq) VALUES (?, ?)`, [band, row.seq])
    }
  },
  // 10: the keys as this build computes them: subject keys of the core words less one and less
  //     two (another wording with a word or two of its own), and the value keys of the memories a
  //     newer version updates (a revert in other words finds them).
  (db) => {
    db.exec(`DELETE FROM dup_bands`)
    for (const row of db.all<{seq: number; content: string; links: string}>(`SELECT seq, content, links FROM memories WHERE live = 1`)) {
      for (const band of storedKeys(row.content, hasRelation(row.links, UPDATED_BY))) db.run(`INSERT OR IGNORE INTO dup_bands(band, seq) VALUES (?, ?)`, [band, row.seq])
    }
  },
  // 11: which memories update another (the current versions of facts that changed), so the
  //     session context finds them in a repo of any size, not only among its best-ranked.
  `
  ALTER TABLE memories ADD COLUMN changed INTEGER NOT NULL DEFAULT 0;
  UPDATE memories SET changed = 1 WHERE links LIKE '%"${UPDATES}"%';
  CREATE INDEX memories_changed_ctx_rank ON memories(ctx_rank DESC) WHERE live = 1 AND changed = 1;
  `,
  // 12: where each memory came from and this machine's MAC of it (storage/origin.ts). Rows from
  //     before have no MAC: they read as foreign until the runtime adopts a store this machine used
  //     before (runtime/trust.ts) or the user runs `mem init --adopt`.
  `
  ALTER TABLE memories ADD COLUMN origin TEXT NOT NULL DEFAULT 'user';
  ALTER TABLE memories ADD COLUMN origin_mac TEXT;
  `,
  // 13: role keys (text/roles.ts) in the band table, so a store finds the memory that names
  //     another tool of a role (the same-role rule: "Errors are reported to Sentry" → "… Rollbar").
  rebuildBands,
  // 14: quantity keys (text/quantities.ts) in the band table, so a store finds the memory that
  //     states another amount of one quantity (the same-quantity rule: "Logs are kept for 30 days"
  //     → "We retain log data for a week").
  rebuildBands,
  // 15: version keys (text/versions.ts) in the band table, so a store finds the memory that requires
  //     a runtime at another version (the same-version rule: "Node 18 is the minimum" → "Requires
  //     Node.js 20 or newer").
  rebuildBands,
  // 16: command task keys (text/commands.ts) in the band table, so a store finds the memory that
  //     gives another command for one task (the same-command rule: "Install dependencies with `npm
  //     install`" → "Set up node_modules by running `pnpm i`").
  rebuildBands,
  // 17: convention keys (text/choices.ts) in the band table, so a store finds the memory that chose
  //     another option of one convention (the same-choice rule: "Squash commits when merging" →
  //     "Merge pull requests with a merge commit").
  rebuildBands,
  // 18: role keys of the roles added to text/roles.ts on 2026-11-27 (css-styling; Moment in js-dates),
  //     so a store finds the older memory that names Sass when a newer one names Tailwind; and the
  //     version keys of what text/versions.ts reads since ("The Go toolchain is pinned at 1.20", "go1.22").
  rebuildBands,
  // 19: the practice keys out of the band table (text/choices.ts no longer reads a stance on a
  //     practice, "Never use enums" / "Enums are fine in …": the same-choice rule does not compare
  //     them), so maintenance does not group the memories that name one as near-duplicates.
  rebuildBands,
  // 20: the keys of what text/roles.ts, text/versions.ts and text/choices.ts read since 2026-11-28
  //     (Enzyme and Testing Library, Retrofit and Ktor, Atlantis, release-please, …; "pinned to",
  //     MSRV, React Native; gitmoji, changelogs, API versions, imports), so a store finds the older
  //     memory that names Enzyme when a newer one names Testing Library.
  rebuildBands,
  // 21: the keys of intake's seeds read without their label ("AGENTS.md › Testing: …", text/values.ts
  //     withoutSectionLabel), and of the runtimes and roles added then (GHC, Zig, Lua, …; the .NET
  //     and JVM assertion libraries).
  rebuildBands,
]

/** Every live memory's keys in the band table again, as storedKeys now makes them. */
function rebuildBands(db: Db): void {
  db.exec(`DELETE FROM dup_bands`)
  for (const row of db.all<{seq: number; content: string; links: string}>(`SELECT seq, content, links FROM memories WHERE live = 1`)) {
    for (const band of storedKeys(row.content, hasRelation(row.links, UPDATED_BY))) db.run(`INSERT OR IGNORE INTO dup_bands(band, seq) VALUES (?, ?)`, [band, row.seq])
  }
}

export const SCHEMA_VERSION = MIGRATIONS.length

export function schemaVersion(db: Db): number {
  const hasMeta = db.get(`SELECT 1 AS x FROM sqlite_master WHERE type = 'table' AND name = 'meta'`)
  if (!hasMeta) return 0
  const row = db.get<{value: string}>(`SELECT value FROM meta WHERE key = 'schema_version'`)
  return row ? Number(row.value) : 0
}

/** Brings the database to SCHEMA_VERSION. Returns true when anything was migrated. */
export function migrate(db: Db, where: string): boolean {
  const current = schemaVersion(db)
  if (current > SCHEMA_VERSION) {
    throw new MemError(
      'unavailable',
      `The memory store at ${where} has schema version ${current}, newer than this mem understands (${SCHEMA_VERSION}).`,
      {hint: `Upgrade mem (npm install -g ${PACKAGE_NAME}@latest). The store was left untouched.`},
    )
  }
  if (current === SCHEMA_VERSION) return false
  db.exec('BEGIN')
  try {
    for (let v = current; v < SCHEMA_VERSION; v++) {
      const step = MIGRATIONS[v]
      if (typeof step === 'string') db.exec(step)
      else step(db)
    }
    db.run(`INSERT OR REPLACE INTO meta(key, value) VALUES ('schema_version', ?)`, [String(SCHEMA_VERSION)])
    db.exec('COMMIT')
  } catch (err) {
    db.exec('ROLLBACK')
    throw err
  }
  return true
}

export function getMeta(db: Db, key: string): string | undefined {
  return db.get<{value: string}>(`SELECT value FROM meta WHERE key = ?`, [key])?.value
}

export function setMeta(db: Db, key: string, value: string): void {
  db.run(`INSERT OR REPLACE INTO meta(key, value) VALUES (?, ?)`, [key, value])
}
