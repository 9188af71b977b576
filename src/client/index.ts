/**
 * The typed client of the mem HTTP API (spec section 4, "Client library contract"). It needs only
 * the global `fetch` (Node 20+, browsers, Deno, Bun): no fastify, no Node modules.
 *
 *   using mem = new MemClient()                          // http://127.0.0.1:7373, no key
 *   const {id} = await mem.store({repo, content, type: 'insight'})
 *   const results = await mem.recall(repo, 'how do I run the tests?')
 */
import type {
  BrowsePage,
  ChainItem,
  ConsolidateResult,
  ContextPreview,
  EditOutcome,
  EditRequest,
  EnrichOutcome,
  ErrorBody,
  Graph,
  Health,
  IntakeResult,
  Layer,
  LayerSync,
  MaintenanceAccepted,
  MaintenanceReport,
  MaintenanceRun,
  PackImportResult,
  ReposResult,
  ScheduledTask,
  RepoLink,
  MemoryEntry,
  MemoryType,
  Portal,
  Quality,
  RecallItem,
  Stats,
  Status,
  StoreOutcome,
  StoreRequest,
  Usage,
  UsageHourly,
  UsageTimeseries,
} from './types.js'
// the modules of src the client takes values from (plain data: they need nothing of Node)
import {ERROR_CODES} from '../model/errors.js'
import {RECALL_LIMITS, REPO_HEADER} from '../model/inputs.js'
import {MEMORY_ID_PATTERN, repoIdOf} from '../model/memory.js'

/** The status of a store or an edit the gates refused (the answer says why). */
const UNPROCESSABLE = ERROR_CODES.unprocessable.status

export type * from './types.js'

export const DEFAULT_BASE_URL = 'http://127.0.0.1:7373'

/**
 * The header a write carries its request id in (idempotency): a team server (`mem serve --store`)
 * answers a write whose id it has already committed with the first answer and writes nothing again.
 */
export const IDEMPOTENCY_HEADER = 'Idempotency-Key'

/**
 * REPO_HEADER (model/inputs.ts) carries the repo a request is for, so that a load balancer in front
 * of team replicas can send one repo's requests to one replica: the `repo` of its query or body,
 * else the repo of the memory id in its path, as a team repo id (`github.com/acme/app`, the `~` of
 * a memory id read as `/`). Absent when the request names no repo, or one a header cannot carry
 * (beyond printable ASCII, or longer than 512 characters).
 */
export {REPO_HEADER}

/** The repo a request is for, as REPO_HEADER carries it (undefined: none, or none a header can carry). */
export function repoOfRequest(path: string, query?: Record<string, unknown>, body?: unknown): string | undefined {
  const fields = body !== null && typeof body === 'object' && !Array.isArray(body) ? (body as Record<string, unknown>) : {}
  let repo: unknown = query?.repo ?? fields.repo
  if (repo === undefined) {
    // a memory id in the path, as the client encodes it (`/api/mem/<id>`, `/api/mem/history/<id>`, `/api/mem/<id>/links`), or in the body (feedback, enrich)
    const segment = /^\/api\/mem\/(?:history\/)?(memories%2F[^/?]+)/.exec(path)?.[1]
    const id = segment !== undefined ? safeDecode(segment) : (fields.memoryId ?? fields.id)
    repo = typeof id === 'string' && MEMORY_ID_PATTERN.test(id) ? repoIdOf(id).replaceAll('~', '/') : undefined
  }
  return typeof repo === 'string' && repo.length <= 512 && /^[\x21-\x7e]+$/.test(repo) ? repo : undefined
}

function safeDecode(s: string): string | undefined {
  try {
    return decodeURIComponent(s)
  } catch {
    return undefined
  }
}

/** Options of a write: `requestId` names it, so that sending it again (a retry after a timeout) writes it once on a team server. */
export interface WriteOptions {
  requestId?: string
}

/**
 * A request that failed: `status` is the HTTP status (0 when no answer came: refused connection,
 * timeout, closed client) and `body` the parsed error body (`{error, code, hint?}`) or raw text.
 */
