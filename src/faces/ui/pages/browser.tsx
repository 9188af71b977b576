import {type FormEvent, useEffect, useRef, useState} from 'react'
import {api, memoryPath} from '../api.js'
import {Empty, ErrorView, formatDate, Message, Section, Show, TypeBadge} from '../components.js'
import {hrefFor, type Route, useApp, useAsync} from '../hooks.js'
import {type BrowsePage, type Memory, type RecallItem, TYPES} from '../types.js'
import {MAX_FORGET_REASON_CHARS} from '../../../model/inputs.js'
import {MAX_CONTENT_CHARS} from '../../../model/memory.js'

export const PAGE_SIZE = 20

interface ListItem {
  id: string
  type: string
  text: string
  createdAt: string
  score?: number
  tags: string[]
}

export function BrowserPage({route}: {route: Route}) {
  const {repo} = useApp()
  const selected = route.params.get('id') ?? ''
  const [draft, setDraft] = useState(route.params.get('q') ?? '')
  const [q, setQ] = useState(route.params.get('q') ?? '')
  const [type, setType] = useState('')
  const [skip, setSkip] = useState(0)
  const [changes, setChanges] = useState(0)

  useEffect(() => setSkip(0), [repo, type, q])

  const list = useAsync(
    async (signal): Promise<{items: ListItem[]; count: number | null}> => {
      if (q) {
        const r = await api<{results: RecallItem[]}>('/api/mem/recall', {query: {repo, q, limit: 50, type: type || undefined, touch: false}, signal})
        return {items: r.results.map((m) => ({id: m.id, type: m.type, text: m.oneLiner ?? m.content, createdAt: m.createdAt, score: m.score, tags: m.tags})), count: null}
      }
      const page = await api<BrowsePage>('/api/mem/browse', {query: {repo, skip, take: PAGE_SIZE, type: type || undefined}, signal})
      return {items: page.entries.map((m) => ({id: m.id, type: m.type, text: m.oneLiner ?? m.content, createdAt: m.createdAt, tags: m.tags})), count: page.count}
    },
    [repo, q, type, skip, changes],
  )

  const submit = (e: FormEvent) => {
    e.preventDefault()
    setQ(draft.trim())
  }

  return (
    <div className="page browser">
      <h1>Browser</h1>
      <div className="split">
        <section className="list-pane" aria-labelledby="results-heading">
          <form className="search" role="search" onSubmit={submit}>
            <div className="field grow">
              <label htmlFor="search-q">Search (recall)</label>
              <input id="search-q" type="search" value={draft} placeholder="e.g. how do I run the tests?" onChange={(e) => setDraft(e.target.value)} />
            </div>
            <div className="field">
              <label htmlFor="type-filter">Type</label>
              <select id="type-filter" value={type} onChange={(e) => setType(e.target.value)}>
                <option value="">All types</option>
                {TYPES.map((t) => (
                  <option key={t} value={t}>
                    {t}
                  </option>
                ))}
              </select>
            </div>
            <button type="submit" className="primary">
              Search
            </button>
            {q ? (
              <button
                type="button"
                onClick={() => {
                  setDraft('')
                  setQ('')
                }}
              >
                Clear
              </button>
            ) : null}
          </form>
          <h2 id="results-heading" className="visually-hidden">
            {q ? 'Search results' : 'Memories'}
          </h2>
          <Show value={list}>
            {({items, count}) => (
              <>
                <p className="list-summary" role="status" data-testid="list-summary">
                  {q
                    ? `${items.length} result${items.length === 1 ? '' : 's'} for “${q}”`
                    : count === 0
                      ? 'No memories'
                      : `Showing ${skip + 1}–${skip + items.length} of ${count}`}
                </p>
                {items.length === 0 ? (
                  <Empty>{q ? 'Nothing matches this search. Try other words or another type.' : type ? `No ${type} memories in this repository.` : 'No memories in this repository yet.'}</Empty>
                ) : (
                  <ul className="memory-list" data-testid="memory-list">
                    {items.map((m) => (
                      <li key={m.id} className={m.id === selected ? 'selected' : undefined}>
                        <a href={hrefFor('browse', {id: m.id})} aria-current={m.id === selected ? 'true' : undefined}>
                          <TypeBadge type={m.type} />
                          <span className="one-liner">{m.text.length > 140 ? `${m.text.slice(0, 140)}…` : m.text}</span>
                        </a>
                        <span className="meta">
                          <time dateTime={m.createdAt}>{formatDate(m.createdAt)}</time>
                          {m.score !== undefined ? <span> · score {m.score.toFixed(2)}</span> : null}
                        </span>
                      </li>
                    ))}
                  </ul>
                )}
                {count !== null && count > PAGE_SIZE ? (
                  <nav className="pager" aria-label="Pages of memories">
                    <button type="button" disabled={skip === 0} onClick={() => setSkip(Math.max(0, skip - PAGE_SIZE))}>
                      ← Previous
                    </button>
                    <span>
                      Page {Math.floor(skip / PAGE_SIZE) + 1} of {Math.ceil(count / PAGE_SIZE)}
                    </span>
                    <button type="button" disabled={skip + PAGE_SIZE >= count} onClick={() => setSkip(skip + PAGE_SIZE)}>
                      Next →
                    </button>
                  </nav>
                ) : null}
              </>
            )}
          </Show>
        </section>
        <div className={selected ? 'detail-pane' : 'detail-pane idle'}>
          {selected ? (
            <MemoryDetail key={selected} id={selected} onChanged={() => setChanges((c) => c + 1)} />
          ) : (
            <Empty>Select a memory to see its fields, versions and links.</Empty>
          )}
        </div>
      </div>
    </div>
  )
}

