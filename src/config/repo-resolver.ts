import {join} from 'node:path'
import type {RepoStore} from '../storage/repo-store.js'
import {TrustBook} from './origin-trust.js'
import {isDirectory, parseRepoRef, requireRepoRoot} from './paths.js'
import {Registry} from './registry.js'
import {candidateRepoIds, hasStore, heldByAnother, readRepoRecord, writeRepoRecord, type RepoRecord} from './repo-identity.js'

/** Whether the caller will only read a repo or may write it (a write registers and records its id). */
export type RepoAccessMode = 'read' | 'write'

/** Where a `repo` value leads: the repo's id and folder, and the store's record of its id when there is one. */
export interface LocatedRepo {
  id: string
  root: string
  /** The store's record of its id (repo-identity.ts), as read or just written. */
  record?: RepoRecord
}

/** A repo resolved and its store opened: what a context hands an operation (engines/context.ts RepoHandle, less `given`). */
export interface ResolvedRepo {
  id: string
  root: string
  store: RepoStore
  /** Other ids this store's memory ids carry (repo-identity.ts rule 4); absent when none. */
  formerIds?: readonly string[]
}

export interface RepoResolverOptions {
  /** MEM_HOME: the registry, the trust book and stores of repos known only by id live there. */
  home: string
  /** Base for relative repo paths (a CLI's working directory); without it a relative path is refused. */
  cwd?: string
}

/**
 * Repo identity, the policy half of the composition root: which folder and id a `repo` value names
 * (docs/storage.md, "Repo ids"; the rules of repo-identity.ts), when that id is claimed in the
 * registry and recorded in the store, the ids a store's memories carry from before (`formerIds`),
 * and whose a store's unsigned rows are the first time this machine meets it (docs/security.md,
 * "Provenance"). runtime/open-mem.ts wires it to the stores; it decides nothing itself.
 *
 * The rules, in the order they are asked:
 * 1. A path is a repository's root folder (a git work tree, or a folder holding `.mem/`): anything
 *    else is refused. Faces pass the root found from their working directory (paths.ts findRepoRoot).
 * 2. A folder's id is the one its store records; else the first of its candidate ids (its base id,
 *    then suffixes of its path's hash) that no other folder holding a store has in the registry.
 * 3. An id the registry maps to a folder is that folder; any other id is MEM_HOME/repos/<id>.
 * 4. A read decides without writing anything; a write (or a store already on disk) claims the id in
 *    the registry and records it in the store.
 * 5. Trust is settled before the folder is registered: whether this machine used the folder before
 *    is read from the registry before locating it (which registers a folder that holds a store).
 */
export class RepoResolver {
  readonly home: string
  readonly registry: Registry
  readonly trust: TrustBook
  private readonly cwd: string | undefined
  /** id → path pairs this resolver registered (or found registered): checked once, not per call. */
  private readonly registered = new Set<string>()
  /** Folders whose trust is settled in this process. */
  private readonly settled = new Set<string>()
  /** Folder → the id a write claimed for it before its `.mem/` existed (recorded by storeCreated). */
  private readonly unrecorded = new Map<string, string>()

  constructor(options: RepoResolverOptions) {
    this.home = options.home
    this.cwd = options.cwd
    this.registry = new Registry(options.home)
    this.trust = new TrustBook(options.home)
  }

  /** Stores of repos known only by id live under this folder (MEM_HOME/repos). */
  get homeRepos(): string {
    return join(this.home, 'repos')
  }

  /**
   * Resolves `ref` and opens its store with `open`, in the order identity needs: trust is asked of
   * the registry before locating (rule 5), settled before registering, and a store's former ids are
   * settled once it is open. A read never registers (a typo must not become a repo the scheduler
   * maintains); a write registers best effort (a read-only home must not block it).
   */
  async resolve(ref: string, access: RepoAccessMode, open: (root: string) => Promise<RepoStore>): Promise<ResolvedRepo> {
    const usedBefore = await this.usedBefore(ref)
    const where = await this.locate(ref, access)
    const {id, root} = where
    const store = await open(root)
    await this.settleTrust(root, store, usedBefore)
    if (access === 'write') await this.register(id, root).catch(() => undefined)
    const formerIds = await this.settleFormerIds(where, store)
    // a store not made yet records the id it was claimed under when its first write makes `.mem/`
    if (access === 'write' && !where.record) this.unrecorded.set(root, id)
    return {id, root, store, ...(formerIds.length > 0 ? {formerIds} : {})}
  }

