import {createContext, useCallback, useContext, useEffect, useRef, useState} from 'react'

export type Async<T> =
  | {state: 'loading'}
  | {state: 'ok'; data: T}
  | {state: 'error'; error: unknown}

/**
 * Runs `load` when a dependency changes (or the app's auth epoch moves), aborting the previous
 * run; `reload()` runs it again. A late answer of an aborted run is dropped, and an answer is shown
 * only with the dependencies it was loaded for: in the render where a dependency has just changed
 * (before the new run starts) the value is `loading`, never the previous answer under the new
 * dependencies (a search box must not title the last page "20 results for …").
 */
export function useAsync<T>(load: (signal: AbortSignal) => Promise<T>, deps: unknown[]): Async<T> & {reload: () => void} {
  const {epoch} = useApp()
  const [tick, setTick] = useState(0)
  const all = [...deps, epoch, tick]
  const [result, setResult] = useState<{deps: unknown[]; value: Async<T>}>({deps: [], value: {state: 'loading'}})
  const loadRef = useRef(load)
  loadRef.current = load
  useEffect(() => {
    const controller = new AbortController()
    const these = all
    loadRef.current(controller.signal).then(
      (data) => {
        if (!controller.signal.aborted) setResult({deps: these, value: {state: 'ok', data}})
      },
      (error: unknown) => {
        if (!controller.signal.aborted) setResult({deps: these, value: {state: 'error', error}})
      },
    )
    return () => controller.abort()
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, all)
  const reload = useCallback(() => setTick((t) => t + 1), [])
  const current = result.deps.length === all.length && result.deps.every((d, i) => Object.is(d, all[i]))
  return {...(current ? result.value : {state: 'loading' as const}), reload}
}

export interface Route {
  page: string
  params: URLSearchParams
}

export function parseHash(hash: string): Route {
  const h = hash.replace(/^#\/?/, '')
  const q = h.indexOf('?')
  const page = (q >= 0 ? h.slice(0, q) : h) || 'dashboard'
  return {page, params: new URLSearchParams(q >= 0 ? h.slice(q + 1) : '')}
}

export function hrefFor(page: string, params?: Record<string, string | undefined>): string {
  const p = new URLSearchParams()
  for (const [k, v] of Object.entries(params ?? {})) if (v !== undefined && v !== '') p.set(k, v)
  const s = p.toString()
  return `#/${page}${s ? `?${s}` : ''}`
}

export function useHashRoute(): Route {
  const [route, setRoute] = useState(() => parseHash(window.location.hash))
  useEffect(() => {
    const onChange = () => setRoute(parseHash(window.location.hash))
    window.addEventListener('hashchange', onChange)
    return () => window.removeEventListener('hashchange', onChange)
  }, [])
  return route
}

export interface AppState {
  /** The selected repository id ('' while none is known). */
  repo: string
  /** What people call it: its folder's name ('' while none is known). */
  repoName: string
  /** Its folder, when it has one (shown on hover). */
  repoPath?: string
  /** Moves when the API key changes: every view reloads. */
  epoch: number
  navigate: (page: string, params?: Record<string, string | undefined>) => void
  askKey: () => void
}

export const AppContext = createContext<AppState>({repo: '', repoName: '', epoch: 0, navigate: () => undefined, askKey: () => undefined})

export function useApp(): AppState {
  return useContext(AppContext)
}
