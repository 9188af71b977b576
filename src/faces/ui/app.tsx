import {useCallback, useEffect, useMemo, useRef, useState} from 'react'
import {api, apiKey, onAuthRequired, setApiKey} from './api.js'
import {Empty, ErrorView, Loading} from './components.js'
import {AppContext, type AppState, hrefFor, useHashRoute} from './hooks.js'
import {BrowserPage} from './pages/browser.js'
import {DashboardPage} from './pages/dashboard.js'
import {GraphPage} from './pages/graph.js'
import {SettingsPage} from './pages/settings.js'
import {TimelinePage} from './pages/timeline.js'
import type {Repo, ReposResult} from './types.js'

const PAGES = [
  {id: 'dashboard', title: 'Dashboard'},
  {id: 'browse', title: 'Browser'},
  {id: 'graph', title: 'Graph'},
  {id: 'timeline', title: 'Timeline'},
  {id: 'settings', title: 'Settings'},
] as const

/** This tab's choice (sessionStorage) and the last one made in this browser (localStorage). */
const REPO_STORAGE = 'mem.repo'

function stored(storage: () => Storage): string {
  try {
    return storage().getItem(REPO_STORAGE) ?? ''
  } catch {
    return ''
  }
}

type ReposState = {state: 'loading'} | {state: 'ok'; repos: Repo[]; current?: Repo} | {state: 'error'; error: unknown}

export function App() {
  const route = useHashRoute()
  const [epoch, setEpoch] = useState(0)
  const [askingKey, setAskingKey] = useState<{reason?: string} | null>(null)
  const [repos, setRepos] = useState<ReposState>({state: 'loading'})
  const [repo, setRepo] = useState(() => stored(() => sessionStorage))

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
    api<ReposResult>('/api/mem/repos', {signal: controller.signal}).then(
      (r) => setRepos({state: 'ok', repos: r.repos, current: r.current}),
      (error: unknown) => {
        if (!controller.signal.aborted) setRepos({state: 'error', error})
      },
    )
    return () => controller.abort()
  }, [epoch])

  // The repo in the URL wins (links are shareable), then this tab's choice, then the repository
  // `mem serve` was started in, then the one last chosen in this browser, then the first one.
  const fromUrl = route.params.get('repo') ?? ''
  const {known, current, choices} = useMemo(() => {
    const known = repos.state === 'ok' ? repos.repos : []
    const current = repos.state === 'ok' ? repos.current : undefined
    // the repository the service runs in is offered even before it has memories
    return {known, current, choices: current && !known.some((r) => r.repoId === current.repoId) ? [current, ...known] : known}
  }, [repos])
  const isKnown = (id: string) => id !== '' && (known.some((r) => r.repoId === id) || current?.repoId === id)
  const lastUsed = stored(() => localStorage)
  const selected = fromUrl || [repo, current?.repoId ?? '', lastUsed].find(isKnown) || (known[0]?.repoId ?? '')
  const labels = useMemo(() => repoLabels(choices), [choices])
  const selectedRepo = choices.find((r) => r.repoId === selected)

  const chooseRepo = useCallback((id: string) => {
    setRepo(id)
    for (const storage of [() => sessionStorage, () => localStorage]) {
      try {
        storage().setItem(REPO_STORAGE, id)
      } catch {
        // kept in memory
      }
    }
    if (new URLSearchParams(window.location.hash.split('?')[1] ?? '').has('repo')) {
      window.location.hash = hrefFor(window.location.hash.replace(/^#\/?/, '').split('?')[0] || 'dashboard')
    }
  }, [])

  const state: AppState = useMemo(
    () => ({
      repo: selected,
      repoName: selectedRepo ? labels.get(selectedRepo.repoId) ?? selectedRepo.name : selected,
      repoPath: selectedRepo?.path,
      epoch,
      navigate: (page, params) => {
        window.location.hash = hrefFor(page, params)
      },
      askKey: () => setAskingKey({}),
    }),
    [selected, selectedRepo, labels, epoch],
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
          {repos.state === 'ok' && choices.length > 0 ? (
            <select id="repo-select" value={selected} title={selectedRepo?.path ?? selected} onChange={(e) => chooseRepo(e.target.value)}>
              {!choices.some((r) => r.repoId === selected) && selected ? <option value={selected}>{selected}</option> : null}
              {choices.map((r) => (
                <option key={r.repoId} value={r.repoId} title={r.path}>
                  {labels.get(r.repoId)}
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

/**
 * What the repository selector shows: each folder's name, and where two share one, the folder above
 * it too (`app (work)`, `app (scratch)`); the full path is the option's tooltip.
 */
export function repoLabels(repos: readonly Repo[]): Map<string, string> {
  const count = (label: (r: Repo) => string) => {
    const n = new Map<string, number>()
    for (const r of repos) n.set(label(r), (n.get(label(r)) ?? 0) + 1)
    return n
  }
  const parent = (r: Repo) => r.path.replace(/\\/g, '/').replace(/(?<!\/)\/+$/, '').split('/').slice(-2, -1)[0] ?? ''
  const withParent = (r: Repo) => (parent(r) ? `${r.name} (${parent(r)})` : r.name)
  const byName = count((r) => r.name)
  const byParent = count(withParent)
  const labels = new Map<string, string>()
  for (const r of repos) {
    labels.set(r.repoId, byName.get(r.name) === 1 ? r.name : byParent.get(withParent(r)) === 1 ? withParent(r) : `${r.name} (${r.repoId})`)
  }
  return labels
}