export class MemApiError extends Error {
  readonly status: number
  readonly body: ErrorBody | string | null
  readonly code: string | undefined

  constructor(status: number, body: ErrorBody | string | null, message?: string, options?: {cause?: unknown}) {
    const text = message ?? (typeof body === 'object' && body ? body.error : typeof body === 'string' && body ? body : `HTTP ${status}`)
    super(text, options)
    this.name = 'MemApiError'
    this.status = status
    this.body = body
    this.code = typeof body === 'object' && body ? body.code : undefined
  }
}

export interface MemClientOptions {
  /** Per-request timeout in milliseconds (default 30,000). */
  timeoutMs?: number
  /** A fetch implementation (default: the global one). */
  fetch?: typeof fetch
}

// Symbol.dispose where the runtime has it (Node 20+), else the key `using` polyfills agree on.
const dispose: typeof Symbol.dispose = (Symbol.dispose ?? Symbol.for('Symbol.dispose')) as typeof Symbol.dispose

export class MemClient {
  readonly baseUrl: string
  private readonly apiKey: string | undefined
  private readonly timeoutMs: number
  private readonly fetchImpl: typeof fetch
  private readonly closer = new AbortController()

  constructor(baseUrl: string = DEFAULT_BASE_URL, apiKey?: string, options: MemClientOptions = {}) {
    this.baseUrl = baseUrl.replace(/(?<!\/)\/+$/, '')
    this.apiKey = apiKey || undefined
    this.timeoutMs = options.timeoutMs ?? 30_000
    this.fetchImpl = options.fetch ?? globalThis.fetch.bind(globalThis)
  }

  // ---- memories ------------------------------------------------------------------------------

  /**
   * Stores a memory. Never throws for a duplicate (`duplicateId`) or a rejection by the secret
   * scanner or content gate (`error`); throws MemApiError for invalid input and other failures.
   */
  async store(request: StoreRequest, options: WriteOptions = {}): Promise<StoreOutcome> {
    const res = await this.send('POST', '/api/mem', {body: request, accept: [UNPROCESSABLE], requestId: options.requestId})
    const body = res.body as StoreOutcome
    if (res.status === UNPROCESSABLE) return {success: false, error: body.reason, reason: body.reason}
    return body
  }

  /** The memories relevant to `q`, best first. */
  async recall(repo: string, q: string, limit: number = RECALL_LIMITS.defaultLimit, type?: MemoryType): Promise<RecallItem[]> {
    return (await this.getJson<{results: RecallItem[]}>('/api/mem/recall', {repo, q, limit, type})).results
  }

  /** Recall through the legacy alias `/api/mem/search` (same answer). */
  async search(repo: string, q: string, limit: number = RECALL_LIMITS.defaultLimit, type?: MemoryType): Promise<RecallItem[]> {
    return (await this.getJson<{results: RecallItem[]}>('/api/mem/search', {repo, q, limit, type})).results
  }

  /** The session context text (a counts line, then one line per memory; under 600 tokens). */
  async context(repo: string): Promise<string> {
    return (await this.getJson<{context: string}>('/api/mem/context', {repo})).context
  }

  /** The context with its token estimate, layers and cross-repo scope. */
  async contextPreview(repo: string, tokens?: number): Promise<ContextPreview> {
    return this.getJson('/api/mem/context/preview', {repo, tokens})
  }

  /** One memory with every field (superseded and forgotten ones too). */
  async get(id: string): Promise<MemoryEntry> {
    return this.getJson(`/api/mem/${encodeURIComponent(id)}`)
  }

  /** New content makes a new version; tags or importance alone change in place. */
  async edit(id: string, changes: EditRequest, options: WriteOptions = {}): Promise<EditOutcome> {
    const res = await this.send('PUT', `/api/mem/${encodeURIComponent(id)}`, {body: changes, accept: [UNPROCESSABLE], requestId: options.requestId})
    const body = res.body as EditOutcome
    if (res.status === UNPROCESSABLE) return {success: false, error: body.reason, reason: body.reason}
    return body
  }

