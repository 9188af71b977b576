import {type FormEvent, type ReactNode, useEffect, useRef, useState} from 'react'
import {api, apiFile, apiKey, apiWithStatus, fileToBase64, routeAvailable, saveFile, setApiKey} from '../api.js'
import {ErrorView, formatDate, Loading, Message, Section, Show} from '../components.js'
import {hrefFor, useApp, useAsync} from '../hooks.js'
import type {ConsolidateResult, Health, IntakeResult, MaintenanceAnswer, MaintenanceReport, MaintenanceRun, PackImportResult, Status} from '../types.js'

export function SettingsPage() {
  const {repo, repoName, repoPath} = useApp()
  return (
    <div className="page settings">
      <h1>Settings</h1>
      <div className="grid">
        <StatusSection />
        <KeySection />
      </div>
      {repo ? (
        <>
          <p className="subtitle">
            Actions run on repository <strong title={repoPath ?? repo}>{repoName}</strong> (change it at the top).
          </p>
          <div className="grid">
            <IntakeSection repo={repo} />
            <ConsolidateSection repo={repo} />
            <MaintenanceSection repo={repo} />
            <TransferSection repo={repo} />
          </div>
        </>
      ) : (
        <Message kind="info">No repository is registered yet: the actions need one.</Message>
      )}
    </div>
  )
}

function StatusSection() {
  const status = useAsync(async (signal) => {
    const [s, h] = await Promise.all([api<Status>('/api/status', {signal}), api<Health>('/api/health', {signal})])
    return {s, h}
  }, [])
  return (
    <Section title="Service" id="status">
      <Show value={status}>
        {({s, h}) => (
          <dl className="facts" data-testid="status">
            <dt>Version</dt>
            <dd data-testid="version">{s.version}</dd>
            <dt>Status</dt>
            <dd>{s.status}</dd>
            <dt>Uptime</dt>
            <dd>{s.uptime}</dd>
            <dt>Address</dt>
            <dd>
              <code>{s.api}</code>
            </dd>
            <dt>Update</dt>
            <dd>
              {h.updateAvailable ? (
                <strong>
                  Version {h.latestVersion} is available: <code>npm install -g {__MEM_PACKAGE__}</code>
                </strong>
              ) : h.latestVersion ? (
                `Up to date (latest ${h.latestVersion})`
              ) : (
                'No version known: not checked yet, not published yet, or update.check is off (the dashboard\'s scheduled tasks say which)'
              )}
            </dd>
            <dt>Enrichment</dt>
            <dd data-testid="enrichment">
              {s.enrichment
                ? s.enrichment.enabled
                  ? `${s.enrichment.provider}${s.enrichment.model ? ` · ${s.enrichment.model}` : ''} — ${s.enrichment.reachable ? 'reachable' : s.enrichment.reachable === false ? 'not reachable' : 'not checked'}`
                  : `Off (${s.enrichment.provider} one-liners)`
                : 'Not reported by this server (heuristic one-liners)'}
            </dd>
          </dl>
        )}
      </Show>
    </Section>
  )
}

function KeySection() {
  const {askKey} = useApp()
  const [has, setHas] = useState(() => Boolean(apiKey()))
  return (
    <Section title="API key" id="key">
      <p>{has ? 'A key is set for this browser session.' : 'No key is set (the service may not need one).'}</p>
      <div className="actions">
        <button type="button" onClick={askKey}>
          {has ? 'Change key…' : 'Enter key…'}
        </button>
        {has ? (
          <button
            type="button"
            onClick={() => {
              setApiKey(null)
              setHas(false)
            }}
          >
            Forget key
          </button>
        ) : null}
      </div>
    </Section>
  )
}

/** Whether the server has the route an action needs (false: say so instead of offering the button). */
function useRoute(method: string, path: string): boolean | null {
  const {epoch} = useApp()
  const [available, setAvailable] = useState<boolean | null>(null)
  useEffect(() => {
    let live = true
    void routeAvailable(method, path).then((a) => {
      if (live) setAvailable(a)
    })
    return () => {
      live = false
    }
  }, [method, path, epoch])
  return available
}