function MemoryDetail({id, onChanged}: {id: string; onChanged: () => void}) {
  const {navigate} = useApp()
  const [version, setVersion] = useState(0)
  const memory = useAsync((signal) => api<Memory>(memoryPath(id), {signal}), [id, version])
  const chain = useAsync(
    async (signal) => (await api<{chain: Array<{id: string; content: string; createdAt: string}>}>(`/api/mem/history/${encodeURIComponent(id)}`, {signal})).chain,
    [id, version],
  )
  const [editing, setEditing] = useState(false)
  const [forgetting, setForgetting] = useState(false)
  const [message, setMessage] = useState<{kind: 'ok' | 'error' | 'info'; text: React.ReactNode} | null>(null)
  const headingRef = useRef<HTMLHeadingElement>(null)

  const changed = (text: React.ReactNode) => {
    setMessage({kind: 'ok', text})
    setVersion((v) => v + 1)
    onChanged()
  }

  const sendFeedback = async (wasUsed: boolean) => {
    try {
      const r = await api<{applied: boolean}>('/api/mem/feedback', {method: 'POST', body: {memoryId: id, wasUsed}})
      if (r.applied) changed(`Feedback recorded: ${wasUsed ? 'used' : 'not used'}.`)
      else setMessage({kind: 'info', text: 'Feedback not applied: this memory is forgotten or superseded.'})
    } catch (error) {
      setMessage({kind: 'error', text: <ErrorView error={error} />})
    }
  }

  return (
    <Section title="Memory" id="detail">
      <Show value={memory}>
        {(m) => {
          const live = !m.forgottenAt && !m.supersededBy
          return (
            <article data-testid="memory-detail" data-id={m.id} data-live={live}>
              <h3 ref={headingRef} className="detail-title">
                <TypeBadge type={m.type} /> {m.oneLiner ?? m.content.slice(0, 80)}
              </h3>
              {m.forgottenAt ? (
                <Message kind="info">
                  Forgotten {formatDate(m.forgottenAt)}
                  {m.forgetReason ? `: ${m.forgetReason}` : ''}.
                </Message>
              ) : null}
              {m.supersededBy ? (
                <Message kind="info">
                  Superseded by <a href={hrefFor('browse', {id: m.supersededBy})}>a newer version</a>
                  {m.forgetReason && !m.forgottenAt ? ` (${m.forgetReason})` : ''}.
                </Message>
              ) : null}
              {message ? <Message kind={message.kind}>{message.text}</Message> : null}
              <pre className="content" data-testid="memory-content">
                {m.content}
              </pre>
              {live ? (
                <div className="actions" role="group" aria-label="Actions on this memory">
                  <button type="button" onClick={() => setEditing((e) => !e)} aria-expanded={editing}>
                    Edit
                  </button>
                  <button type="button" className="danger" onClick={() => setForgetting(true)}>
                    Forget…
                  </button>
                  <span className="sep" aria-hidden="true" />
                  <button type="button" onClick={() => void sendFeedback(true)}>
                    Used
                  </button>
                  <button type="button" onClick={() => void sendFeedback(false)}>
                    Not used
                  </button>
                </div>
              ) : null}
              {editing && live ? (
                <EditForm
                  memory={m}
                  onCancel={() => setEditing(false)}
                  onSaved={(result) => {
                    setEditing(false)
                    if (result.newId) {
                      onChanged()
                      navigate('browse', {id: result.newId})
                    } else changed(result.text)
                  }}
                />
              ) : null}
              <dl className="fields">
                <dt>Id</dt>
                <dd>
                  <code>{m.id}</code>
                </dd>
                <dt>Type</dt>
                <dd>{m.type}</dd>
                <dt>Importance</dt>
                <dd>{m.importance.toFixed(2)}</dd>
                <dt>Tags</dt>
                <dd>{m.tags.length ? m.tags.map((t) => <span key={t} className="tag">{t}</span>) : '—'}</dd>
                <dt>Created</dt>
                <dd>{formatDate(m.createdAt)}</dd>
                <dt>Updated</dt>
                <dd>{formatDate(m.updatedAt)}</dd>
                <dt>Source</dt>
                <dd>{m.source}</dd>
                {m.sessionId ? (
                  <>
                    <dt>Session</dt>
                    <dd>{m.sessionId}</dd>
                  </>
                ) : null}
                <dt>Recalled</dt>
                <dd>
                  {m.accessCount} time{m.accessCount === 1 ? '' : 's'}
                  {m.lastAccessedAt ? `, last ${formatDate(m.lastAccessedAt)}` : ''}
                </dd>
                <dt>Feedback</dt>
                <dd data-testid="feedback-counts">
                  used {m.usedCount}, not used {m.unusedCount}
                </dd>
                {m.expiresAt ? (
                  <>
                    <dt>Expires</dt>
                    <dd>{formatDate(m.expiresAt)}</dd>
                  </>
                ) : null}
                {m.summary ? (
                  <>
                    <dt>Summary</dt>
                    <dd>{m.summary}</dd>
                  </>
                ) : null}
              </dl>
              <h4>Links</h4>
              <LinksView memory={m} />
              <h4>Version history</h4>
              <Show value={chain}>
                {(items) =>
                  items.length <= 1 ? (
                    <Empty>Only this version.</Empty>
                  ) : (
                    <ol className="history" data-testid="history">
                      {items.map((v) => (
                        <li key={v.id} className={v.id === m.id ? 'current' : undefined}>
                          <time dateTime={v.createdAt}>{formatDate(v.createdAt)}</time>{' '}
                          {v.id === m.id ? <strong>(this version)</strong> : <a href={hrefFor('browse', {id: v.id})}>open</a>}
                          <p>{v.content.length > 200 ? `${v.content.slice(0, 200)}…` : v.content}</p>
                        </li>
                      ))}
                    </ol>
                  )
                }
              </Show>
              {forgetting ? (
                <ForgetDialog
                  id={m.id}
                  onClose={(result) => {
                    setForgetting(false)
                    if (result) changed(result)
                  }}
                />
              ) : null}
            </article>
          )
        }}
      </Show>
    </Section>
  )
}

