import {join, resolve} from 'node:path'
import {resolveHome} from '../config/home.js'
import {isDirectory, looksLikePath, normalizeRepoId} from '../config/paths.js'
import {Registry} from '../config/registry.js'
import type {MemContext, RepoHandle} from '../core/mem-context.js'
import type {RepoStore, RepoStoreOptions} from '../storage/repo-store.js'

export interface OpenMemOptions {
  /** Environment to read MEM_HOME from (the CLI passes process.env; tests pass their own). */
  env?: Record<string, string | undefined>
  /** Overrides MEM_HOME. */
  home?: string
  /** Base for relative repo paths. */
  cwd?: string
  /** Fixed clock for tests. */
  now?: () => Date
  store?: RepoStoreOptions
  /** A server or other process answering many requests (keeps in-process search indexes). */
  longLived?: boolean
  /** Secret scanner; defaults to the real one (loaded lazily). */
  scanSecrets?: MemContext['scanSecrets']
}

/** The context plus what only the process that owns it needs: its home and its open stores. */
export interface MemRuntime extends MemContext {
  home: string
  /** The stores opened so far (a long-running server checkpoints them when idle and at exit). */
  openStores(): Promise<RepoStore[]>
}

/**
 * The composition root: builds the context every core operation receives. Repos are resolved
 * by the rules of decisions.md (an existing path → its .mem; a registered id → its path; any
 * other id → MEM_HOME/repos/<id>), registered on first touch, and their stores opened once.
 */
export function openMem(options: OpenMemOptions = {}): MemRuntime {
  const home = options.home ?? resolveHome(options.env ?? {})
  const cwd = options.cwd ?? '.'
  const registry = new Registry(home)
  const stores = new Map<string, Promise<RepoStore>>()
  const now = options.now ?? (() => new Date())
  let scanner = options.scanSecrets

  async function locate(ref: string): Promise<{id: string; root: string}> {
    if (looksLikePath(ref)) {
      const abs = resolve(cwd, ref)
      if (isDirectory(abs)) return {id: normalizeRepoId(abs), root: abs}
      ref = normalizeRepoId(abs)
    }
    const id = normalizeRepoId(ref)
    const registered = await registry.lookup(id)
    if (registered && isDirectory(registered)) return {id, root: registered}
    return {id, root: join(home, 'repos', id)}
  }

  function openStore(root: string): Promise<RepoStore> {
    let opening = stores.get(root)
    if (!opening) {
      // the store (sql.js, search, locks) is loaded only by commands that open one
      opening = import('../storage/repo-store.js').then(({RepoStore}) => RepoStore.open(root, options.store))
      stores.set(root, opening)
      opening.catch(() => stores.delete(root))
    }
    return opening
  }

  return {
    home,
    now,
    longLived: options.longLived ?? false,
    async locate(ref: string) {
      const where = await locate(ref)
      await registry.register(where.id, where.root).catch(() => undefined)
      return where
    },
    async repo(ref: string): Promise<RepoHandle> {
      const {id, root} = await locate(ref)
      const store = await openStore(root)
      await registry.register(id, root).catch(() => undefined) // a read-only home must not block reads
      return {id, root, given: ref, store}
    },
    storeAt: (root: string) => openStore(resolve(root)),
    async dropStoreAt(root: string) {
      const key = resolve(root)
      const opening = stores.get(key)
      stores.delete(key)
      const store = await opening?.catch(() => undefined)
      await store?.close()
    },
    async listRepos() {
      const entries = await registry.entries()
      return [...entries].map(([repoId, path]) => ({repoId, path}))
    },
    async openStores() {
      const all = await Promise.all([...stores.values()].map((opening) => opening.catch(() => undefined)))
      return all.filter((store): store is RepoStore => store !== undefined)
    },
    async scanSecrets(text: string) {
      scanner ??= (await import('../gates/secrets.js')).scanSecrets
      return scanner(text)
    },
    async close() {
      const all = [...stores.values()]
      stores.clear()
      for (const opening of all) {
        const store = await opening.catch(() => undefined)
        await store?.close()
      }
    },
  }
}
