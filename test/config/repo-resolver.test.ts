// Repo identity (src/config/repo-resolver.ts), each rule driven directly on temp folders and a temp
// MEM_HOME: which folder a `repo` value names, the id it gets and when that id is written down, the
// ids a store carries from before, and whose a store's unsigned rows are the first time it is met.
import {cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it, onTestFinished} from 'vitest'
import {loadOriginKey} from '../../src/config/origin-trust.js'
import {findRepoRoot, normalizeRepoId} from '../../src/config/paths.js'
import {readRepoRecord, suffixedRepoId} from '../../src/config/repo-identity.js'
import {RepoResolver} from '../../src/config/repo-resolver.js'
import {store} from '../../src/operations/store.js'
import {openMem} from '../../src/runtime/open-mem.js'
import {getMemory} from '../../src/storage/memories.js'
import {originKeys} from '../../src/storage/origin-keys.js'
import {RepoStore} from '../../src/storage/repo-store.js'
import {fixedClock, refused, storedId, tempDir} from '../helpers/mem.js'

function gitFolder(path: string): string {
  mkdirSync(join(path, '.git'), {recursive: true})
  return path
}

/** A resolver over `home` and an opener that opens stores as the runtime does (lazily, signed with the home's key), closed when the test ends. */
function resolverAt(home: string, cwd?: string) {
  const resolver = new RepoResolver({home, cwd})
  const origins = originKeys(() => loadOriginKey(home))
  const opened: RepoStore[] = []
  const open = async (root: string) => {
    const s = await RepoStore.open(root, {lazy: true, origins, onCreate: () => resolver.storeCreated(root)})
    opened.push(s)
    return s
  }
  onTestFinished(async () => {
    for (const s of opened) await s.close()
  })
  return {resolver, open}
}

/** Stores one memory in `root` through a whole runtime over `home` (another machine, or this one before). */
async function storeWith(home: string, root: string, content: string): Promise<string> {
  const ctx = openMem({home, now: fixedClock(), usage: false, meaning: {model: 'off'}})
  try {
    return storedId(await store(ctx, {repo: root, content, type: 'procedure'}))
  } finally {
    await ctx.close()
  }
}

const registryText = (home: string) => (existsSync(join(home, 'repos.yaml')) ? readFileSync(join(home, 'repos.yaml'), 'utf8') : '')

