import type {EnrichmentConfig, MeaningSetting} from '../config/user-config.js'
import type {RepoStore} from '../storage/repo-store.js'
import type {UsageDelta} from '../storage/usage.js'

/** A secret the scanner found. Neither field ever contains the secret or a piece of it. */
export interface SecretFinding {
  /** Short stable id of the rule that fired, e.g. `github-token` or `@secretlint/secretlint-rule-slack`. */
  rule: string
  /** Human text naming the kind of secret and what to do instead. */
  message: string
}
/** What an operation does to a repository: only a write may create (and register) its store. */
export type RepoAccess = 'read' | 'write'

/** A repository resolved from the `repo` parameter: its id, where its store lives, and the store. */
export interface RepoHandle {
  /** Normalized repo id. */
  id: string
  /** Directory that holds (or will hold) `.mem/`. */
  root: string
  /** The value the caller passed, as given. */
  given: string
  store: RepoStore
  /**
   * Repo ids this store's older memory ids carry besides `id` (a store that took an id of its own
   * when ids were made unique: config/repo-identity.ts). Its memories answer to those ids too.
   */
  formerIds?: readonly string[]
}

/**
 * What every core operation receives. Only the runtime constructs one; tests build one over a
 * temp MEM_HOME with a fixed clock. The core reads time and repos only through it.
 */
export interface MemContext {
  now(): Date
  /**
   * MEM_HOME: this machine's own folder, where state a repository must not be able to forge lives
   * (the agent hooks' sessions and cache, setup's backups). Absent in contexts that keep no such state.
   */
  readonly home?: string
  /**
   * True in processes that answer many requests (the server, MCP, the TUI): they keep in-process
   * search indexes. A one-shot CLI command asks the on-disk index instead.
   */
  readonly longLived: boolean
  /**
   * Resolves a repository without opening its store (decisions.md, "server repo param"): a path must
   * be a git work tree or hold `.mem/`, anything else is refused (400); a registered id is its path;
   * any other id lives under MEM_HOME/repos. `write` registers it (a write may create its store);
   * `read` never creates or registers anything: an unknown repo reads as empty.
   */
  locate(ref: string, access: RepoAccess): Promise<{id: string; root: string}>
  /**
   * Resolves a repository as `locate` does and opens its store (cached for the context's lifetime).
   * With `deferLoad` the store may not be loaded yet: the caller may try `readIndexed`, and calls
   * `store.ready()` before any other read or write.
   */
  repo(ref: string, access: RepoAccess, options?: {deferLoad?: boolean}): Promise<RepoHandle>
  /**
   * Opens (once, cached) the store kept under `root`/.mem that is not a repository of its own:
   * a mounted layer's store. It is not registered.
   */
  storeAt(root: string): Promise<RepoStore>
  /**
   * The user vouches for the store in `root` (`mem init --adopt`): every memory in it that this
   * machine does not vouch for is signed as this machine's, with the origin it records. Returns
   * how many were signed.
   */
  adoptStore(root: string): Promise<number>
  /** Closes the store `storeAt(root)` opened (if any) and forgets it, before its files are removed. */
  dropStoreAt(root: string): Promise<void>
  /** Every registered repository. */
  listRepos(): Promise<Array<{repoId: string; path: string}>>
  /**
   * The registered repositories whose stores list `repoId` among their former ids (memory ids
   * minted under `repoId` before the store took an id of its own): where a memory id is looked up
   * when the repository that has `repoId` now does not hold it.
   */
  formerHolders?(repoId: string): Promise<RepoHandle[]>
  scanSecrets(text: string): Promise<SecretFinding | null>
  /**
   * Counts operations for the usage statistics (operation, repo, duration, result count).
   * Absent in contexts that keep no usage.
   */
  readonly usage?: UsageRecorder
  /** The enrichment runtime from the user config; null when enrichment is off (the default). */
  enrichment?(): Promise<EnrichmentConfig | null>
  /**
   * The enrichment config when embeddings may be on, else null; cheaper than `enrichment()` for
   * a path that runs on every recall (it need not load the config parser when they cannot be).
   */
  embeddings?(): Promise<EnrichmentConfig | null>
  /**
   * Which meaning model this context uses (engines/meaning), and the enrichment runtime for
   * `runtime`. Absent: meaning is off (exactly the lexical behaviour).
   */
  meaning?(): Promise<{setting: MeaningSetting; runtime: EnrichmentConfig | null}>
  /** Tells the person using this face something once (a model that cannot load); absent: nobody hears. */
  notice?(message: string): void
  /**
   * Told when a one-shot recall found the repository's recall index (storage/recall-index.ts)
   * missing, behind or damaged, in a store large enough that rebuilding it costs (recall.ts
   * BACKGROUND_INDEX_BYTES): the CLI rebuilds it in a process of its own, after answering.
   * Absent (or for a small store), the store rebuilds it when it closes.
   */
  recallIndexBehind?(root: string): void
  /**
   * Remote mode (docs/team.md): set by the faces that act for a checkout (the CLI, `mem mcp`, the
   * agent hooks). `invoke` hands it every call first; a call of a repository mapped to a team
   * server is answered there, any other runs here. Absent: everything runs here.
   */
  readonly remote?: RemoteRoute
  close(): Promise<void>
}

/** Where `invoke` sends an operation call first (remote mode); undefined: run it in this process. */
export interface RemoteRoute {
  call(ctx: MemContext, op: {name: string}, input: unknown): Promise<{result: unknown} | undefined>
}

/** Counts operations in memory and writes them out in batches: recording one costs no I/O. */
export interface UsageRecorder {
  /** Starts timing an operation; the returned function records it once it has answered. */
  start(operation: string): (repo: {root: string}, resultCount: number) => void
  /** Writes out what was counted so far: to each repo's `.mem/usage.log`, or (a team replica) to the repo's shared log. */
  flush(): void
  /** What was counted for a repo and is written out later (a usage query adds it); null when `flush` writes it at once. */
  pendingOf?(root: string): UsageDelta[] | null
}

const NOOP = (): void => undefined

/**
 * Starts counting one operation for the usage statistics; call the returned function with the
 * repo and the number of results once the operation has answered (failed calls are not counted).
 * Costs a clock read and a map update: no I/O (see runtime/usage-recorder.ts).
 */
export function track(ctx: MemContext, operation: string): (repo: {root: string}, resultCount: number) => void {
  return ctx.usage?.start(operation) ?? NOOP
}
