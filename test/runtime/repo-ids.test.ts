// Repo ids (issue 20): two folders never share an id, an id once chosen is recorded in the store,
// and stores and registries written when ids were lossy migrate without losing a memory.
import {cpSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {normalizeRepoId} from '../../src/config/paths.js'
import {readRepoRecord, suffixedRepoId} from '../../src/config/repo-identity.js'
import {Registry} from '../../src/config/registry.js'
import {openMem} from '../../src/runtime/open-mem.js'
import {store} from '../../src/operations/store.js'
import {get} from '../../src/operations/get.js'
import {edit} from '../../src/operations/edit.js'
import {history} from '../../src/operations/history.js'
import {recall} from '../../src/operations/recall.js'
import {stats} from '../../src/operations/stats.js'
import {linkMemory} from '../../src/operations/links.js'
import {repos as listReposOp} from '../../src/operations/repos.js'
import {fixedClock, refused, storedId, tempDir} from '../helpers/mem.js'

function gitFolder(path: string): string {
  mkdirSync(join(path, '.git'), {recursive: true})
  return path
}

function context(home: string) {
  const ctx = openMem({home, now: fixedClock(), usage: false})
  return ctx
}

describe('repo ids', () => {
  it('my_app and my.app side by side get two ids; each one\'s memories answer by id', async () => {
    const base = tempDir()
    const underscore = gitFolder(join(base, 'my_app'))
    const dot = gitFolder(join(base, 'my.app'))
    const ctx = context(join(base, 'home'))
    try {
      const a = storedId(await store(ctx, {repo: underscore, content: 'the underscore app deploys with make ship', type: 'procedure'}))
      const b = storedId(await store(ctx, {repo: dot, content: 'the dotted app deploys with cargo release', type: 'procedure'}))
      const shared = normalizeRepoId(underscore)
      expect(normalizeRepoId(dot)).toBe(shared) // the lossy base id both would have had
      expect(a.split('/')[1]).toBe(shared) // the first folder keeps its base id
      expect(b.split('/')[1]).toBe(suffixedRepoId(shared, dot)) // the second takes base~hash
      expect(b.split('/')[1]).toMatch(/~[0-9a-f]{8}$/)
      const repos = (await listReposOp(ctx)).repos
      expect(repos).toEqual(expect.arrayContaining([{repoId: shared, path: underscore, name: 'my_app'}, {repoId: suffixedRepoId(shared, dot), path: dot, name: 'my.app'}]))
      // by id, without naming the repo: each store answers for its own
      expect((await get(ctx, {id: a})).content).toContain('underscore')
      expect((await get(ctx, {id: b})).content).toContain('dotted')
      // and a repo id of the other folder's is refused as belonging elsewhere
      await refused(get(ctx, {id: b, repo: underscore}), 'not_found', /another repository/)
      // the recorded ids
      expect(readRepoRecord(underscore)).toMatchObject({repoId: shared, path: underscore})
      expect(readRepoRecord(dot)).toMatchObject({repoId: suffixedRepoId(shared, dot), path: dot})
      expect(readFileSync(join(dot, '.mem', '.gitignore'), 'utf8')).toMatch(/^repo\.json$/m)
    } finally {
      await ctx.close()
    }
  })

  it('an id once recorded holds without the registry, whatever the order folders are opened in', async () => {
    const base = tempDir()
    const underscore = gitFolder(join(base, 'my_app'))
    const dot = gitFolder(join(base, 'my.app'))
    const first = context(join(base, 'home1'))
    await store(first, {repo: underscore, content: 'first opened folder', type: 'observation'})
    await store(first, {repo: dot, content: 'second opened folder', type: 'observation'})
    await first.close()
    const dotId = readRepoRecord(dot)!.repoId
    // another MEM_HOME (an empty registry), folders opened the other way round
    const second = context(join(base, 'home2'))
    try {
      const r = await recall(second, {repo: dot, q: 'second opened folder'})
      expect(r.results.map((m) => m.repoId)).toEqual([dotId])
      const u = await recall(second, {repo: underscore, q: 'first opened folder'})
      expect(u.results.map((m) => m.repoId)).toEqual([normalizeRepoId(underscore)])
    } finally {
      await second.close()
    }
  })

  it('a read of a folder with no store decides its id without writing anything', async () => {
    const base = tempDir()
    const folder = gitFolder(join(base, 'fresh.repo'))
    const home = join(base, 'home')
    const ctx = context(home)
    try {
      expect((await stats(ctx, {repo: folder})).total).toBe(0)
      expect(existsSync(join(folder, '.mem'))).toBe(false)
      expect(existsSync(join(home, 'repos.yaml'))).toBe(false)
    } finally {
      await ctx.close()
    }
  })

  it('registry claims from two processes at once never give one id to two folders', async () => {
    const base = tempDir()
    const home = join(base, 'home')
    const folders = ['a_b', 'a.b', 'a-b', 'a/b'].map((name) => gitFolder(join(base, name)))
    for (const f of folders) mkdirSync(join(f, '.mem'), {recursive: true})
    const registries = [new Registry(home), new Registry(home)]
    const ids = await Promise.all(
      folders.map((f, i) =>
        registries[i % 2].claim([normalizeRepoId(f), suffixedRepoId(normalizeRepoId(f), f)], f, (p) => p !== undefined && p !== f && existsSync(join(p, '.mem'))),
      ),
    )
    expect(new Set(ids).size).toBe(folders.length - 1 + 1) // four folders, four ids
    const entries = await new Registry(home).entries()
    expect([...entries.values()].sort()).toEqual([...folders].sort())
  })
})

describe('migrating stores and a registry written when ids were lossy', () => {
  /**
   * The old state, made as the old code made it: each folder's memories minted under the shared
   * base id (here: each store written through its own MEM_HOME, so neither saw the other), no
   * `repo.json`, and one registry that kept the last folder registered under that id.
   */
  async function oldWorld() {
    const base = tempDir()
    const underscore = gitFolder(join(base, 'my_app'))
    const dot = gitFolder(join(base, 'my.app'))
    const shared = normalizeRepoId(underscore)
    const clock = fixedClock()
    const mk = (home: string) => openMem({home: join(base, home), now: clock, usage: false})
    const u = mk('old-u')
    const first = storedId(await store(u, {repo: underscore, content: 'the api listens on port 8080', type: 'observation', tags: ['api']}))
    clock.advance(60_000)
    const edited = storedId(await edit(u, {id: first, content: 'the api listens on port 9090'}))
    clock.advance(60_000)
    const other = storedId(await store(u, {repo: underscore, content: 'deploys go through the staging cluster first', type: 'procedure'}))
    await linkMemory(u, {id: edited, targetId: other, relation: 'see-also'})
    await u.close()
    const d = mk('old-d')
    const dotted = storedId(await store(d, {repo: dot, content: 'the dotted app uses sqlite for tests', type: 'insight'}))
    await d.close()
    for (const f of [underscore, dot]) rmSync(join(f, '.mem', 'repo.json'))
    const home = join(base, 'home')
    mkdirSync(home, {recursive: true})
    writeFileSync(join(home, 'repos.yaml'), `# mem: repositories this user has stored memories for (repo id: path)\n${JSON.stringify(shared)}: ${JSON.stringify(dot)}\n`)
    for (const id of [first, edited, other, dotted]) expect(id.split('/')[1]).toBe(shared)
    return {base, home, underscore, dot, shared, first, edited, other, dotted, clock}
  }

  it('the folder the registry named keeps the id; the other takes one of its own and every old memory id still resolves', async () => {
    const w = await oldWorld()
    const ctx = openMem({home: w.home, now: w.clock, usage: false})
    try {
      // the dotted folder, which the registry names, keeps the shared id
      expect((await get(ctx, {id: w.dotted})).content).toContain('sqlite')
      // the underscore folder, opened by path, is migrated: an id of its own, its memories kept
      const before = await stats(ctx, {repo: w.underscore})
      expect(before.total).toBe(2)
      const ownId = suffixedRepoId(w.shared, w.underscore)
      expect(readRepoRecord(w.underscore)).toEqual({repoId: ownId, path: w.underscore})
      // a memory id of it resolves although only its counts were read (the store is looked at then)
      expect((await get(ctx, {id: w.other})).content).toContain('staging')
      expect(readRepoRecord(w.underscore)).toEqual({repoId: ownId, path: w.underscore, formerIds: [w.shared]})
      expect(readRepoRecord(w.dot)).toMatchObject({repoId: w.shared, formerIds: []})
      // its old memory ids answer on every by-id path, with and without the repo named
      for (const id of [w.first, w.edited, w.other]) {
        expect((await get(ctx, {id})).id).toBe(id)
        expect((await get(ctx, {id, repo: w.underscore})).id).toBe(id)
      }
      expect((await get(ctx, {id: w.first})).supersededBy).toBe(w.edited)
      expect((await history(ctx, {id: w.edited})).chain.map((c) => c.id)).toEqual([w.edited, w.first])
      expect((await get(ctx, {id: w.edited})).links).toEqual([{targetId: w.other, relation: 'see-also'}])
      // recall shows the memories under the folder's id now, and edits keep the chain going
      const hits = await recall(ctx, {repo: w.underscore, q: 'which port does the api listen on'})
      expect(hits.results[0]).toMatchObject({id: w.edited, repoId: ownId})
      const next = storedId(await edit(ctx, {id: w.edited, content: 'the api listens on port 7070'}))
      expect(next.split('/')[1]).toBe(ownId)
      expect((await history(ctx, {id: next})).chain.map((c) => c.id)).toEqual([next, w.edited, w.first])
      // the dotted folder's memory is not confused with them
      await refused(get(ctx, {id: w.dotted, repo: w.underscore}), 'not_found')
      const repos = (await listReposOp(ctx)).repos
      expect(repos).toEqual(expect.arrayContaining([{repoId: w.shared, path: w.dot, name: 'my.app'}, {repoId: ownId, path: w.underscore, name: 'my_app'}]))
    } finally {
      await ctx.close()
    }
    // a later process reads the record: the same id, the old ids still resolve
    const later = openMem({home: w.home, now: w.clock, usage: false})
    try {
      expect((await get(later, {id: w.first})).content).toContain('8080')
      expect((await stats(later, {repo: w.underscore})).total).toBe(2)
    } finally {
      await later.close()
    }
  })

  it('a store moved to another folder keeps its id; a copy beside it gets its own and the original still answers', async () => {
    const w = await oldWorld()
    const ctx = openMem({home: w.home, now: w.clock, usage: false})
    await stats(ctx, {repo: w.underscore}) // migrate it
    await ctx.close()
    const ownId = readRepoRecord(w.underscore)!.repoId
    const copy = join(w.base, 'copy_of_app')
    cpSync(w.underscore, copy, {recursive: true})
    const moved = join(w.base, 'moved')
    renameSync(w.underscore, moved)
    const again = openMem({home: w.home, now: w.clock, usage: false})
    try {
      expect((await recall(again, {repo: moved, q: 'staging cluster deploys'})).results[0]?.repoId).toBe(ownId)
      expect((await listReposOp(again)).repos).toContainEqual({repoId: ownId, path: moved, name: 'moved'})
      expect((await get(again, {id: w.other})).content).toContain('staging')
      // the copy: the original (moved) folder still holds a store recording the id
      const copyHits = await recall(again, {repo: copy, q: 'staging cluster deploys'})
      expect(copyHits.results[0]?.repoId).toBe(normalizeRepoId(copy))
      expect(readRepoRecord(copy)).toMatchObject({repoId: normalizeRepoId(copy), formerIds: [w.shared]})
      const copied = storedId(await store(again, {repo: copy, content: 'only the copy knows this', type: 'observation'}))
      expect(copied.split('/')[1]).toBe(normalizeRepoId(copy))
      expect((await get(again, {id: copied})).content).toBe('only the copy knows this')
      // an old id is answered by one of the two stores that hold it (the original and its copy)
      expect((await get(again, {id: w.first})).content).toBe('the api listens on port 8080')
    } finally {
      await again.close()
    }
  })
})