  /** Where `ref` leads (rules 1–4), without opening its store. */
  async locate(ref: string, access: RepoAccessMode): Promise<LocatedRepo> {
    const target = parseRepoRef(ref, {cwd: this.cwd})
    if (target.kind === 'path') {
      requireRepoRoot(target.path, ref.trim())
      return this.identify(target.path, access === 'write' || hasStore(target.path))
    }
    const registered = await this.registry.lookup(target.id)
    if (registered && isDirectory(registered)) {
      let record = readRepoRecord(registered)
      // a store from before ids were recorded, reached by its id: the registry's word is its id
      if (!record && hasStore(registered) && !registered.startsWith(this.homeRepos)) {
        try {
          writeRepoRecord(registered, {repoId: target.id, path: registered})
          record = readRepoRecord(registered)
        } catch {
          // read-only: decided again next time, the same way
        }
      }
      return {id: target.id, root: registered, record}
    }
    return {id: target.id, root: join(this.homeRepos, target.id)}
  }

  /** Records `id → root` in the registry (once per pair in this process). */
  async register(id: string, root: string): Promise<void> {
    const key = `${id}\0${root}`
    if (this.registered.has(key)) return
    await this.registry.register(id, root)
    this.registered.add(key)
  }

  /**
   * The id of the repository in folder `root` (repo-identity.ts): the one its store records; else
   * its base id unless another folder holds that, else the base id with a suffix of its path's hash.
   * With `persist` (a write, or a store already on disk) the choice is claimed in the registry and
   * recorded in the store; a read of a folder with no store decides without writing anything.
   */
  async identify(root: string, persist: boolean): Promise<LocatedRepo> {
    const record = readRepoRecord(root)
    if (record && record.path === root) return {id: record.repoId, root, record}
    if (record) {
      // the store was moved or copied here: a move keeps its id; a copy (the folder the registry
      // gives that id still holds a store recording it) takes an id of its own below
      const registeredPath = await this.registry.lookup(record.repoId)
      const copy = heldByAnother(registeredPath, root) && readRepoRecord(registeredPath as string)?.repoId === record.repoId
      if (!copy) {
        const moved = {...record, path: root}
        if (persist) {
          try {
            await this.register(record.repoId, root)
            writeRepoRecord(root, moved)
          } catch {
            // a read-only home or store: the recorded id holds all the same
          }
        }
        return {id: record.repoId, root, record: moved}
      }
    }
    const candidates = this.candidateIds(root)
    if (!persist) {
      for (const id of candidates) if (!heldByAnother(await this.registry.lookup(id), root)) return {id, root}
      return {id: candidates[candidates.length - 1], root}
    }
    let id: string
    try {
      id = await this.registry.claim(candidates, root, (registeredPath) => heldByAnother(registeredPath, root))
    } catch {
      // a read-only home: decide as a read does, record nothing (the next writable open will)
      return this.identify(root, false)
    }
    this.registered.add(`${id}\0${root}`)
    // formerIds stay unknown until the store is open and its memories looked at (settleFormerIds)
    const fresh: RepoRecord = {repoId: id, path: root}
    try {
      writeRepoRecord(root, fresh)
    } catch {
      return {id, root}
    }
    // (no record while `.mem/` does not exist yet: the store's first write records it, storeCreated)
    return {id, root, record: readRepoRecord(root)}
  }

  /**
   * The ids a folder with no recorded id may take, in the order they are tried (rule 2): today its
   * path's (repo-identity.ts candidateRepoIds).
   *
   * Team mode's id of a checkout (the normalized git remote, `github.com/org/app`, or the `id:` of
   * a committed `.mem/team.yaml`, so that two laptops agree on it) is config/team-repo-id.ts
   * (`checkoutTeamRepoId`): it names the checkout's repo on a team server. A local store keeps its
   * path's ids, as before: the ids of existing local stores and their memories never change.
   */
  private candidateIds(root: string): string[] {
    return candidateRepoIds(root)
  }

