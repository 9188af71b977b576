// Hostile `.mem` packs, built with sql.js: files that look like packs but hide work, size or
// schema tricks (issue 19). Plain JavaScript so that both the tests (src/) and the benchmark
// (test/bench/hostile-packs.mjs, over dist/) build the same files. Each builder answers the
// file's bytes; `expect` is what the refusal must say.

const MANIFEST_DDL = `CREATE TABLE manifest (
  format TEXT NOT NULL, format_version INTEGER NOT NULL, pack_id TEXT NOT NULL, name TEXT NOT NULL,
  version TEXT NOT NULL, source_repo TEXT NOT NULL, created_at TEXT NOT NULL, entry_count INTEGER NOT NULL,
  entries_sha256 TEXT NOT NULL
)`

/** The exporter's entries columns, in order; a hostile layout swaps or adds some. */
const ENTRY_COLUMNS = [
  'n INTEGER PRIMARY KEY',
  'type TEXT NOT NULL',
  'content TEXT NOT NULL',
  'one_liner TEXT',
  'tags TEXT NOT NULL',
  'importance REAL NOT NULL',
  'source TEXT NOT NULL',
  'created_at TEXT NOT NULL',
  'lineage TEXT NOT NULL',
]

const AT = '2026-01-01T00:00:00.000Z'

/** One ordinary entry (its lineage and content numbered). */
export function entry(i = 1, content = `a shared memory number ${i}`) {
  return {type: 'insight', content, oneLiner: null, tags: ['team'], importance: 0.5, source: 'pack', createdAt: AT, lineage: `l${i}`}
}

function manifestRow(count, sha) {
  return ['mem-pack', 1, 'pack-hostile', 'hostile', '1', 'elsewhere', AT, count, sha]
}

/**
 * A pack database with the exporter's manifest and `entriesSql` as its entries table. `fill`
 * inserts the rows (by default `entries`, as the exporter does); `extra` runs last.
 */
function build(SQL, {entriesSql, entries = [], count, sha, fill, extra, manifest, encoding}) {
  const db = new SQL.Database()
  try {
    if (encoding) db.exec(`PRAGMA encoding = '${encoding}'`)
    db.exec(MANIFEST_DDL)
    db.exec(entriesSql ?? `CREATE TABLE entries (${ENTRY_COLUMNS.join(', ')})`)
    db.run('INSERT INTO manifest VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)', manifest ?? manifestRow(count ?? entries.length, sha))
    if (fill) db.exec(fill)
    else {
      entries.forEach((e, i) => {
        db.run('INSERT INTO entries VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)', [i + 1, e.type, e.content, e.oneLiner, JSON.stringify(e.tags), e.importance, e.source, e.createdAt, e.lineage])
      })
    }
    if (extra) db.exec(extra)
    return db.export()
  } finally {
    db.close()
  }
}

/** `n` rows of the columns other than content, by a recursive CTE (no JavaScript per row). */
function fillWithoutContent(n) {
  return `WITH RECURSIVE k(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM k WHERE i < ${n})
    INSERT INTO entries (n, type, one_liner, tags, importance, source, created_at, lineage)
    SELECT i, 'insight', NULL, '[]', 0.5, 'pack', '${AT}', 'l' || i FROM k`
}

function withColumn(name, column) {
  return `CREATE TABLE entries (${ENTRY_COLUMNS.map((c) => (c.split(' ')[0] === name ? column : c)).join(', ')})`
}

/**
 * Every hostile pack, by name: `build(SQL, checksum)` answers the bytes, where `checksum` is the
 * pack module's entriesChecksum (so a pack carries a valid checksum wherever one can be computed,
 * and only its trick can be the reason it is refused).
 */