function Unavailable({route}: {route: string}) {
  return (
    <p className="state unavailable" role="note">
      Not available: this server has no <code>{route}</code> route (it comes with a newer version of mem).
    </p>
  )
}

/** One button's run: busy while it runs, then its result or its error. */
function useAction<T>() {
  const [state, setState] = useState<{busy: boolean; result?: T; error?: unknown}>({busy: false})
  const run = async (fn: () => Promise<T>) => {
    setState({busy: true})
    try {
      setState({busy: false, result: await fn()})
    } catch (error) {
      setState({busy: false, error})
    }
  }
  return {...state, run, clear: () => setState({busy: false})}
}

function Outcome({error, children}: {error?: unknown; children?: ReactNode}) {
  if (error) return <ErrorView error={error} />
  return children ? <>{children}</> : null
}

function IntakeSection({repo}: {repo: string}) {
  const action = useAction<IntakeResult>()
  const available = useRoute('POST', '/api/mem/intake')
  return (
    <Section title="Intake" id="intake">
      <p>Scan the repository's project files (README, agent instructions, package.json, …) for seed memories.</p>
      {available === false ? <Unavailable route="POST /api/mem/intake" /> : null}
      <button type="button" disabled={action.busy || available === false} onClick={() => void action.run(() => api<IntakeResult>('/api/mem/intake', {method: 'POST', query: {repo}}))}>
        {action.busy ? 'Scanning…' : 'Run intake'}
      </button>
      <Outcome error={action.error}>
        {action.result ? (
          <Message kind="ok">
            {action.result.newCount} new, {action.result.skippedCount} skipped
            {action.result.replacedCount !== undefined ? `, ${action.result.replacedCount} replaced` : ''}.
          </Message>
        ) : null}
      </Outcome>
    </Section>
  )
}

function ConsolidateSection({repo}: {repo: string}) {
  const preview = useAction<ConsolidateResult>()
  const apply = useAction<ConsolidateResult>()
  // the clusters to apply, by id: every one a run would write, until a person unticks some
  const [chosen, setChosen] = useState<Set<string>>(new Set())
  const writable = (preview.result?.clusters ?? []).filter((c) => c.outcome !== 'restates')
  const toggle = (id: string) =>
    setChosen((prev) => {
      const next = new Set(prev)
      if (next.has(id)) next.delete(id)
      else next.add(id)
      return next
    })
  const runPreview = () => {
    apply.clear()
    void preview.run(async () => {
      const r = await api<ConsolidateResult>('/api/mem/consolidate', {method: 'POST', query: {repo, dry_run: true}})
      setChosen(new Set((r.clusters ?? []).filter((c) => c.outcome !== 'restates').map((c) => c.id)))
      return r
    })
  }
  const all = writable.length > 0 && writable.every((c) => chosen.has(c.id))
  return (
    <Section title="Consolidate" id="consolidate">
      <p>Group related observations into insights. Preview first: a dry run writes nothing; then apply the clusters you keep ticked.</p>
      <div className="actions">
        <button type="button" disabled={preview.busy} onClick={runPreview}>
          {preview.busy ? 'Previewing…' : 'Preview (dry run)'}
        </button>
        <button
          type="button"
          className="primary"
          disabled={apply.busy || !preview.result || chosen.size === 0}
          onClick={() =>
            void apply.run(async () => {
              const r = await api<ConsolidateResult>('/api/mem/consolidate', {method: 'POST', query: {repo, ...(all ? {} : {clusters: [...chosen].join(',')})}})
              preview.clear()
              setChosen(new Set())
              return r
            })
          }
        >
          {apply.busy ? 'Consolidating…' : all ? 'Apply all' : `Apply ${chosen.size} selected`}
        </button>
      </div>
      <Outcome error={preview.error}>
        {preview.result ? (
          <div data-testid="consolidate-preview">
            <Message kind="info">
              Dry run: {preview.result.candidates} candidate cluster{preview.result.candidates === 1 ? '' : 's'} — would create{' '}
              {preview.result.insightsCreated}, boost {preview.result.insightsBoosted}.
            </Message>
            {preview.result.clusters && preview.result.clusters.length > 0 ? (
              <ul className="clusters">
                {preview.result.clusters.map((c) => (
                  <li key={c.id} data-cluster={c.id}>
                    <label className="cluster-choice">
                      <input
                        type="checkbox"
                        checked={chosen.has(c.id)}
                        disabled={c.outcome === 'restates'}
                        onChange={() => toggle(c.id)}
                        aria-label={`Apply cluster ${c.id}`}
                      />{' '}
                      <span className={`badge outcome-${c.outcome}`}>{c.outcome}</span> <strong>{c.oneLiner}</strong>
                    </label>
                    <details>
                      <summary className="muted">
                        {c.members.length} observations{c.tags.length ? `; ${c.tags.join(', ')}` : ''} — proposed text and members
                      </summary>
                      <pre className="cluster-text">{c.content}</pre>
                      <ul className="cluster-members">
                        {c.members.map((m) => (
                          <li key={m.id}>
                            <a href={hrefFor('browse', {id: m.id})}>{m.text}</a>
                          </li>
                        ))}
                      </ul>
                    </details>
                  </li>
                ))}
              </ul>
            ) : null}
          </div>
        ) : null}
      </Outcome>
      <Outcome error={apply.error}>
        {apply.result ? (
          <Message kind="ok">
            Consolidated: {apply.result.insightsCreated} insight{apply.result.insightsCreated === 1 ? '' : 's'} created, {apply.result.insightsBoosted} boosted (
            {apply.result.candidates} candidates).
          </Message>
        ) : null}
      </Outcome>
    </Section>
  )
}