describe('RepoResolver: which folder', () => {
  it('a face finds the root from a nested folder; the resolver takes the root and refuses the nested folder', async () => {
    const base = tempDir()
    const root = gitFolder(join(base, 'app'))
    const nested = join(root, 'src', 'lib')
    mkdirSync(nested, {recursive: true})
    expect(findRepoRoot(nested)).toBe(root)
    const {resolver} = resolverAt(join(base, 'home'))
    expect((await resolver.locate(root, 'read')).root).toBe(root)
    const err = await refused(resolver.locate(nested, 'read'), 'invalid_input', /is not a repository/)
    expect(err.hint).toMatch(/pass the repository's root folder/)
  })

  it('a git work tree or a folder holding .mem is a root; any other folder, a missing one, or a relative path without a cwd is refused', async () => {
    const base = tempDir()
    const git = gitFolder(join(base, 'git-app'))
    const initialised = join(base, 'plain-app')
    mkdirSync(join(initialised, '.mem'), {recursive: true}) // `mem init` without git
    const plain = join(base, 'notes')
    mkdirSync(plain)
    const {resolver} = resolverAt(join(base, 'home'))
    expect((await resolver.locate(git, 'read')).root).toBe(git)
    expect((await resolver.locate(initialised, 'read')).root).toBe(initialised)
    expect(findRepoRoot(join(initialised))).toBe(initialised)
    await refused(resolver.locate(plain, 'write'), 'invalid_input', /not a git work tree, and it holds no \.mem folder/)
    await refused(resolver.locate(join(base, 'missing'), 'read'), 'invalid_input', /is not a folder/)
    await refused(resolver.locate('./git-app', 'read'), 'invalid_input', /relative path/)
    expect(existsSync(join(plain, '.mem'))).toBe(false)
    expect(registryText(join(base, 'home'))).toBe('')
    // with a working directory, a relative path is the folder it names there
    const withCwd = resolverAt(join(base, 'home'), base).resolver
    expect((await withCwd.locate('./git-app', 'read')).root).toBe(git)
  })

  it('an id the registry maps is that folder; any other id is a store under MEM_HOME/repos', async () => {
    const base = tempDir()
    const home = join(base, 'home')
    const root = gitFolder(join(base, 'app'))
    const {resolver} = resolverAt(home)
    await resolver.register('my-app', root)
    expect(await resolver.locate('my-app', 'read')).toMatchObject({id: 'my-app', root})
    expect(await resolver.locate('scratch', 'write')).toEqual({id: 'scratch', root: join(home, 'repos', 'scratch')})
    expect(await resolver.list()).toEqual([{repoId: 'my-app', path: root}])
  })
})

describe('RepoResolver: which id, and when it is written down', () => {
  it('a read decides the base id and writes nothing; a write claims it in the registry, recorded in the store once .mem/ exists', async () => {
    const base = tempDir()
    const home = join(base, 'home')
    const root = gitFolder(join(base, 'my_app'))
    const {resolver, open} = resolverAt(home)
    expect(await resolver.locate(root, 'read')).toEqual({id: normalizeRepoId(root), root})
    expect(registryText(home)).toBe('')
    expect(existsSync(join(root, '.mem'))).toBe(false)

    const resolved = await resolver.resolve(root, 'write', open)
    expect(resolved.id).toBe(normalizeRepoId(root))
    expect(registryText(home)).toContain(JSON.stringify(root))
    expect(readRepoRecord(root)).toBeUndefined() // no .mem/ yet: nothing is made by resolving
    await resolved.store.create() // the first write makes .mem/: the claimed id is recorded then
    expect(readRepoRecord(root)).toEqual({repoId: normalizeRepoId(root), path: root, formerIds: []})
  })

  it('a folder whose base id another folder holds takes base~hash; a folder whose holder is gone takes the base id', async () => {
    const base = tempDir()
    const home = join(base, 'home')
    const first = gitFolder(join(base, 'my_app'))
    const second = gitFolder(join(base, 'my.app'))
    await storeWith(home, first, 'the underscore app ships with make')
    const {resolver} = resolverAt(home)
    const shared = normalizeRepoId(first)
    expect(normalizeRepoId(second)).toBe(shared)
    expect((await resolver.locate(second, 'read')).id).toBe(suffixedRepoId(shared, second)) // decided, not written
    expect(registryText(home)).not.toContain(JSON.stringify(second))
    expect((await resolver.locate(second, 'write')).id).toBe(suffixedRepoId(shared, second))
    expect(registryText(home)).toContain(JSON.stringify(second))
    // a registry entry for a folder that no longer holds a store does not keep its id
    const third = gitFolder(join(base, 'my-app'))
    const other = new RepoResolver({home: join(base, 'home2')})
    await other.register(normalizeRepoId(third), join(base, 'gone'))
    expect((await other.locate(third, 'read')).id).toBe(normalizeRepoId(third))
  })

  it('a recorded id holds wherever the store goes: a move keeps it, a copy beside the original takes its own', async () => {
    const base = tempDir()
    const home = join(base, 'home')
    const original = gitFolder(join(base, 'app'))
    await storeWith(home, original, 'deploys run from the release branch')
    const id = readRepoRecord(original)!.repoId
    const copy = gitFolder(join(base, 'app-copy'))
    cpSync(join(original, '.mem'), join(copy, '.mem'), {recursive: true})
    const {resolver} = resolverAt(home)
    const copied = await resolver.locate(copy, 'read')
    expect(copied.id).not.toBe(id)
    expect(copied.id).toBe(normalizeRepoId(copy))
    // moved: the original folder gone from its place
    const moved = gitFolder(join(base, 'moved'))
    cpSync(join(original, '.mem'), join(moved, '.mem'), {recursive: true})
    rmSync(join(original, '.mem'), {recursive: true})
    expect(await resolver.locate(moved, 'write')).toMatchObject({id, root: moved, record: {repoId: id, path: moved}})
    expect(readRepoRecord(moved)).toMatchObject({repoId: id, path: moved})
    expect(registryText(home)).toContain(`${JSON.stringify(id)}: ${JSON.stringify(moved)}`)
  })
})

describe('RepoResolver: former ids', () => {
  it('a copy records the ids its memories were minted under, and is found as their former holder', async () => {
    const base = tempDir()
    const home = join(base, 'home')
    const original = gitFolder(join(base, 'app'))
    const memoryId = await storeWith(home, original, 'the cache is warmed by scripts/warm.sh')
    const oldId = readRepoRecord(original)!.repoId
    const copy = gitFolder(join(base, 'copy'))
    cpSync(join(original, '.mem'), join(copy, '.mem'), {recursive: true})
    const {resolver, open} = resolverAt(home)
    const resolved = await resolver.resolve(copy, 'write', open)
    expect(resolved.id).toBe(normalizeRepoId(copy))
    expect(resolved.formerIds).toEqual([oldId])
    expect(readRepoRecord(copy)).toEqual({repoId: resolved.id, path: copy, formerIds: [oldId]})
    // its memories' repo fields now name it; their ids never change
    expect(resolved.store.read((db) => getMemory(db, memoryId))?.repoId).toBe(resolved.id)
    // the original's id: the copy is a former holder of it; the original, being that id, is not
    const holders = await resolver.formerHolders(oldId, (id) => resolver.resolve(id, 'read', open))
    expect(holders.map((h) => h.root)).toEqual([copy])
    // a store with nothing carried has none
    expect((await resolver.resolve(original, 'read', open)).formerIds).toBeUndefined()
  })
})

describe('RepoResolver: trust, settled before the folder is registered', () => {
  it("a store met first that this machine never used is foreign, though resolving it registers the folder", async () => {
    const base = tempDir()
    const root = gitFolder(join(base, 'clone'))
    await storeWith(join(base, 'elsewhere'), root, 'committed by a teammate')
    // what a clone holds: the committed store, without the machine's record of its id (.gitignore'd)
    expect(readFileSync(join(root, '.mem', '.gitignore'), 'utf8')).toMatch(/^repo\.json$/m)
    rmSync(join(root, '.mem', 'repo.json'))
    const home = join(base, 'home')
    const {resolver, open} = resolverAt(home)
    expect(registryText(home)).toBe('')
    await resolver.resolve(root, 'read', open)
    // locating a folder that holds a store claims its id: had trust been asked after that, the
    // registry would have said "used before" and the rows would have been adopted
    expect(registryText(home)).toContain(JSON.stringify(root))
    expect(resolver.trust.get(root)).toBe('foreign')
  })

  it('a store in a folder this machine registered before is adopted; a store under MEM_HOME/repos is too', async () => {
    const base = tempDir()
    const home = join(base, 'home')
    const root = gitFolder(join(base, 'app'))
    await storeWith(join(base, 'elsewhere'), root, 'written before trust was kept')
    const {resolver, open} = resolverAt(home)
    await resolver.register(normalizeRepoId(root), root) // this machine used the folder before
    await resolver.resolve(root, 'read', open)
    expect(resolver.trust.get(root)).toBe('adopted')
    await storeWith(home, 'scratch-notes', 'a repo known only by its id')
    const byId = join(home, 'repos', 'scratch-notes')
    const fresh = resolverAt(home) // a new process: nothing settled in memory
    const trustFile = join(home, 'trust.json')
    writeFileSync(trustFile, JSON.stringify({stores: {}})) // no decision on disk either
    await fresh.resolver.resolve('scratch-notes', 'read', fresh.open)
    expect(fresh.resolver.trust.get(byId)).toBe('adopted')
  })

  it('a store this process made is its own; a decision once recorded is not taken again', async () => {
    const base = tempDir()
    const home = join(base, 'home')
    const root = gitFolder(join(base, 'app'))
    const {resolver, open} = resolverAt(home)
    const resolved = await resolver.resolve(root, 'write', open)
    expect(resolver.trust.get(root)).toBeUndefined()
    await resolved.store.create()
    expect(resolver.trust.get(root)).toBe('own')
    // recorded foreign by hand: a new resolver leaves it as it is
    resolver.trust.set(root, 'foreign')
    const again = resolverAt(home)
    expect(await again.resolver.usedBefore(root)).toBeUndefined()
    await again.resolver.resolve(root, 'read', again.open)
    expect(again.resolver.trust.get(root)).toBe('foreign')
    again.resolver.adopted(root)
    expect(again.resolver.trust.get(root)).toBe('adopted')
  })
})