export const HOSTILE_PACKS = {
  // the issue's 344 KB pack: every read of content computes a 2 MB string, 5,000 times
  'generated-virtual-5000': {
    expect: /column "content" of table entries is generated/,
    build: (SQL) =>
      build(SQL, {
        entriesSql: withColumn('content', 'content TEXT NOT NULL GENERATED ALWAYS AS (hex(zeroblob(1000000))) VIRTUAL'),
        count: 5000,
        sha: '0'.repeat(64),
        fill: fillWithoutContent(5000),
      }),
  },
  // a STORED generated column keeps its values in the file, so 5,000 rows of 2 MB would not fit a
  // 64 MB pack: this one stores 200 characters a row; it is the declaration that must be refused
  'generated-stored-5000': {
    expect: /column "content" of table entries is generated/,
    build: (SQL, checksum) =>
      build(SQL, {
        entriesSql: withColumn('content', 'content TEXT NOT NULL GENERATED ALWAYS AS (hex(zeroblob(100))) STORED'),
        count: 5000,
        // what a reader sees, so that only the declaration can be the reason for a refusal
        sha: checksum(Array.from({length: 5000}, (_, i) => ({...entry(i + 1, '00'.repeat(100)), tags: []}))),
        fill: fillWithoutContent(5000),
      }),
  },
  // the issue's 12 KB one-row version: one read computes a 400 MB string (SQLite allows 1 GB)
  'generated-virtual-1row': {
    expect: /column "content" of table entries is generated/,
    build: (SQL, checksum) =>
      build(SQL, {
        entriesSql: withColumn('content', 'content TEXT NOT NULL GENERATED ALWAYS AS (hex(zeroblob(200000000))) VIRTUAL'),
        count: 1,
        sha: checksum([entry(1, '')]),
        fill: fillWithoutContent(1),
      }),
  },
  trigger: {
    expect: /it holds a trigger "grow"/,
    build: (SQL, checksum) => build(SQL, {entries: [entry(1)], sha: checksum([entry(1)]), extra: `CREATE TRIGGER grow AFTER INSERT ON entries BEGIN INSERT INTO entries (type) VALUES ('x'); END`}),
  },
  view: {
    expect: /it holds a view "everything"/,
    build: (SQL, checksum) => build(SQL, {entries: [entry(1)], sha: checksum([entry(1)]), extra: `CREATE VIEW everything AS SELECT hex(zeroblob(1000000)) AS x FROM entries`}),
  },
  'extra-table': {
    expect: /it holds a table "notes"/,
    build: (SQL, checksum) => build(SQL, {entries: [entry(1)], sha: checksum([entry(1)]), extra: `CREATE TABLE notes (body TEXT); INSERT INTO notes VALUES ('hello')`}),
  },
  index: {
    expect: /it holds an index "entries_by_type"/,
    build: (SQL, checksum) => build(SQL, {entries: [entry(1)], sha: checksum([entry(1)]), extra: `CREATE INDEX entries_by_type ON entries (type)`}),
  },
  'extra-column': {
    expect: /table entries has a column "extra" that packs do not have/,
    build: (SQL, checksum) =>
      build(SQL, {
        entriesSql: `CREATE TABLE entries (${[...ENTRY_COLUMNS, 'extra TEXT'].join(', ')})`,
        sha: checksum([entry(1)]),
        count: 1,
        fill: `INSERT INTO entries VALUES (1, 'insight', 'a shared memory number 1', NULL, '["team"]', 0.5, 'pack', '${AT}', 'l1', 'more')`,
      }),
  },
  'missing-column': {
    expect: /table entries has no column lineage/,
    build: (SQL, checksum) =>
      build(SQL, {
        entriesSql: `CREATE TABLE entries (${ENTRY_COLUMNS.filter((c) => !c.startsWith('lineage')).join(', ')})`,
        sha: checksum([entry(1)]),
        count: 1,
        fill: `INSERT INTO entries VALUES (1, 'insight', 'a shared memory number 1', NULL, '["team"]', 0.5, 'pack', '${AT}')`,
      }),
  },
  'renamed-column': {
    expect: /table entries has a column "labels" that packs do not have/,
    build: (SQL, checksum) => build(SQL, {entriesSql: withColumn('tags', 'labels TEXT NOT NULL'), entries: [entry(1)], sha: checksum([entry(1)])}),
  },
  'retyped-column': {
    expect: /column content of table entries is declared BLOB NOT NULL; mem writes TEXT NOT NULL/,
    build: (SQL, checksum) => build(SQL, {entriesSql: withColumn('content', 'content BLOB NOT NULL'), entries: [entry(1)], sha: checksum([entry(1)])}),
  },
  // same columns as table_xinfo sees them; only the definition's text tells
  collation: {
    expect: /the definition of table entries differs from the one mem writes/,
    build: (SQL, checksum) => build(SQL, {entriesSql: withColumn('content', 'content TEXT NOT NULL COLLATE rtrim'), entries: [entry(1)], sha: checksum([entry(1)])}),
  },
  // a collation this SQLite does not have: any ORDER BY or comparison on the column fails
  'unknown-collation': {
    expect: /the definition of table entries differs from the one mem writes/,
    build: (SQL, checksum) =>
      build(SQL, {
        entries: [entry(1)],
        sha: checksum([entry(1)]),
        extra: `PRAGMA writable_schema = ON;
          UPDATE sqlite_schema SET sql = '${withColumn('content', 'content TEXT NOT NULL COLLATE nosuch')}' WHERE name = 'entries';
          PRAGMA writable_schema = OFF;`,
      }),
  },
  'without-rowid': {
    expect: /table entries is declared WITHOUT ROWID/,
    build: (SQL, checksum) => build(SQL, {entriesSql: `CREATE TABLE entries (${ENTRY_COLUMNS.join(', ')}) WITHOUT ROWID`, entries: [entry(1)], sha: checksum([entry(1)])}),
  },
  autoincrement: {
    expect: /it holds a table "sqlite_sequence"/,
    build: (SQL, checksum) => build(SQL, {entriesSql: withColumn('n', 'n INTEGER PRIMARY KEY AUTOINCREMENT'), entries: [entry(1)], sha: checksum([entry(1)])}),
  },
  'virtual-table-fts4': {
    expect: /"entries" is a virtual table \(USING fts4\)/,
    build: (SQL, checksum) =>
      build(SQL, {
        entriesSql: `CREATE VIRTUAL TABLE entries USING fts4(n, type, content, one_liner, tags, importance, source, created_at, lineage)`,
        sha: checksum([entry(1)]),
        count: 1,
        fill: `INSERT INTO entries VALUES (1, 'insight', 'a shared memory number 1', NULL, '["team"]', 0.5, 'pack', '${AT}', 'l1')`,
      }),
  },
  // the exporter's tables, text stored as UTF-16: lengths in bytes are no longer what mem bounds
  utf16: {
    expect: /its text is stored as UTF-16le; packs are UTF-8/,
    build: (SQL, checksum) => build(SQL, {entries: [entry(1)], sha: checksum([entry(1)]), encoding: 'UTF-16le'}),
  },
  'blob-content': {
    expect: /entry 1 has a content that is a blob, not text/,
    build: (SQL, checksum) =>
      build(SQL, {
        sha: checksum([entry(1)]),
        count: 1,
        fill: `INSERT INTO entries VALUES (1, 'insight', CAST('a shared memory number 1' AS BLOB), NULL, '["team"]', 0.5, 'pack', '${AT}', 'l1')`,
      }),
  },
  'long-content': {
    expect: /entry 2 has a content 16,001 characters long; at most 16,000/,
    build: (SQL, checksum) => {
      const entries = [entry(1), entry(2, 'x'.repeat(16_001))]
      return build(SQL, {entries, sha: checksum(entries)})
    },
  },
  // one stored value of 40 MB: nothing that size may reach JavaScript
  'huge-content': {
    expect: /entry 1 has a content 40,000,000 bytes long; at most 16,000 characters/,
    build: (SQL, checksum) => {
      const entries = [entry(1, 'y'.repeat(40_000_000))]
      return build(SQL, {entries, sha: checksum(entries)})
    },
  },
  'huge-manifest-name': {
    expect: /manifest field name is 30,000,000 bytes long; at most 200 characters/,
    build: (SQL, checksum) => build(SQL, {entries: [entry(1)], manifest: ['mem-pack', 1, 'pack-hostile', 'n'.repeat(30_000_000), '1', 'elsewhere', AT, 1, checksum([entry(1)])]}),
  },
  'more-rows-than-manifest': {
    expect: /manifest lists 1 entries, the file holds 2/,
    build: (SQL, checksum) => build(SQL, {entries: [entry(1), entry(2)], count: 1, sha: checksum([entry(1), entry(2)])}),
  },
  'manifest-blob-values': {
    expect: /manifest field format is a blob, not text/,
    build: (SQL, checksum) => {
      const blob = (s) => new TextEncoder().encode(s)
      return build(SQL, {entries: [entry(1)], manifest: [blob('mem-pack'), 1, 'pack-hostile', blob('hostile'), '1', 'elsewhere', AT, 1, checksum([entry(1)])]})
    },
  },
  // SQLite loads every row of sqlite_stat1 when it reads the schema: 1.5 million of them here
  'analyze-stats': {
    expect: /it holds a table "sqlite_stat1"/,
    build: (SQL, checksum) =>
      build(SQL, {
        entries: [entry(1)],
        sha: checksum([entry(1)]),
        extra: `ANALYZE; WITH RECURSIVE k(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM k WHERE i < 1500000) INSERT INTO sqlite_stat1 SELECT 'entries', 'i' || i, '1000 1' FROM k`,
      }),
  },
  // thousands of views: SQLite parses every definition when it first reads the schema
  'schema-bloat': {
    expect: /its schema is not a pack's \(the two table definitions of a pack fit the first page of the file; these do not\)/,
    build: (SQL, checksum) => build(SQL, {entries: [entry(1)], sha: checksum([entry(1)]), extra: manyViews(20_000)}),
  },
}

