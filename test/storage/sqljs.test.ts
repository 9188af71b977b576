import {describe, expect, it} from 'vitest'
import {loadSqlJs, precompileSqlJs} from '../../src/storage/sqljs.js'

// A file of its own: vitest gives it a fresh module registry, so loadSqlJs has not run yet.
describe('sql.js compiled ahead (precompileSqlJs)', () => {
  it('loads from the module compiled in the background, once, and runs sqlite with FTS4', async () => {
    precompileSqlJs()
    precompileSqlJs() // a second call changes nothing
    const [a, b] = await Promise.all([loadSqlJs(), loadSqlJs()])
    expect(a).toBe(b)
    const db = new a.Database()
    db.exec(`CREATE VIRTUAL TABLE t USING fts4(body); INSERT INTO t(body) VALUES ('run the integration suite'), ('deploy on friday')`)
    expect(db.exec(`SELECT docid FROM t WHERE t MATCH 'integration'`)[0].values).toEqual([[1]])
    db.close()
  })
})
