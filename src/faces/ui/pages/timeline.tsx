import {useEffect, useState} from 'react'
import {api} from '../api.js'
import {Empty, ErrorView, Loading, TypeBadge} from '../components.js'
import {hrefFor, useApp} from '../hooks.js'
import {type BrowsePage, type Memory, TYPES} from '../types.js'

const CHUNK = 100

/** Memories grouped by their UTC day, newest first; more pages load on demand. */
export function TimelinePage() {
  const {repo, epoch} = useApp()
  const [type, setType] = useState('')
  const [entries, setEntries] = useState<Memory[]>([])
  const [count, setCount] = useState<number | null>(null)
  const [state, setState] = useState<{loading: boolean; error: unknown}>({loading: true, error: null})
  const [pages, setPages] = useState(1)

  useEffect(() => setPages(1), [repo, type])

  useEffect(() => {
    const controller = new AbortController()
    setState({loading: true, error: null})
    const skip = (pages - 1) * CHUNK
    api<BrowsePage>('/api/mem/browse', {query: {repo, skip, take: CHUNK, type: type || undefined}, signal: controller.signal}).then(
      (page) => {
        setEntries((prev) => (pages === 1 ? page.entries : [...prev.slice(0, skip), ...page.entries]))
        setCount(page.count)
        setState({loading: false, error: null})
      },
      (error: unknown) => {
        if (!controller.signal.aborted) setState({loading: false, error})
      },
    )
    return () => controller.abort()
  }, [repo, type, pages, epoch])

  const groups: Array<{day: string; items: Memory[]}> = []
  for (const m of entries) {
    const day = m.createdAt.slice(0, 10)
    const last = groups.at(-1)
    if (last && last.day === day) last.items.push(m)
    else groups.push({day, items: [m]})
  }

  return (
    <div className="page timeline">
      <h1>Timeline</h1>
      <div className="toolbar">
        <label htmlFor="timeline-type">Type</label>
        <select id="timeline-type" value={type} onChange={(e) => setType(e.target.value)}>
          <option value="">All types</option>
          {TYPES.map((t) => (
            <option key={t} value={t}>
              {t}
            </option>
          ))}
        </select>
        {count !== null ? (
          <span className="muted" role="status" data-testid="timeline-summary">
            {entries.length} of {count} memories
          </span>
        ) : null}
      </div>
      {state.error && entries.length === 0 ? <ErrorView error={state.error} /> : null}
      {state.loading && pages === 1 ? (
        <Loading label="Loading the timeline…" />
      ) : groups.length === 0 && !state.error ? (
        <Empty>{type ? `No ${type} memories yet.` : 'No memories yet.'}</Empty>
      ) : (
        <ol className="days" data-testid="timeline">
          {groups.map((g) => (
            <li key={g.day} className="day" data-day={g.day}>
              <h2>
                <time dateTime={g.day}>{formatDay(g.day)}</time> <span className="muted">({g.items.length})</span>
              </h2>
              <ul className="memory-list compact">
                {g.items.map((m) => (
                  <li key={m.id}>
                    <a href={hrefFor('browse', {id: m.id})}>
                      <TypeBadge type={m.type} />
                      <span className="one-liner">{m.oneLiner ?? m.content.slice(0, 100)}</span>
                    </a>
                    <time dateTime={m.createdAt}>{m.createdAt.slice(11, 16)} UTC</time>
                  </li>
                ))}
              </ul>
            </li>
          ))}
        </ol>
      )}
      {state.error && entries.length > 0 ? <ErrorView error={state.error} /> : null}
      {count !== null && entries.length < count && !(state.loading && pages === 1) ? (
        <button type="button" onClick={() => setPages((p) => p + 1)} disabled={state.loading}>
          {state.loading ? 'Loading…' : `Load ${Math.min(CHUNK, count - entries.length)} more`}
        </button>
      ) : null}
    </div>
  )
}

function formatDay(day: string): string {
  const d = new Date(`${day}T00:00:00Z`)
  return d.toLocaleDateString('en-GB', {weekday: 'short', day: 'numeric', month: 'long', year: 'numeric', timeZone: 'UTC'})
}