const POLL_MS = 700

/** Starts a pass; a 202 is followed by polling its run until it completes or fails (admin scope). */
function MaintenanceSection({repo}: {repo: string}) {
  const [run, setRun] = useState<{phase: 'idle' | 'starting' | 'running' | 'done'; runId?: string; startedAt?: string; report?: MaintenanceReport; status?: string; error?: unknown; failure?: string}>({phase: 'idle'})
  const alive = useRef(true)
  useEffect(
    () => () => {
      alive.current = false
    },
    [],
  )

  const start = async () => {
    setRun({phase: 'starting'})
    try {
      const answer = await apiWithStatus<MaintenanceAnswer>('/api/maintenance', {method: 'POST', query: {repo}})
      if (answer.status === 200) {
        setRun({phase: 'done', status: 'completed', report: answer.body as MaintenanceReport})
        return
      }
      const accepted = answer.body as MaintenanceRun & {poll?: string}
      setRun({phase: 'running', runId: accepted.runId, startedAt: accepted.startedAt, status: 'running'})
      const poll = accepted.poll ?? `/api/maintenance/runs/${encodeURIComponent(accepted.runId)}`
      for (;;) {
        await new Promise((r) => setTimeout(r, POLL_MS))
        if (!alive.current) return
        const current = await api<MaintenanceRun>(poll)
        if (current.status === 'running') continue
        setRun({phase: 'done', runId: current.runId, startedAt: current.startedAt, status: current.status, report: current.report, failure: current.error})
        return
      }
    } catch (error) {
      setRun((r) => ({...r, phase: 'done', error}))
    }
  }

  const busy = run.phase === 'starting' || run.phase === 'running'
  return (
    <Section title="Maintenance" id="maintenance">
      <p>Expiry, retention, dedup, decay, cleanup, enrichment and consolidation in one pass. Needs an admin key when auth is on.</p>
      <button type="button" disabled={busy} onClick={() => void start()}>
        {busy ? 'Running…' : 'Run maintenance'}
      </button>
      <div data-testid="maintenance" data-phase={run.phase} data-status={run.status ?? ''} aria-live="polite">
        {run.phase === 'starting' ? <Loading label="Starting…" /> : null}
        {run.phase === 'running' ? (
          <Loading label={`Running in the background (run ${run.runId?.slice(0, 8)}, started ${formatDate(run.startedAt)}); following it…`} />
        ) : null}
        {run.error ? <ErrorView error={run.error} /> : null}
        {run.phase === 'done' && run.status === 'failed' ? <Message kind="error">Maintenance failed: {run.failure ?? 'unknown error'}</Message> : null}
        {run.phase === 'done' && run.report ? (
          <>
            <Message kind="ok">
              Maintenance completed{run.runId ? ` (run ${run.runId.slice(0, 8)}, followed to the end)` : ''}.
            </Message>
            <table className="data">
              <caption className="visually-hidden">Maintenance stages</caption>
              <thead>
                <tr>
                  <th scope="col">Stage</th>
                  <th scope="col" className="num">
                    Affected
                  </th>
                  <th scope="col" className="num">
                    ms
                  </th>
                  <th scope="col">Error</th>
                </tr>
              </thead>
              <tbody>
                {run.report.stages.map((s) => (
                  <tr key={s.name}>
                    <td>{s.name}</td>
                    <td className="num">{s.affected}</td>
                    <td className="num">{s.durationMs}</td>
                    <td>{s.error ?? ''}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </>
        ) : null}
      </div>
    </Section>
  )
}

function TransferSection({repo}: {repo: string}) {
  const md = useAction<string>()
  const pack = useAction<string>()
  const imp = useAction<PackImportResult>()
  const [file, setFile] = useState<File | null>(null)
  const inputRef = useRef<HTMLInputElement>(null)
  const canExport = useRoute('GET', '/api/mem/export')
  const canPack = useRoute('POST', '/api/mem/packs/export')
  const canImport = useRoute('POST', '/api/mem/packs/import')

  const upload = (e: FormEvent) => {
    e.preventDefault()
    if (!file) return
    void imp.run(async () => {
      const data = await fileToBase64(file)
      const r = await api<PackImportResult>('/api/mem/packs/import', {method: 'POST', body: {repo, data}})
      setFile(null)
      if (inputRef.current) inputRef.current.value = ''
      return r
    })
  }

  return (
    <Section title="Export and import" id="transfer">
      {canExport === false ? <Unavailable route="GET /api/mem/export" /> : null}
      {canPack === false ? <Unavailable route="POST /api/mem/packs/export" /> : null}
      <div className="actions">
        <button
          type="button"
          disabled={md.busy || canExport === false}
          onClick={() =>
            void md.run(async () => {
              const f = await apiFile('/api/mem/export', {query: {repo}})
              const name = f.filename ?? `${repo}.md`
              saveFile(f.blob, name)
              return name
            })
          }
        >
          {md.busy ? 'Exporting…' : 'Download markdown export'}
        </button>
        <button
          type="button"
          disabled={pack.busy || canPack === false}
          onClick={() =>
            void pack.run(async () => {
              const f = await apiFile('/api/mem/packs/export', {method: 'POST', query: {repo}})
              const name = f.filename ?? `${repo}.mem`
              saveFile(f.blob, name)
              return name
            })
          }
        >
          {pack.busy ? 'Packing…' : 'Download pack (.mem)'}
        </button>
      </div>
      <Outcome error={md.error}>{md.result ? <Message kind="ok">Saved {md.result}.</Message> : null}</Outcome>
      <Outcome error={pack.error}>{pack.result ? <Message kind="ok">Saved {pack.result}.</Message> : null}</Outcome>
      {canImport === false ? <Unavailable route="POST /api/mem/packs/import" /> : null}
      <form className="import" onSubmit={upload}>
        <label htmlFor="pack-file">Import a pack (.mem)</label>
        <input id="pack-file" ref={inputRef} type="file" disabled={canImport === false} accept=".mem,application/octet-stream" onChange={(e) => setFile(e.target.files?.[0] ?? null)} />
        <button type="submit" disabled={!file || imp.busy || canImport === false}>
          {imp.busy ? 'Importing…' : 'Import pack'}
        </button>
      </form>
      <Outcome error={imp.error}>
        {imp.result ? (
          <Message kind="ok">
            Imported {imp.result.imported} memories from {imp.result.name} {imp.result.version} ({imp.result.skipped} skipped as duplicates).
          </Message>
        ) : null}
      </Outcome>
    </Section>
  )
}
