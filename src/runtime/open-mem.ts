import {readFileSync} from 'node:fs'
import {join, resolve} from 'node:path'
import {resolveHome} from '../config/home.js'
import {isDirectory, normalizeRepoId, parseRepoRef, requireRepoRoot} from '../config/paths.js'
import {Registry} from '../config/registry.js'
import type {MemContext, RepoAccess, RepoHandle} from '../engines/context.js'
import type {RepoStore, RepoStoreOptions} from '../storage/repo-store.js'
import type {EnrichmentConfig} from '../config/user-config.js'
import {ROLLUP_LOG_BYTES, usageLogBytes} from '../storage/usage.js'
import {MemUsageRecorder} from './usage-recorder.js'

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
export function openMem(options: OpenMemOptions = {}): MemRuntime {
  const home = options.home ?? resolveHome(options.env ?? {})
  const cwd = options.cwd
  const registry = new Registry(home)
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

  async function locate(ref: string): Promise<{id: string; root: string}> {
    const target = parseRepoRef(ref, {cwd})
    if (target.kind === 'path') {
      requireRepoRoot(target.path, ref.trim())
      return {id: normalizeRepoId(target.path), root: target.path}
    }
    const registered = await registry.lookup(target.id)
    if (registered && isDirectory(registered)) return {id: target.id, root: registered}
    return {id: target.id, root: join(home, 'repos', target.id)}
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
    async locate(ref: string, access: RepoAccess) {
      const where = await locate(ref)
      if (access === 'write') await register(where.id, where.root).catch(() => undefined)
      return where
    },
    async repo(ref: string, access: RepoAccess): Promise<RepoHandle> {
      const {id, root} = await locate(ref)
      const store = await openStore(root)
      // a read never registers (a typo must not become a repo the scheduler maintains); a
      // read-only home must not block a write either: registering is best effort
      if (access === 'write') await register(id, root).catch(() => undefined)
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