function LinksView({memory}: {memory: Memory}) {
  const links = [
    ...(memory.links ?? []).map((l) => ({id: l.targetId, relation: l.relation})),
    ...memory.derivedFrom.map((d) => ({id: d, relation: 'derived from'})),
    ...(memory.supersedes ? [{id: memory.supersedes, relation: 'supersedes'}] : []),
  ]
  if (links.length === 0) return <Empty>No links.</Empty>
  return (
    <ul className="links" data-testid="links">
      {links.map((l) => (
        <li key={`${l.relation}:${l.id}`}>
          <span className="relation">{l.relation}</span> <a href={hrefFor('browse', {id: l.id})}>{l.id}</a>
        </li>
      ))}
    </ul>
  )
}

function EditForm({memory, onCancel, onSaved}: {memory: Memory; onCancel: () => void; onSaved: (r: {newId?: string; text: React.ReactNode}) => void}) {
  const [content, setContent] = useState(memory.content)
  const [tags, setTags] = useState(memory.tags.join(', '))
  const [importance, setImportance] = useState(String(memory.importance))
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<unknown>(null)

  const save = async (e: FormEvent) => {
    e.preventDefault()
    const body: {content?: string; tags?: string[]; importance?: number} = {}
    if (content !== memory.content) body.content = content
    const newTags = tags.split(',').map((t) => t.trim()).filter(Boolean)
    if (newTags.join('\u0000') !== memory.tags.join('\u0000')) body.tags = newTags
    const imp = Number(importance)
    if (imp !== memory.importance) body.importance = imp
    if (Object.keys(body).length === 0) {
      onSaved({text: 'Nothing changed.'})
      return
    }
    setBusy(true)
    setError(null)
    try {
      const r = await api<{success: boolean; id?: string; superseded?: string | null; duplicateId?: string}>(memoryPath(memory.id), {method: 'PUT', body})
      if (!r.success && r.duplicateId) {
        setError(new Error(`Not saved: the new content duplicates ${r.duplicateId}.`))
      } else if (r.superseded) {
        onSaved({newId: r.id, text: 'Saved as a new version.'})
      } else {
        onSaved({text: 'Saved.'})
      }
    } catch (err) {
      setError(err)
    } finally {
      setBusy(false)
    }
  }

  return (
    <form className="edit-form" onSubmit={save} aria-label="Edit memory">
      <label htmlFor="edit-content">Content (a change makes a new version)</label>
      <textarea id="edit-content" rows={6} value={content} onChange={(e) => setContent(e.target.value)} required maxLength={MAX_CONTENT_CHARS} />
      <div className="row">
        <div className="field grow">
          <label htmlFor="edit-tags">Tags (comma-separated)</label>
          <input id="edit-tags" value={tags} onChange={(e) => setTags(e.target.value)} />
        </div>
        <div className="field">
          <label htmlFor="edit-importance">Importance (0–1)</label>
          <input id="edit-importance" type="number" min={0} max={1} step={0.05} value={importance} onChange={(e) => setImportance(e.target.value)} required />
        </div>
      </div>
      {error ? <ErrorView error={error} /> : null}
      <div className="actions">
        <button type="button" onClick={onCancel}>
          Cancel
        </button>
        <button type="submit" className="primary" disabled={busy}>
          {busy ? 'Saving…' : 'Save'}
        </button>
      </div>
    </form>
  )
}