  /** Soft-deletes a memory; false when it was already forgotten. */
  async forget(id: string, reason?: string, options: WriteOptions = {}): Promise<boolean> {
    const res = await this.send('DELETE', `/api/mem/${encodeURIComponent(id)}`, {query: {reason}, requestId: options.requestId})
    return (res.body as {forgotten: boolean}).forgotten
  }

  /** Reports whether a recalled memory was used; false when it is forgotten or superseded. */
  async feedback(memoryId: string, wasUsed: boolean, options: WriteOptions = {}): Promise<boolean> {
    const res = await this.send('POST', '/api/mem/feedback', {body: {memoryId, wasUsed}, requestId: options.requestId})
    return (res.body as {applied: boolean}).applied
  }

  /** The version chain, newest first, from any version's id. */
  async history(id: string): Promise<ChainItem[]> {
    return (await this.getJson<{chain: ChainItem[]}>(`/api/mem/history/${encodeURIComponent(id)}`)).chain
  }

  async stats(repo: string): Promise<Stats> {
    return this.getJson('/api/mem/stats', {repo})
  }

  /** A page of live memories, newest first. */
  async browse(repo: string, skip = 0, take = 50, type?: MemoryType): Promise<BrowsePage> {
    return this.getJson('/api/mem/browse', {repo, skip, take, type})
  }

  /** Memories as nodes and their relations (`derived`, links) as edges. */
  async graph(repo: string, limit = 200): Promise<Graph> {
    return this.getJson('/api/mem/graph', {repo, limit})
  }

  /** The repo ids of every repository the service knows. */
  async listRepos(): Promise<string[]> {
    return (await this.repos()).repos.map((r) => r.repoId)
  }

  /** Every repository the service knows with its path and name, and the one it was started in (`current`). */
  async repos(): Promise<ReposResult> {
    return this.getJson('/api/mem/repos')
  }

  // ---- operations ----------------------------------------------------------------------------

  /** Scans project files and creates seed memories. */
  async intake(repo: string): Promise<IntakeResult> {
    return (await this.send('POST', '/api/mem/intake', {query: {repo}})).body as IntakeResult
  }

  /** Groups related observations into insights (`dryRun` reports candidates and writes nothing). */
  async consolidate(repo: string, dryRun = false): Promise<ConsolidateResult> {
    return (await this.send('POST', '/api/mem/consolidate', {query: {repo, dry_run: dryRun}})).body as ConsolidateResult
  }

  /** The repo's memories as markdown, organized by type. */
  async exportMarkdown(repo: string): Promise<string> {
    return (await this.send('GET', '/api/mem/export', {query: {repo}, text: true})).body as string
  }

  // ---- sharing: packs, layers, links ---------------------------------------------------------

  /** The repo's live memories as a `.mem` pack file (bytes). */
  async packExport(repo: string, options: {name?: string; version?: string} = {}): Promise<Uint8Array> {
    return (await this.send('POST', '/api/mem/packs/export', {query: {repo, ...options}, binary: true})).body as Uint8Array
  }

  /** Imports a `.mem` pack (bytes, or base64 text) into a repo. A damaged or foreign pack throws (400). */
  async packImport(repo: string, data: Uint8Array | string): Promise<PackImportResult> {
    const base64 = typeof data === 'string' ? data : bytesToBase64(data)
    return (await this.send('POST', '/api/mem/packs/import', {body: {repo, data: base64}})).body as PackImportResult
  }

  /** The repo itself (`local`) and its mounted layers. */
  async layers(repo: string): Promise<Layer[]> {
    return (await this.getJson<{layers: Layer[]}>('/api/mem/layers', {repo})).layers
  }

  /** Mounts a shared or base layer from a directory of packs or a git remote. */
  async mountLayer(repo: string, layerId: string, type: 'shared' | 'base', source?: string, name?: string): Promise<Layer> {
    return (await this.send('POST', '/api/mem/layers/mount', {body: {repo, layerId, type, source, name}})).body as Layer
  }

  /** Pulls a mounted layer's source and reports what changed. */
  async syncLayer(repo: string, layerId: string): Promise<LayerSync> {
    return (await this.send('POST', '/api/mem/layers/sync', {body: {repo, layerId}})).body as LayerSync
  }

