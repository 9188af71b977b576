import {useCallback, useEffect, useMemo, useRef, useState} from 'react'
import {api, apiKey, onAuthRequired, setApiKey} from './api.js'
import {Empty, ErrorView, Loading} from './components.js'
import {AppContext, type AppState, hrefFor, useHashRoute} from './hooks.js'
import {BrowserPage} from './pages/browser.js'
import {DashboardPage} from './pages/dashboard.js'
import {GraphPage} from './pages/graph.js'
import {SettingsPage} from './pages/settings.js'
import {TimelinePage} from './pages/timeline.js'
import type {Repo} from './types.js'

const PAGES = [
  {id: 'dashboard', title: 'Dashboard'},
  {id: 'browse', title: 'Browser'},
  {id: 'graph', title: 'Graph'},
  {id: 'timeline', title: 'Timeline'},
  {id: 'settings', title: 'Settings'},
] as const

const REPO_STORAGE = 'mem.repo'

export function App() {
  const route = useHashRoute()
  const [epoch, setEpoch] = useState(0)
  const [askingKey, setAskingKey] = useState<{reason?: string} | null>(null)
  const [repos, setRepos] = useState<{state: 'loading'} | {state: 'ok'; repos: Repo[]} | {state: 'error'; error: unknown}>({state: 'loading'})
  const [repo, setRepo] = useState(() => {
    try {
      return sessionStorage.getItem(REPO_STORAGE) ?? ''
    } catch {
      return ''
    }
  })

  useEffect(
    () =>
      onAuthRequired((error) =>
        setAskingKey((current) => current ?? {reason: apiKey() ? `The key was refused: ${error.message}.` : `${error.message}: this service needs an API key.`}),
      ),
    [],
  )

  useEffect(() => {
    const controller = new AbortController()
    setRepos({state: 'loading'})
    api<{repos: Repo[]}>('/api/mem/repos', {signal: controller.signal}).then(
      (r) => setRepos({state: 'ok', repos: r.repos}),
      (error: unknown) => {
        if (!controller.signal.aborted) setRepos({state: 'error', error})
      },
    )
    return () => controller.abort()
  }, [epoch])

  // The repo in the URL wins (links are shareable), then the session's choice, then the first one.
  const fromUrl = route.params.get('repo') ?? ''
  const known = repos.state === 'ok' ? repos.repos : []
  const selected = fromUrl || (known.some((r) => r.repoId === repo) ? repo : (known[0]?.repoId ?? ''))

  const chooseRepo = useCallback((id: string) => {
    setRepo(id)
    try {
      sessionStorage.setItem(REPO_STORAGE, id)
    } catch {
      // kept in memory
    }
    if (new URLSearchParams(window.location.hash.split('?')[1] ?? '').has('repo')) {
      window.location.hash = hrefFor(window.location.hash.replace(/^#\/?/, '').split('?')[0] || 'dashboard')
    }
  }, [])

  const state: AppState = useMemo(
    () => ({
      repo: selected,
      epoch,
      navigate: (page, params) => {
        window.location.hash = hrefFor(page, params)
      },
      askKey: () => setAskingKey({}),
    }),
    [selected, epoch],
  )

  const page = PAGES.find((p) => p.id === route.page)
  useEffect(() => {
    document.title = `${page?.title ?? 'Not found'} · mem`
  }, [page])

  return (
    <AppContext.Provider value={state}>
      <a className="skip" href="#main" onClick={(e) => {
        e.preventDefault()
        document.getElementById('main')?.focus()
      }}>
        Skip to content
      </a>
      <header className="top">
        <div className="brand">
          <span className="logo" aria-hidden="true">◆</span> mem
        </div>
        <nav aria-label="Pages">
          <ul>
            {PAGES.map((p) => (
              <li key={p.id}>
                <a href={hrefFor(p.id)} aria-current={route.page === p.id ? 'page' : undefined}>
                  {p.title}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <div className="repo-select">
          <label htmlFor="repo-select">Repository</label>
          {repos.state === 'ok' && repos.repos.length > 0 ? (
            <select id="repo-select" value={selected} onChange={(e) => chooseRepo(e.target.value)}>
              {!known.some((r) => r.repoId === selected) && selected ? <option value={selected}>{selected}</option> : null}
              {repos.repos.map((r) => (
                <option key={r.repoId} value={r.repoId} title={r.path}>
                  {r.repoId}
                </option>
              ))}
            </select>
          ) : (
            <select id="repo-select" disabled value="">
              <option value="">{repos.state === 'loading' ? 'Loading…' : 'No repositories'}</option>
            </select>
          )}
        </div>
      </header>
      <main id="main" tabIndex={-1}>
        {repos.state === 'loading' ? (
          <Loading label="Loading repositories…" />
        ) : repos.state === 'error' ? (
          <ErrorView error={repos.error} />
        ) : !page ? (
          <>
            <h1>Not found</h1>
            <Empty>
              There is no page “{route.page}”. <a href="#/dashboard">Go to the dashboard</a>.
            </Empty>
          </>
        ) : page.id === 'settings' ? (
          <SettingsPage />
        ) : !selected ? (
          <>
            <h1>{page.title}</h1>
            <Empty>
              No repository has memories yet. Store one with <code>mem store "…" --type insight</code> in a repository, then reload.
            </Empty>
          </>
        ) : page.id === 'dashboard' ? (
          <DashboardPage />
        ) : page.id === 'browse' ? (
          <BrowserPage route={route} />
        ) : page.id === 'graph' ? (
          <GraphPage />
        ) : (
          <TimelinePage />
        )}
      </main>
      {askingKey ? (
        <KeyDialog
          reason={askingKey.reason}
          onDone={(key) => {
            setAskingKey(null)
            if (key !== undefined) {
              setApiKey(key)
              setEpoch((e) => e + 1)
            }
          }}
        />
      ) : null}
    </AppContext.Provider>
  )
}

/** Asks for the API key once; it is kept in sessionStorage (this tab, this session). */
function KeyDialog({reason, onDone}: {reason?: string; onDone: (key?: string | null) => void}) {
  const ref = useRef<HTMLDialogElement>(null)
  const [value, setValue] = useState('')
  useEffect(() => {
    const dialog = ref.current
    if (dialog && !dialog.open) dialog.showModal()
  }, [])
  return (
    <dialog ref={ref} className="dialog" aria-labelledby="key-title" onCancel={() => onDone()}>
      <form
        method="dialog"
        onSubmit={(e) => {
          e.preventDefault()
          onDone(value.trim() || null)
        }}
      >
        <h2 id="key-title">API key</h2>
        {reason ? <p role="alert">{reason}</p> : null}
        <p>
          Paste a key made with <code>mem keys create NAME --scope read|write|admin</code>. It is kept for this browser session only.
        </p>
        <label htmlFor="api-key">Key</label>
        <input id="api-key" type="password" autoComplete="off" value={value} onChange={(e) => setValue(e.target.value)} required />
        <div className="actions">
          <button type="button" onClick={() => onDone()}>
            Cancel
          </button>
          <button type="submit" className="primary">
            Use key
          </button>
        </div>
      </form>
    </dialog>
  )
}