function ForgetDialog({id, onClose}: {id: string; onClose: (result?: string) => void}) {
  const ref = useRef<HTMLDialogElement>(null)
  const [reason, setReason] = useState('')
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<unknown>(null)
  useEffect(() => {
    const d = ref.current
    if (d && !d.open) d.showModal()
  }, [])
  const confirm = async (e: FormEvent) => {
    e.preventDefault()
    setBusy(true)
    setError(null)
    try {
      const r = await api<{forgotten: boolean}>(memoryPath(id), {method: 'DELETE', query: {reason: reason.trim() || undefined}})
      onClose(r.forgotten ? 'Forgotten.' : 'It was already forgotten.')
    } catch (err) {
      setError(err)
      setBusy(false)
    }
  }
  return (
    <dialog ref={ref} className="dialog" aria-labelledby="forget-title" onCancel={() => onClose()}>
      <form onSubmit={confirm}>
        <h2 id="forget-title">Forget this memory?</h2>
        <p>
          It drops out of recall, browse and the session context. It stays readable by id and in its history (a soft delete).
        </p>
        <label htmlFor="forget-reason">Reason (optional)</label>
        <input id="forget-reason" value={reason} maxLength={MAX_FORGET_REASON_CHARS} onChange={(e) => setReason(e.target.value)} placeholder="e.g. wrong since the build moved to pnpm" />
        {error ? <ErrorView error={error} /> : null}
        <div className="actions">
          <button type="button" onClick={() => onClose()}>
            Cancel
          </button>
          <button type="submit" className="danger" disabled={busy}>
            {busy ? 'Forgetting…' : 'Forget memory'}
          </button>
        </div>
      </form>
    </dialog>
  )
}