/**
 * `count` views straight into sqlite_schema (CREATE VIEW one by one takes quadratic time: 20,000
 * of them, 40 s), each over the entries and computing a 2 MB string per row.
 */
function manyViews(count) {
  return `PRAGMA writable_schema = ON;
    WITH RECURSIVE k(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM k WHERE i < ${count - 1})
    INSERT INTO sqlite_schema (type, name, tbl_name, rootpage, sql)
    SELECT 'view', 'v' || i, 'v' || i, 0, 'CREATE VIEW v' || i || ' AS SELECT hex(zeroblob(1000000)) AS x, * FROM entries WHERE n > ' || i || ' AND type <> ''padding padding padding padding padding padding padding''' FROM k;
    PRAGMA writable_schema = OFF;`
}

/** A pack exactly as the exporter lays it out, holding `entries`. */
export function plainPack(SQL, checksum, entries = [entry(1)]) {
  return build(SQL, {entries, sha: checksum(entries)})
}

/**
 * Packs too slow to build for a unit test, for the benchmark: schemas that make SQLite parse
 * tens of megabytes of definitions when it first reads the schema.
 */
export const BENCH_ONLY_PACKS = {
  'schema-bloat-60mb': {
    expect: /its schema is not a pack's \(the two table definitions of a pack fit the first page of the file; these do not\)/,
    build: (SQL, checksum) => build(SQL, {entries: [entry(1)], sha: checksum([entry(1)]), extra: manyViews(300_000)}),
  },
  'check-bloat-60mb': {
    expect: /its schema is not a pack's \(the two table definitions of a pack fit the first page of the file; these do not\)/,
    // one definition of 50 MB (1.5 million CHECK constraints), written straight into sqlite_schema:
    // SQLite parses it whenever the file is opened
    build: (SQL, checksum) =>
      build(SQL, {
        entries: [entry(1)],
        sha: checksum([entry(1)]),
        extra: `PRAGMA writable_schema = ON;
          WITH RECURSIVE k(i) AS (SELECT 20000 UNION ALL SELECT i + 1 FROM k WHERE i < 1519999)
          UPDATE sqlite_schema SET sql = '${`CREATE TABLE entries (${ENTRY_COLUMNS.join(', ')}, `}' || (SELECT group_concat('CHECK (length(content) <> ' || i || ')', ', ') FROM k) || ')'
          WHERE name = 'entries';
          PRAGMA writable_schema = OFF;`,
      }),
  },
}

/** `count` entries of `chars` characters each, of words (so no gate takes them for secrets), each its own. */
function bulky(count, chars) {
  const words = 'alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho sigma tau upsilon phi chi psi omega'.split(' ')
  return Array.from({length: count}, (_, i) => {
    let text = `memory ${i}:`
    for (let j = 0; text.length < chars; j++) text += ` ${words[(i * 7 + j * 13 + (j >> 3)) % words.length]}${(i * 31 + j) % 1009}`
    return entry(i + 1, text.slice(0, chars))
  })
}

Object.assign(BENCH_ONLY_PACKS, {
  // 3,200 entries of 15,800 characters: 50.6 MB of text, over the 48 MiB budget, in a 52 MB file
  'text-over-budget': {
    expect: /bytes of text; mem reads at most/,
    build: (SQL, checksum) => {
      const entries = bulky(3_200, 15_800)
      return build(SQL, {entries, sha: checksum(entries)})
    },
  },
  // just under the budget, every entry valid, the checksum wrong: read to the end, then refused
  'budget-bad-checksum': {
    expect: /checksum/,
    build: (SQL) => build(SQL, {entries: bulky(3_150, 15_900), sha: 'f'.repeat(64)}),
  },
  // the most entries a pack holds, each small, the checksum wrong
  'max-rows-bad-checksum': {
    expect: /checksum/,
    build: (SQL) => build(SQL, {entries: bulky(100_000, 200), sha: 'f'.repeat(64)}),
  },
  // not hostile: a valid pack just under the budget, for what a real import of that size costs
  'budget-valid': {
    expect: null,
    build: (SQL, checksum) => {
      const entries = bulky(3_150, 15_900)
      return build(SQL, {entries, sha: checksum(entries)})
    },
  },
})
