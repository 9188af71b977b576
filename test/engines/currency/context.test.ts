// The session context never shows a version that a live memory updates (issue 30 item 5), whatever
// wrote or changed the versions: stores, edits of either version, forgetting versions between, a
// chain longer than a few versions, maintenance.
import {describe, expect, it} from 'vitest'
import {store} from '../../../src/operations/store.js'
import {context} from '../../../src/operations/session-context.js'
import {edit} from '../../../src/operations/edit.js'
import {forget} from '../../../src/operations/forget.js'
import {get} from '../../../src/operations/get.js'
import {maintain} from '../../../src/operations/maintain.js'
import {memRepo, storedId} from '../../helpers/mem.js'

const PORT = (n: number) => `The API dev server listens on port ${n}`

/** A repo holding port 3000, then port 3100 (which updates it) a minute later; the clock a minute on. */
async function twoVersions() {
  const r = memRepo()
  const older = storedId(await store(r.ctx, {repo: r.repo, content: PORT(3000), type: 'heuristic'}))
  r.clock.advance(60_000)
  const newer = storedId(await store(r.ctx, {repo: r.repo, content: PORT(3100), type: 'heuristic'}))
  r.clock.advance(60_000)
  return {...r, older, newer}
}

describe('the session context shows no version a live memory updates', () => {
  it('after an edit of the outdated version (its new version keeps the link to the newer)', async () => {
    const {ctx, repo, clock} = memRepo()
    const old = storedId(await store(ctx, {repo, content: PORT(3000), type: 'heuristic'}))
    clock.advance(60_000)
    const r = await store(ctx, {repo, content: PORT(3100), type: 'heuristic'})
    expect(r).toMatchObject({success: true, updates: [{id: old}]})
    clock.advance(60_000)
    await edit(ctx, {id: old, content: 'The API dev server listens on port 3000 (see .env.example)'})
    const text = (await context(ctx, {repo})).context
    expect(text).toContain('port 3100')
    expect(text).not.toContain('3000')
  })

  it('after an edit of the outdated version that words alone read as an update of the newer (it stays outdated)', async () => {
    const {ctx, repo, older: old, newer} = await twoVersions()
    const edited = await edit(ctx, {id: old, content: 'The API dev server now listens on port 3000'})
    expect(edited).toMatchObject({success: true, superseded: old})
    const text = (await context(ctx, {repo})).context
    expect(text).toContain('port 3100')
    expect(text).not.toContain('3000')
    expect((await get(ctx, {id: newer})).links.filter((l) => l.relation === 'updated-by')).toEqual([])
  })

  it('a store that supersedes the outdated version with a newer value updates the version that outdated it', async () => {
    const {ctx, repo, older: old, newer: middle} = await twoVersions()
    expect(await store(ctx, {repo, content: PORT(4000), type: 'heuristic', supersedes: old})).toMatchObject({success: true, updates: [{id: middle}]})
    const text = (await context(ctx, {repo})).context
    expect(text).toContain('port 4000')
    expect(text).not.toContain('3100')
  })

  it('after an edit of the newer version (the chain goes through its successor)', async () => {
    const {ctx, repo, clock} = memRepo()
    storedId(await store(ctx, {repo, content: PORT(3000), type: 'heuristic'}))
    clock.advance(60_000)
    const newer = storedId(await store(ctx, {repo, content: PORT(3100), type: 'heuristic'}))
    clock.advance(60_000)
    await edit(ctx, {id: newer, content: 'The API dev server listens on port 3100 (see .env.example)'})
    const text = (await context(ctx, {repo})).context
    expect(text).toContain('3100 (see .env.example)')
    expect(text).not.toContain('3000')
  })

  it('in a long chain whose versions between were forgotten', async () => {
    const {ctx, repo, clock} = memRepo()
    const ids: string[] = []
    for (let v = 0; v < 12; v++) {
      ids.push(storedId(await store(ctx, {repo, content: PORT(3000 + v), type: 'heuristic'})))
      clock.advance(60_000)
    }
    // every version between the first and the last forgotten: the last still updates the first
    for (const id of ids.slice(1, -1)) await forget(ctx, {id, reason: 'noise'})
    const text = (await context(ctx, {repo})).context
    expect(text).toContain('port 3011')
    expect(text).not.toContain('port 3000')
    // forgetting the last makes the first current again
    await forget(ctx, {id: ids.at(-1)!, reason: 'wrong'})
    expect((await context(ctx, {repo})).context).toContain('port 3000')
    expect((await get(ctx, {id: ids[0]})).forgottenAt).toBeNull()
  })

  it('after maintenance, among many facts and their versions', async () => {
    const {ctx, repo, clock} = memRepo()
    const facts = ['The API dev server listens on port {v}', 'CI runs on Node {v}', 'The database is Postgres {v}', 'Nightly backups keep {v} days of snapshots']
    const outdated: string[] = []
    for (const f of facts) {
      for (const v of [14, 15, 16]) {
        await store(ctx, {repo, content: f.replace('{v}', String(v)), type: 'heuristic'})
        clock.advance(60_000)
      }
      outdated.push(f.replace('{v}', '14'), f.replace('{v}', '15'))
    }
    for (const when of ['before', 'after']) {
      if (when === 'after') await maintain(ctx, {repo})
      const text = (await context(ctx, {repo})).context
      for (const f of facts) expect(text, when).toContain(f.replace('{v}', '16'))
      for (const o of outdated) expect(text, `${when}: ${o}`).not.toContain(o)
    }
  })
})
