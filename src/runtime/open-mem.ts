import {readFileSync} from 'node:fs'
import {isAbsolute, join, resolve} from 'node:path'
import {MemError} from '../model/errors.js'
import {resolveHome} from '../config/home.js'
import {isDirectory, parseRepoRef, requireRepoRoot} from '../config/paths.js'
import {candidateRepoIds, hasStore, heldByAnother, readRepoRecord, writeRepoRecord, type RepoRecord} from '../config/repo-identity.js'
import {Registry} from '../config/registry.js'
import type {MemContext, RepoAccess, RepoHandle} from '../engines/context.js'
import type {RepoStore, RepoStoreOptions} from '../storage/repo-store.js'
import type {EnrichmentConfig, MeaningSetting} from '../config/user-config.js'
import {ROLLUP_LOG_BYTES, usageLogBytes} from '../storage/usage.js'
import {MemUsageRecorder} from './usage-recorder.js'
import {loadOriginKey, TrustBook} from '../config/origin-trust.js'
import {originKeys} from '../storage/origin-keys.js'

/** How long a long-lived process trusts its last read of config.yaml (the embeddings switch). */
const CONFIG_RECHECK_MS = 1_000

export interface OpenMemOptions {
  /** Environment to read MEM_HOME from (the CLI passes process.env; tests pass their own). */
  env?: Record<string, string | undefined>
  /** Overrides MEM_HOME. */
  home?: string
  /**
   * Base for relative repo paths (the CLI's working directory). Without it a relative path is
   * refused: a server's working directory means nothing to its clients.
   */
  cwd?: string
  /** Fixed clock for tests. */
  now?: () => Date
  store?: RepoStoreOptions
  /** A server or other process answering many requests (keeps in-process search indexes). */
  longLived?: boolean
  /** Secret scanner; defaults to the real one (loaded lazily). */
  scanSecrets?: MemContext['scanSecrets']
  /**
   * Usage statistics: on by default. `false` keeps none; `flushMs` is how often a long-lived
   * process appends its counts to the repos' usage logs (default 5 s).
   */
  usage?: false | {flushMs?: number; elapsed?: () => number}
  /** The enrichment runtime; by default read from the user config (`enrichment:`). */
  enrichment?: EnrichmentConfig | null
  /**
   * The meaning model (engines/meaning); by default MEM_MEANING from `env` (off, builtin, runtime,
   * or the absolute path of a local model directory), else config.yaml's `meaning:`, else built in.
   */
  meaning?: MeaningSetting
  /** Where a notice for the person goes (the CLI: stderr; a server: its log). */
  onNotice?: (message: string) => void
  /** See MemContext.recallIndexBehind. */
  onRecallIndexBehind?: (root: string) => void
}

/** The context plus what only the process that owns it needs: its home and its open stores. */
export interface MemRuntime extends MemContext {
  home: string
  /** The stores opened so far (a long-running server checkpoints them when idle and at exit). */
  openStores(): Promise<RepoStore[]>
  readonly usage?: MemUsageRecorder
}

/**
 * The composition root: builds the context every core operation receives. Repos are resolved
 * by the rules of decisions.md (an existing path → its .mem; a registered id → its path; any
 * other id → MEM_HOME/repos/<id>), registered on first touch, and their stores opened once.
 */
/** MEM_MEANING: off, builtin, runtime, or the absolute path of a local model directory. */
function meaningFromEnv(value: string): MeaningSetting {
  if (value === 'off' || value === 'static' || value === 'builtin' || value === 'runtime') return {model: value}
  if (isAbsolute(value)) return {model: 'local', dir: value}
  throw new MemError('invalid_input', `MEM_MEANING is ${JSON.stringify(value)}: it must be off, static, builtin, runtime or the absolute path of a model directory.`, {
    hint: 'Unset MEM_MEANING to use config.yaml (meaning.model), or set it to off for word-only recall.',
  })
}