  async unmountLayer(repo: string, layerId: string): Promise<boolean> {
    return ((await this.send('DELETE', `/api/mem/layers/${encodeURIComponent(layerId)}`, {query: {repo}})).body as {unmounted: boolean}).unmounted
  }

  /** The repo's cross-repo links. */
  async links(repo: string): Promise<RepoLink[]> {
    return (await this.getJson<{links: RepoLink[]}>('/api/mem/links', {repo})).links
  }

  /** Links the repo to another registered repo (an unknown one throws 404). */
  async linkRepo(repo: string, targetRepo: string, note = ''): Promise<Omit<RepoLink, 'createdAt'>> {
    return (await this.send('POST', '/api/mem/links', {body: {repo, targetRepo, note}})).body as Omit<RepoLink, 'createdAt'>
  }

  /** Attaches a link to a memory (a second link to the same target replaces the relation). */
  async linkMemory(id: string, targetId: string, relation = 'related'): Promise<boolean> {
    return ((await this.send('POST', `/api/mem/${encodeURIComponent(id)}/links`, {body: {targetId, relation}})).body as {linked: boolean}).linked
  }

  /** Removes a memory's link; false when there was none. */
  async unlinkMemory(id: string, targetId: string): Promise<boolean> {
    return ((await this.send('DELETE', `/api/mem/${encodeURIComponent(id)}/links`, {body: {targetId}})).body as {removed: boolean}).removed
  }

  // ---- quality, usage, enrichment ------------------------------------------------------------

  /** Echo and fizzle ratios, stale and dead memories, issues with advice, and a score (0..100). */
  async quality(repo: string): Promise<Quality> {
    return this.getJson('/api/mem/quality', {repo})
  }

  /** Calls per operation over the last `days` UTC days (default 30). */
  async usage(repo: string, days?: number): Promise<Usage> {
    return this.getJson('/api/mem/usage', {repo, days})
  }

  /** Calls per UTC day (every day present) over the last `days` days (default 30). */
  async usageTimeseries(repo: string, days?: number): Promise<UsageTimeseries> {
    return this.getJson('/api/mem/usage/timeseries', {repo, days})
  }

  /** Calls per UTC hour over the last `days` days (default 7). */
  async usageHourly(repo: string, days?: number): Promise<UsageHourly> {
    return this.getJson('/api/mem/usage/hourly', {repo, days})
  }

  /** The web UI dashboard's data: counts, recent memories, quality, usage, scheduled tasks. */
  async portal(repo: string): Promise<Portal> {
    return this.getJson('/api/mem/portal', {repo})
  }

  /**
   * A one-liner, summary, foresight hint and entities for a memory, through the service's
   * language-model runtime (or its heuristic). Throws MemApiError 503 when the runtime fails.
   */
  async enrich(id: string): Promise<EnrichOutcome> {
    return (await this.send('POST', '/api/mem/enrich', {body: {id}})).body as EnrichOutcome
  }

  // ---- service -------------------------------------------------------------------------------

  async health(): Promise<Health> {
    return this.getJson('/api/health')
  }

  async status(): Promise<Status> {
    return this.getJson('/api/status')
  }

  /** True when the service answers its health check; never throws. */
  async isAvailable(): Promise<boolean> {
    try {
      return (await this.health()).status === 'ok'
    } catch {
      return false
    }
  }

  // ---- maintenance (admin scope) -------------------------------------------------------------

  /**
   * Runs the maintenance pipeline. A pass that finishes within the service's window (30 s) answers
   * its report (200); a longer one answers the run to poll (202, `runId` and `poll`): tell them
   * apart with `'runId' in answer`, then follow it with `maintenanceRun(runId)`.
   */
  async maintenance(repo: string): Promise<MaintenanceReport | MaintenanceAccepted> {
    return (await this.send('POST', '/api/maintenance', {query: {repo}})).body as MaintenanceReport | MaintenanceAccepted
  }

  /** A maintenance run: `running`, then `completed` with `report` or `failed` with `error`; 404 an hour after it finished. */
  async maintenanceRun(runId: string): Promise<MaintenanceRun> {
    return this.getJson(`/api/maintenance/runs/${encodeURIComponent(runId)}`)
  }