  /**
   * Completes the record of a store that has memories from before its id was recorded: the ids its
   * memory ids carry besides its own become its `formerIds` (so those ids keep resolving), and its
   * memories' `repoId` fields are set to its id. Once per store; best effort (a read-only store keeps
   * answering, and is looked at again next time).
   */
  async settleFormerIds(where: LocatedRepo, store: RepoStore): Promise<readonly string[]> {
    const record = where.record
    if (!record || record.formerIds !== undefined || !hasStore(where.root)) return record?.formerIds ?? []
    try {
      const {memoryRepoIds} = await import('../storage/memories.js')
      await store.ready()
      const carried = store.read((db) => memoryRepoIds(db))
      const formerIds = [...new Set(carried.inIds)].filter((x) => x !== where.id).sort()
      if (carried.inFields.some((x) => x !== where.id)) await store.write(() => ({ops: [{op: 'repo-id', to: where.id}], result: undefined}))
      const settled = {...record, formerIds}
      writeRepoRecord(where.root, settled)
      where.record = settled
      return formerIds
    } catch {
      return []
    }
  }

  /**
   * For a store with no trust decision yet: whether this machine used its folder before this process
   * (the registry had it). A repo reached by id is one the registry gave. Undefined when there is
   * nothing to decide (no store there, or decided already). Asked before locate(), which registers
   * a folder already holding a store.
   */
  async usedBefore(ref: string): Promise<boolean | undefined> {
    let target
    try {
      target = parseRepoRef(ref, {cwd: this.cwd})
    } catch {
      return undefined // locate() reports it
    }
    if (target.kind !== 'path') return true
    const root = target.path
    if (this.settled.has(root) || !hasStore(root) || this.trust.get(root) !== undefined) return undefined
    return [...(await this.registry.entries()).values()].includes(root)
  }

  /**
   * The first time this version meets a store that already holds memories, it decides once whose
   * rows without a signature are: the user's when this machine used the folder before (`usedBefore`,
   * or a store under MEM_HOME), else foreign — a clone's committed `.mem` — until `mem init --adopt`.
   * The decision lives in MEM_HOME, out of the repository's reach.
   */
  async settleTrust(root: string, store: RepoStore, usedBefore: boolean | undefined): Promise<void> {
    if (this.settled.has(root)) return
    if (!hasStore(root) || this.trust.get(root) !== undefined) {
      this.settled.add(root)
      return
    }
    const ours = root.startsWith(this.homeRepos) || usedBefore === true
    if (ours) {
      const {adoptRows} = await import('../storage/origin.js')
      try {
        await adoptRows(store, false)
      } catch {
        return // a read-only or locked store: its old rows read as foreign this time, and it is asked again
      }
    }
    this.trust.set(root, ours ? 'adopted' : 'foreign')
    this.settled.add(root)
  }

  /**
   * A store this process made (its first write made `.mem/` at `root`): its rows are this user's,
   * and it records the id a write claimed for it before the folder existed.
   */
  storeCreated(root: string): void {
    this.trust.set(root, 'own')
    this.settled.add(root)
    const id = this.unrecorded.get(root)
    if (id !== undefined && !readRepoRecord(root) && !root.startsWith(this.homeRepos)) writeRepoRecord(root, {repoId: id, path: root, formerIds: []})
  }

  /** `mem init --adopt` took the store at `root` as this user's. */
  adopted(root: string): void {
    this.trust.set(root, 'adopted')
    this.settled.add(root)
  }

  /**
   * The registered repos other than `repoId` whose store carries `repoId` among its former ids, each
   * opened with `open`. A store recorded but not yet looked at (located, never opened) is opened:
   * that settles it; one whose record lists other former ids only is skipped unopened.
   */
  async formerHolders<T extends {formerIds?: readonly string[]}>(repoId: string, open: (id: string) => Promise<T>): Promise<T[]> {
    const holders: T[] = []
    for (const [id, path] of await this.registry.entries()) {
      if (id === repoId) continue
      const record = readRepoRecord(path)
      if (!record || record.repoId !== id || (record.formerIds !== undefined && !record.formerIds.includes(repoId))) continue
      const handle = await open(id)
      if (handle.formerIds?.includes(repoId)) holders.push(handle)
    }
    return holders
  }

  /** Every repo in the registry. */
  async list(): Promise<Array<{repoId: string; path: string}>> {
    const entries = await this.registry.entries()
    return [...entries].map(([repoId, path]) => ({repoId, path}))
  }
}
