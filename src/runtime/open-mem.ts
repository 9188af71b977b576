import {readFileSync} from 'node:fs'
import {join, resolve} from 'node:path'
import {resolveHome} from '../config/home.js'
import {RepoResolver} from '../config/repo-resolver.js'
import type {MemContext, RepoAccess, RepoHandle} from '../engines/context.js'
import type {RepoStore, RepoStoreOptions} from '../storage/repo-store.js'
import type {EnrichmentConfig, MeaningSetting} from '../config/user-config.js'
import {UsageRollUps} from './usage-rollups.js'
import {MemUsageRecorder} from './usage-recorder.js'
import {loadOriginKey} from '../config/origin-trust.js'
import {meaningFromEnv} from '../config/meaning-env.js'
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
  /** Remote mode: where calls go first (MemContext.remote); the faces that act for a checkout build it. */
  remote?: MemContext['remote']
}

/** The context plus what only the process that owns it needs: its home and its open stores. */
export interface MemRuntime extends MemContext {
  home: string
  /** The stores opened so far (a long-running server checkpoints them when idle and at exit). */
  openStores(): Promise<RepoStore[]>
  readonly usage?: MemUsageRecorder
}

/**
 * The composition root: builds the context every core operation receives. Repos are resolved by
 * config/repo-resolver.ts (an existing path → its .mem; a registered id → its path; any other id →
 * MEM_HOME/repos/<id>), registered on first write, and their stores opened once.
 */
export function openMem(options: OpenMemOptions = {}): MemRuntime {
  const home = options.home ?? resolveHome(options.env ?? {})
  const resolver = new RepoResolver({home, cwd: options.cwd})
  // provenance (docs/security.md): this machine's key signs what it writes; stores met already full are settled once (the resolver)
  const origins = originKeys(() => loadOriginKey(home))
  const stores = new Map<string, Promise<RepoStore>>()
  const now = options.now ?? (() => new Date())
  let scanner = options.scanSecrets
  let enrichment: Promise<EnrichmentConfig | null> | undefined =
    options.enrichment !== undefined ? Promise.resolve(options.enrichment) : undefined
  const longLived = options.longLived ?? false
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
  const rollUps = new UsageRollUps((root) => stores.get(root), now)
  const usage =
    options.usage === false
      ? undefined
      : new MemUsageRecorder({now, elapsed: options.usage?.elapsed, onFlushed: (roots) => void rollUps.rollUpLarge(roots)})
  const flushTimer = usage && longLived ? setInterval(() => usage.flush(), options.usage ? (options.usage.flushMs ?? 5_000) : 5_000) : undefined
  flushTimer?.unref()

  async function openRepo(ref: string, access: RepoAccess, opts: {deferLoad?: boolean} = {}): Promise<RepoHandle> {
    const resolved = await resolver.resolve(ref, access, (root) => openStore(root, opts.deferLoad))
    return {...resolved, given: ref}
  }

  /** The store of `root`, loaded unless `deferLoad` (then the caller calls `ready()` before reading it). */
  async function openStore(root: string, deferLoad = false): Promise<RepoStore> {
    let opening = stores.get(root)
    if (!opening) {
      // the store (sql.js, search, locks) is loaded only by commands that open one
      opening = import('../storage/repo-store.js').then(({RepoStore}) => RepoStore.open(root, {...options.store, onCreate: () => resolver.storeCreated(root), lazy: true, origins}))
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
      // without a `meaning:` or `embeddings:` key, the built-in model (on by default: docs/meaning.md), without loading the config parser
      const text = readConfigText()
      if (text === null || !/\b(meaning|embeddings)\s*:/.test(text)) return {setting: {model: 'builtin'} as const, runtime: null}
      const config = await import('../config/user-config.js').then((m) => m.readUserConfig(home))
      return {setting: config.meaning, runtime: config.enrichment}
    },
    ...(options.onNotice ? {notice: options.onNotice} : {}),
    async locate(ref: string, access: RepoAccess) {
      const where = await resolver.locate(ref, access)
      if (access === 'write') await resolver.register(where.id, where.root).catch(() => undefined)
      return {id: where.id, root: where.root}
    },
    repo: openRepo,
    ...(options.onRecallIndexBehind ? {recallIndexBehind: options.onRecallIndexBehind} : {}),
    ...(options.remote ? {remote: options.remote} : {}),
    formerHolders: (repoId: string) => resolver.formerHolders(repoId, (id) => openRepo(id, 'read')),
    storeAt: (root: string) => openStore(resolve(root)),
    async adoptStore(root: string) {
      const store = await openStore(resolve(root))
      const {adoptRows} = await import('../storage/origin.js')
      const signed = await adoptRows(store, true)
      resolver.adopted(resolve(root))
      return signed
    },
    async dropStoreAt(root: string) {
      const key = resolve(root)
      const opening = stores.get(key)
      stores.delete(key)
      const store = await opening?.catch(() => undefined)
      await store?.close()
    },
    listRepos: () => resolver.list(),
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
      await rollUps.settled()
      await rollUps.rollUpLarge([...stores.keys()])
      const all = [...stores.values()]
      stores.clear()
      for (const opening of all) {
        const store = await opening.catch(() => undefined)
        await store?.close()
      }
    },
  }
}