  /** The scheduler's tasks (maintenance per repository, the update check). */
  async scheduledTasks(): Promise<ScheduledTask[]> {
    return (await this.getJson<{tasks: ScheduledTask[]}>('/api/mem/scheduled-tasks')).tasks
  }

  /** Aborts requests in flight; later calls fail with status 0. */
  close(): void {
    this.closer.abort()
  }

  [dispose](): void {
    this.close()
  }

  /**
   * Any route, as the typed methods call it: the answer's status and parsed body. Statuses in
   * `accept` are answers (not thrown), as the store's 422; `requestId` is sent as the
   * Idempotency-Key header. Throws MemApiError otherwise, as every method does.
   */
  async request(
    method: 'GET' | 'POST' | 'PUT' | 'DELETE',
    path: string,
    options: {query?: Record<string, string | number | boolean | undefined>; body?: unknown; accept?: number[]; requestId?: string; text?: boolean} = {},
  ): Promise<{status: number; body: unknown}> {
    return this.send(method, path, options)
  }

  // ---- plumbing ------------------------------------------------------------------------------

  private async getJson<T>(path: string, query?: Record<string, string | number | boolean | undefined>): Promise<T> {
    return (await this.send('GET', path, {query})).body as T
  }

  private async send(
    method: string,
    path: string,
    options: {query?: Record<string, string | number | boolean | undefined>; body?: unknown; accept?: number[]; text?: boolean; binary?: boolean; requestId?: string} = {},
  ): Promise<{status: number; body: unknown}> {
    let url = this.baseUrl + path
    const params = new URLSearchParams()
    for (const [k, v] of Object.entries(options.query ?? {})) if (v !== undefined) params.set(k, String(v))
    const qs = params.toString()
    if (qs) url += `?${qs}`

    const headers: Record<string, string> = {
      accept: options.binary ? 'application/octet-stream, application/json' : options.text ? 'text/markdown, text/plain, application/json' : 'application/json',
    }
    if (this.apiKey) headers.authorization = `Bearer ${this.apiKey}`
    if (options.requestId) headers[IDEMPOTENCY_HEADER.toLowerCase()] = options.requestId
    const repo = repoOfRequest(path, options.query, options.body)
    if (repo !== undefined) headers[REPO_HEADER.toLowerCase()] = repo
    if (options.body !== undefined) headers['content-type'] = 'application/json'

    let res: Response
    let text: string
    try {
      if (this.closer.signal.aborted) throw new Error('the client is closed')
      const signal = AbortSignal.any([this.closer.signal, AbortSignal.timeout(this.timeoutMs)])
      res = await this.fetchImpl(url, {method, headers, body: options.body === undefined ? undefined : JSON.stringify(options.body), signal})
      if (options.binary && res.ok) return {status: res.status, body: new Uint8Array(await res.arrayBuffer())}
      text = await res.text()
    } catch (err) {
      const why = this.closer.signal.aborted ? 'the client is closed' : ((err as Error)?.name === 'TimeoutError' ? `no answer within ${this.timeoutMs} ms` : ((err as Error)?.cause as Error)?.message ?? (err as Error)?.message)
      throw new MemApiError(0, null, `${method} ${url} failed: ${why}`, {cause: err})
    }
    const isJson = (res.headers.get('content-type') ?? '').includes('json')
    let body: unknown = text
    if (isJson && text) {
      try {
        body = JSON.parse(text)
      } catch {
        body = text
      }
    }
    if (res.ok || options.accept?.includes(res.status)) {
      if (options.text && !isJson) return {status: res.status, body: text}
      return {status: res.status, body}
    }
    throw new MemApiError(res.status, body as ErrorBody | string)
  }
}

/** Base64 of bytes without Node's Buffer (the client runs wherever fetch does). */
function bytesToBase64(bytes: Uint8Array): string {
  let out = ''
  for (let i = 0; i < bytes.length; i += 0x8000) out += String.fromCharCode(...bytes.subarray(i, i + 0x8000))
  return btoa(out)
}
