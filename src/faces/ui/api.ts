// The one way the UI talks to the service: same-origin fetch of /api/*, with the API key (when the
// service asks for one) kept in sessionStorage for this browser session only.

const KEY_STORAGE = 'mem.apiKey'
const AUTH_EVENT = 'mem:auth-required'

/** An answer that was not 2xx, with the service's `{error, code, hint}` body when it sent one. */
export class ApiError extends Error {
  readonly status: number
  readonly code: string
  readonly hint?: string
  readonly required?: string
  readonly path: string
  constructor(status: number, path: string, body: {error?: string; reason?: string; code?: string; hint?: string; required?: string} | undefined, fallback: string) {
    super(body?.error ?? body?.reason ?? fallback)
    this.name = 'ApiError'
    this.status = status
    this.code = body?.code ?? (status === 0 ? 'network' : 'http_' + status)
    this.hint = body?.hint
    this.required = body?.required
    this.path = path
  }

  /** The service has no such route (an older or smaller server): a 404 naming the route itself. */
  get missingRoute(): boolean {
    return this.status === 404 && /^No route /.test(this.message)
  }
}

/** The key kept for this session (a page where storage is refused keeps it in memory only). */
let memoryKey: string | null = null

export function apiKey(): string | null {
  try {
    return sessionStorage.getItem(KEY_STORAGE) ?? memoryKey
  } catch {
    return memoryKey
  }
}

export function setApiKey(key: string | null): void {
  memoryKey = key
  routes = null
  try {
    if (key) sessionStorage.setItem(KEY_STORAGE, key)
    else sessionStorage.removeItem(KEY_STORAGE)
  } catch {
    // storage refused: memoryKey serves
  }
}

/** Listens for answers that need a key (401); returns the unsubscribe. */
export function onAuthRequired(listener: (error: ApiError) => void): () => void {
  const handler = (e: Event) => listener((e as CustomEvent<ApiError>).detail)
  window.addEventListener(AUTH_EVENT, handler)
  return () => window.removeEventListener(AUTH_EVENT, handler)
}

export type Query = Record<string, string | number | boolean | undefined | null>

export function withQuery(path: string, query?: Query): string {
  if (!query) return path
  const params = new URLSearchParams()
  for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== null && v !== '') params.set(k, String(v))
  const s = params.toString()
  return s ? `${path}?${s}` : path
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'DELETE'
  query?: Query
  body?: unknown
  signal?: AbortSignal
}

/**
 * Routes other issues add (graph, usage, quality, portal, scheduled tasks, intake, export, packs), as `METHOD
 * /path`: a server without them is an older or smaller one. The OpenAPI document says which it
 * has, so the UI shows "not available" without sending a request bound to fail. Every route the UI
 * requests is either here or one every mem server has (test/faces/ui/paths.test.ts holds that
 * against the operation declarations, so a new route the UI starts using cannot be missed).
 */
export const OPTIONAL_ROUTES: ReadonlySet<string> = new Set([
  'GET /api/mem/portal',
  'GET /api/mem/quality',
  'GET /api/mem/usage',
  'GET /api/mem/usage/timeseries',
  'GET /api/mem/graph',
  'POST /api/mem/intake',
  'GET /api/mem/export',
  'POST /api/mem/packs/export',
  'POST /api/mem/packs/import',
  'GET /api/mem/scheduled-tasks',
])

let routes: Promise<Set<string> | null> | null = null

/** `METHOD /path` of every route the server documents; null when the document cannot be read. */
function serverRoutes(): Promise<Set<string> | null> {
  routes ??= (async () => {
    try {
      const key = apiKey()
      const res = await fetch('/api/openapi.json', {headers: key ? {authorization: `Bearer ${key}`} : {}, credentials: 'omit'})
      if (!res.ok) {
        routes = null // asked again once a key is given
        return null
      }
      const doc = (await res.json()) as {paths?: Record<string, Record<string, unknown>>}
      const set = new Set<string>()
      for (const [p, ops] of Object.entries(doc.paths ?? {})) for (const m of Object.keys(ops)) set.add(`${m.toUpperCase()} ${p}`)
      return set
    } catch {
      routes = null
      return null
    }
  })()
  return routes
}