export function openMem(options: OpenMemOptions = {}): MemRuntime {
  const home = options.home ?? resolveHome(options.env ?? {})
  const cwd = options.cwd
  const registry = new Registry(home)
  // provenance (docs/security.md): this machine's key signs what it writes; stores met already full are settled once
  const origins = originKeys(() => loadOriginKey(home))
  const trust = new TrustBook(home)
  const stores = new Map<string, Promise<RepoStore>>()
  const now = options.now ?? (() => new Date())
  let scanner = options.scanSecrets
  let enrichment: Promise<EnrichmentConfig | null> | undefined =
    options.enrichment !== undefined ? Promise.resolve(options.enrichment) : undefined
  const longLived = options.longLived ?? false
  // id → path pairs this process has registered (or found registered): checked once, not per call
  const registered = new Set<string>()
  const register = async (id: string, root: string): Promise<void> => {
    const key = `${id}\0${root}`
    if (registered.has(key)) return
    await registry.register(id, root)
    registered.add(key)
  }
  // config.yaml as last read for the embeddings switch; a long-lived process looks again after a second
  let configText: {text: string | null; at: number} | undefined
  const readConfigText = (): string | null => {
    const at = Date.now()
    if (configText && longLived && at - configText.at < CONFIG_RECHECK_MS) return configText.text
    let text: string | null
    try {
      text = readFileSync(join(home, 'config.yaml'), 'utf8')
    } catch {
      text = null
    }
    configText = {text, at}
    return text
  }
  const loadEnrichment = (): Promise<EnrichmentConfig | null> => {
    enrichment ??= import('../config/user-config.js').then((m) => m.readUserConfig(home)).then((c) => c.enrichment)
    return enrichment
  }

  // Usage: counted in memory, appended to .mem/usage.log in batches, folded into the database
  // when a log has grown and its store is open in this process anyway.
  const rollUps = new Map<string, Promise<unknown>>()
  const rollUpLarge = async (roots: Iterable<string>, threshold: number): Promise<void> => {
    for (const root of roots) {
      const opening = stores.get(root)
      if (!opening || rollUps.has(root) || usageLogBytes(join(root, '.mem')) < threshold) continue
      const run = opening.then((store) => store.rollUpUsage(now())).catch(() => undefined)
      rollUps.set(root, run)
      await run
      rollUps.delete(root)
    }
  }
  const usage =
    options.usage === false
      ? undefined
      : new MemUsageRecorder({now, elapsed: options.usage?.elapsed, onFlushed: (roots) => void rollUpLarge(roots, ROLLUP_LOG_BYTES)})
  const flushTimer = usage && longLived ? setInterval(() => usage.flush(), options.usage ? (options.usage.flushMs ?? 5_000) : 5_000) : undefined
  flushTimer?.unref()

  interface Located {
    id: string
    root: string
    /** The store's record of its id (config/repo-identity.ts), as read or just written. */
    record?: RepoRecord
  }

  async function locate(ref: string, access: RepoAccess): Promise<Located> {
    const target = parseRepoRef(ref, {cwd})
    if (target.kind === 'path') {
      requireRepoRoot(target.path, ref.trim())
      return identify(target.path, access === 'write' || hasStore(target.path))
    }
    const registered = await registry.lookup(target.id)
    if (registered && isDirectory(registered)) {
      let record = readRepoRecord(registered)
      // a store from before ids were recorded, reached by its id: the registry's word is its id
      if (!record && hasStore(registered) && !registered.startsWith(join(home, 'repos'))) {
        try {
          writeRepoRecord(registered, {repoId: target.id, path: registered})
          record = readRepoRecord(registered)
        } catch {
          // read-only: decided again next time, the same way
        }
      }
      return {id: target.id, root: registered, record}
    }
    return {id: target.id, root: join(home, 'repos', target.id)}
  }

  /**
   * The id of the repository in folder `root` (config/repo-identity.ts): the one its store records;
   * else its base id unless another folder holds that, else the base id with a suffix of its path's
   * hash. With `persist` (a write, or a store already on disk) the choice is claimed in the registry
   * and recorded in the store; a read of a folder with no store decides without writing anything.
   */
  async function identify(root: string, persist: boolean): Promise<Located> {
    const record = readRepoRecord(root)
    if (record && record.path === root) return {id: record.repoId, root, record}
    if (record) {
      // the store was moved or copied here: a move keeps its id; a copy (the folder the registry
      // gives that id still holds a store recording it) takes an id of its own below
      const registeredPath = await registry.lookup(record.repoId)
      const copy = heldByAnother(registeredPath, root) && readRepoRecord(registeredPath as string)?.repoId === record.repoId
      if (!copy) {
        const moved = {...record, path: root}
        if (persist) {
          try {
            await register(record.repoId, root)
            writeRepoRecord(root, moved)
          } catch {
            // a read-only home or store: the recorded id holds all the same
          }
        }
        return {id: record.repoId, root, record: moved}
      }
    }
    const candidates = candidateRepoIds(root)
    if (!persist) {
      for (const id of candidates) if (!heldByAnother(await registry.lookup(id), root)) return {id, root}
      return {id: candidates[candidates.length - 1], root}
    }
    let id: string
    try {
      id = await registry.claim(candidates, root, (registeredPath) => heldByAnother(registeredPath, root))
    } catch {
      // a read-only home: decide as a read does, record nothing (the next writable open will)
      return identify(root, false)
    }
    registered.add(`${id}\0${root}`)
    // formerIds stay unknown until the store is open and its memories looked at (settleFormerIds)
    const fresh: RepoRecord = {repoId: id, path: root}
    try {
      writeRepoRecord(root, fresh)
    } catch {
      return {id, root}
    }
    // (no record while `.mem/` does not exist yet: the store's first write records it, recordOnCreate)
    return {id, root, record: readRepoRecord(root)}
  }

  /**
   * Completes the record of a store that has memories from before its id was recorded: the ids its
   * memory ids carry besides its own become its `formerIds` (so those ids keep resolving), and its
   * memories' `repoId` fields are set to its id. Once per store; best effort (a read-only store keeps
   * answering, and is looked at again next time).
   */
  async function settleFormerIds(where: Located, store: RepoStore): Promise<readonly string[]> {
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

  async function openRepo(ref: string, access: RepoAccess, opts: {deferLoad?: boolean} = {}): Promise<RepoHandle> {
    // asked before locate(), which registers a folder already holding a store
    const usedBefore = await usedBeforeByThisMachine(ref)
    const where = await locate(ref, access)
    const {id, root} = where
    const store = await openStore(root, opts.deferLoad)
    // before registering: a store found here already full is the user's only if this machine used it before
    await settleTrust(root, store, usedBefore)
    // a read never registers (a typo must not become a repo the scheduler maintains); a
    // read-only home must not block a write either: registering is best effort
    if (access === 'write') await register(id, root).catch(() => undefined)
    const formerIds = await settleFormerIds(where, store)
    // a store not made yet records the id it was claimed under when its first write makes `.mem/`
    if (access === 'write' && !where.record) unrecorded.set(root, id)
    return {id, root, given: ref, store, ...(formerIds.length > 0 ? {formerIds} : {})}
  }

  /**
   * The first time this version meets a store that already holds memories, it decides once whose
   * rows without a signature are: the user's when this machine used the folder before (it is in
   * the registry, or it is a store under MEM_HOME), else foreign — a clone's committed `.mem` —
   * until `mem init --adopt`. The decision lives in MEM_HOME, out of the repository's reach.
   */
  const settled = new Set<string>()
  /**
   * For a store with no decision yet: whether this machine used its folder before this process
   * (the registry had it). A repo reached by id is one the registry gave. Undefined when there is
   * nothing to decide (no store there, or decided already).
   */
  async function usedBeforeByThisMachine(ref: string): Promise<boolean | undefined> {
    let target
    try {
      target = parseRepoRef(ref, {cwd})
    } catch {
      return undefined // locate() reports it
    }
    if (target.kind !== 'path') return true
    const root = target.path
    if (settled.has(root) || !hasStore(root) || trust.get(root) !== undefined) return undefined
    return [...(await registry.entries()).values()].includes(root)
  }

  async function settleTrust(root: string, store: RepoStore, usedBefore: boolean | undefined): Promise<void> {
    if (settled.has(root)) return
    if (!hasStore(root) || trust.get(root) !== undefined) {
      settled.add(root)
      return
    }
    const ours = root.startsWith(join(home, 'repos')) || usedBefore === true
    if (ours) {
      const {adoptRows} = await import('../storage/origin.js')
      try {
        await adoptRows(store, false)
      } catch {
        return // a read-only or locked store: its old rows read as foreign this time, and it is asked again
      }
    }
    trust.set(root, ours ? 'adopted' : 'foreign')
    settled.add(root)
  }

  /** Folder → the id a write claimed for it before its `.mem/` existed (recorded by onCreate). */
  const unrecorded = new Map<string, string>()
  const recordOnCreate = (root: string) => () => {
    trust.set(root, 'own')
    settled.add(root)
    const id = unrecorded.get(root)
    if (id !== undefined && !readRepoRecord(root) && !root.startsWith(join(home, 'repos'))) writeRepoRecord(root, {repoId: id, path: root, formerIds: []})
  }

  /** The store of `root`, loaded unless `deferLoad` (then the caller calls `ready()` before reading it). */
  async function openStore(root: string, deferLoad = false): Promise<RepoStore> {
    let opening = stores.get(root)
    if (!opening) {
      // the store (sql.js, search, locks) is loaded only by commands that open one
      opening = import('../storage/repo-store.js').then(({RepoStore}) => RepoStore.open(root, {...options.store, onCreate: recordOnCreate(root), lazy: true, origins}))
      stores.set(root, opening)
      opening.catch(() => stores.delete(root))
    }
    const store = await opening
    if (!deferLoad) await store.ready()
    return store
  }

  return {
    home,
    now,
    longLived,
    usage,
    enrichment: loadEnrichment,
    async embeddings() {
      // Embeddings need an `embeddings:` key in config.yaml: without one (or without the file),
      // recall does not load the config parser at all.
      if (options.enrichment === undefined) {
        const text = readConfigText()
        if (text === null || !/\bembeddings\s*:/.test(text)) return null
      }
      return loadEnrichment()
    },
    async meaning() {
      if (options.meaning) return {setting: options.meaning, runtime: options.meaning.model === 'runtime' ? await loadEnrichment() : null}
      // a context given its enrichment runtime uses its embedding model when that is on
      if (options.enrichment?.embeddings) return {setting: {model: 'runtime'} as const, runtime: options.enrichment}
      const env = options.env?.MEM_MEANING?.trim()
      if (env) return {setting: meaningFromEnv(env), runtime: env === 'runtime' ? await loadEnrichment() : null}
      // without a `meaning:` or `embeddings:` key, words alone (opt-in: docs/meaning.md), without loading the config parser
      const text = readConfigText()
      if (text === null || !/\b(meaning|embeddings)\s*:/.test(text)) return {setting: {model: 'off'} as const, runtime: null}
      const config = await import('../config/user-config.js').then((m) => m.readUserConfig(home))
      return {setting: config.meaning, runtime: config.enrichment}
    },
    ...(options.onNotice ? {notice: options.onNotice} : {}),
    async locate(ref: string, access: RepoAccess) {
      const where = await locate(ref, access)
      if (access === 'write') await register(where.id, where.root).catch(() => undefined)
      return {id: where.id, root: where.root}
    },
    repo: openRepo,
    ...(options.onRecallIndexBehind ? {recallIndexBehind: options.onRecallIndexBehind} : {}),
    async formerHolders(repoId: string) {
      const holders: RepoHandle[] = []
      for (const [id, path] of await registry.entries()) {
        if (id === repoId) continue
        const record = readRepoRecord(path)
        // a store recorded but not yet looked at (located, never opened) is opened: that settles it
        if (!record || record.repoId !== id || (record.formerIds !== undefined && !record.formerIds.includes(repoId))) continue
        const handle = await openRepo(id, 'read')
        if (handle.formerIds?.includes(repoId)) holders.push(handle)
      }
      return holders
    },
    storeAt: (root: string) => openStore(resolve(root)),
    async adoptStore(root: string) {
      const store = await openStore(resolve(root))
      const {adoptRows} = await import('../storage/origin.js')
      const signed = await adoptRows(store, true)
      trust.set(resolve(root), 'adopted')
      settled.add(resolve(root))
      return signed
    },
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
      // a store never loaded (a recall answered from its index) has nothing to checkpoint
      return all.filter((store): store is RepoStore => store !== undefined && store.isLoaded)
    },
    async scanSecrets(text: string) {
      scanner ??= (await import('../engines/gates/secrets.js')).scanSecrets
      return scanner(text)
    },
    async close() {
      if (flushTimer) clearInterval(flushTimer)
      usage?.flush()
      await Promise.all(rollUps.values())
      await rollUpLarge([...stores.keys()], ROLLUP_LOG_BYTES)
      const all = [...stores.values()]
      stores.clear()
      for (const opening of all) {
        const store = await opening.catch(() => undefined)
        await store?.close()
      }
    },
  }
}
