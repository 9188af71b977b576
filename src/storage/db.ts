import type {BindParams, Database, SqlValue, Statement} from 'sql.js'
import type {OriginKeys} from './origin-keys.js'

export type Row = Record<string, SqlValue>

const IN_CHUNK = 500

/**
 * A thin wrapper over a sql.js Database: cached prepared statements and row helpers.
 * sql.js frees every statement and custom function when the database is exported, so the
 * cache is dropped and `onReopen` hooks run again after each export.
 */
export class Db {
  /** This machine's origin keys (storage/origin.ts): rows read through them say whom to believe. */
  origins: OriginKeys | undefined
  private statements = new Map<string, Statement>()
  private reopenHooks: Array<(db: Db) => void> = []
  private writes = 0

  constructor(readonly raw: Database) {}

  onReopen(hook: (db: Db) => void): void {
    this.reopenHooks.push(hook)
    hook(this)
  }

  private stmt(sql: string): Statement {
    let s = this.statements.get(sql)
    if (!s) {
      s = this.raw.prepare(sql)
      this.statements.set(sql, s)
    }
    return s
  }

  /**
   * A counter that moves on every statement that may change data (`run`, `exec`; `all`, `get`
   * and `column` are for queries). Caches over the database compare it to skip re-checking.
   */
  get writeCount(): number {
    return this.writes
  }

  run(sql: string, params?: BindParams): void {
    this.writes++
    const s = this.stmt(sql)
    try {
      s.run(params ?? undefined)
    } finally {
      s.reset()
    }
  }

  all<T = Row>(sql: string, params?: BindParams): T[] {
    const rows: T[] = []
    this.eachRow<T>(sql, params, (row) => rows.push(row))
    return rows
  }

  get<T = Row>(sql: string, params?: BindParams): T | undefined {
    const s = this.stmt(sql)
    try {
      if (params) s.bind(params)
      return s.step() ? (s.getAsObject() as T) : undefined
    } finally {
      s.reset()
    }
  }

  /**
   * Rows of a query with one `IN (…)` list over `values`, run in chunks that stay under SQLite's
   * parameter limit. `sql` receives the placeholder list, e.g. `?,?,?`; `before`: the parameters
   * of the query that come before the list.
   */
  allIn<T = Row>(sql: (list: string) => string, values: readonly SqlValue[], before: readonly SqlValue[] = []): T[] {
    const rows: T[] = []
    for (let i = 0; i < values.length; i += IN_CHUNK) {
      const chunk = values.slice(i, i + IN_CHUNK)
      rows.push(...this.all<T>(sql(chunk.map(() => '?').join(',')), [...before, ...chunk]))
    }
    return rows
  }

  /**
   * Calls `fn` with each row as it is stepped, without collecting them: a large scan then holds
   * one row at a time. `fn` must not run this same statement again (it is in use until the end).
   */
  each<T = Row>(sql: string, params: BindParams | undefined, fn: (row: T) => void): void {
    const s = this.stmt(sql)
    try {
      if (params) s.bind(params)
      while (s.step()) fn(s.getAsObject() as T)
    } finally {
      s.reset()
    }
  }

  /**
   * Like `each`, with the column names asked once (getAsObject() would ask sqlite for every
   * column's name again on each row): for scans of many rows, and what `all` collects.
   */
  eachRow<T = Row>(sql: string, params: BindParams | undefined, fn: (row: T) => void): void {
    const s = this.stmt(sql)
    try {
      if (params) s.bind(params)
      let names: string[] | undefined
      while (s.step()) {
        const values = s.get()
        names ??= s.getColumnNames()
        const row: Row = {}
        for (let i = 0; i < names.length; i++) row[names[i]] = values[i]
        fn(row as T)
      }
    } finally {
      s.reset()
    }
  }

  /** First column of each row. */
  column<T = SqlValue>(sql: string, params?: BindParams): T[] {
    const s = this.stmt(sql)
    const out: T[] = []
    try {
      if (params) s.bind(params)
      while (s.step()) out.push(s.get()[0] as T)
    } finally {
      s.reset()
    }
    return out
  }

  exec(sql: string): void {
    this.writes++
    this.raw.exec(sql)
  }

  changes(): number {
    return this.raw.getRowsModified()
  }

  /** Serializes the database. Statements and functions are re-created afterwards. */
  export(): Uint8Array {
    this.dropStatements()
    const bytes = this.raw.export()
    for (const hook of this.reopenHooks) hook(this)
    return bytes
  }

  close(): void {
    this.dropStatements()
    this.raw.close()
  }

  private dropStatements(): void {
    for (const s of this.statements.values()) s.free()
    this.statements.clear()
  }
}