/** Whether the server has a route: true/false from its OpenAPI document, null when unknown. */
export async function routeAvailable(method: string, path: string): Promise<boolean | null> {
  const known = await serverRoutes()
  return known ? known.has(`${method} ${path}`) : null
}

async function send(path: string, options: RequestOptions): Promise<Response> {
  const method = options.method ?? 'GET'
  if (OPTIONAL_ROUTES.has(`${method} ${path.split('?')[0]}`)) {
    const known = await serverRoutes()
    if (known && !known.has(`${method} ${path}`)) throw new ApiError(404, path, {error: `No route ${method} ${path}.`, code: 'not_found'}, '')
  }
  const headers: Record<string, string> = {accept: 'application/json'}
  const key = apiKey()
  if (key) headers.authorization = `Bearer ${key}`
  let body: string | undefined
  if (options.body !== undefined) {
    headers['content-type'] = 'application/json'
    body = JSON.stringify(options.body)
  }
  const url = withQuery(path, options.query)
  let res: Response
  try {
    res = await fetch(url, {method, headers, body, signal: options.signal, credentials: 'omit', cache: 'no-store'})
  } catch (err) {
    if ((err as Error).name === 'AbortError') throw err
    throw new ApiError(0, path, undefined, `The service did not answer (${(err as Error).message}). Is mem serve still running?`)
  }
  if (!res.ok) {
    let parsed: Record<string, string> | undefined
    try {
      parsed = (await res.json()) as Record<string, string>
    } catch {
      parsed = undefined
    }
    const error = new ApiError(res.status, path, parsed, `${res.status} ${res.statusText}`)
    if (res.status === 401) window.dispatchEvent(new CustomEvent(AUTH_EVENT, {detail: error}))
    throw error
  }
  return res
}

/** A JSON request; throws ApiError for any non-2xx answer. */
export async function api<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const res = await send(path, options)
  return (await res.json()) as T
}

/** A request whose answer is a file (markdown export, pack): the bytes and the suggested name. */
export async function apiFile(path: string, options: RequestOptions = {}): Promise<{blob: Blob; filename: string | null; status: number}> {
  const res = await send(path, {...options})
  const disposition = res.headers.get('content-disposition') ?? ''
  const match = /filename\*?=(?:UTF-8'')?"?([^";]+)"?/i.exec(disposition)
  return {blob: await res.blob(), filename: match ? decodeURIComponent(match[1]) : null, status: res.status}
}

/** A JSON request that also reports the status (maintenance answers 200 or 202). */
export async function apiWithStatus<T>(path: string, options: RequestOptions = {}): Promise<{status: number; body: T}> {
  const res = await send(path, options)
  return {status: res.status, body: (await res.json()) as T}
}

/** `/api/mem/<id>` with the id as one encoded path segment (ids contain `/`). */
export function memoryPath(id: string, suffix = ''): string {
  return `/api/mem/${encodeURIComponent(id)}${suffix}`
}

/** Saves bytes as a file through a temporary object URL. */
export function saveFile(blob: Blob, filename: string): void {
  const url = URL.createObjectURL(blob)
  const a = document.createElement('a')
  a.href = url
  a.download = filename
  a.rel = 'noopener'
  document.body.append(a)
  a.click()
  a.remove()
  setTimeout(() => URL.revokeObjectURL(url), 10_000)
}

/** A file's bytes as base64 (the pack import's `data`). */
export async function fileToBase64(file: Blob): Promise<string> {
  const bytes = new Uint8Array(await file.arrayBuffer())
  let binary = ''
  const chunk = 0x8000
  for (let i = 0; i < bytes.length; i += chunk) binary += String.fromCharCode(...bytes.subarray(i, i + chunk))
  return btoa(binary)
}
