import type {ReactNode} from 'react'
import {ApiError} from './api.js'
import {type Async, useApp} from './hooks.js'

export function Loading({label = 'Loading…'}: {label?: string}) {
  return (
    <p className="state loading" role="status" aria-live="polite">
      <span className="spinner" aria-hidden="true" /> {label}
    </p>
  )
}

export function Empty({children}: {children: ReactNode}) {
  return <p className="state empty">{children}</p>
}

/** An error as the user can act on it: 401 and 403 are named as such, a missing route as such. */
export function ErrorView({error, retry}: {error: unknown; retry?: () => void}) {
  const {askKey} = useApp()
  if (error instanceof ApiError) {
    if (error.status === 401) {
      return (
        <div className="state error" role="alert" data-status="401">
          <strong>401 Unauthorized:</strong> {error.message}. This service needs an API key.{' '}
          <button type="button" onClick={askKey}>
            Enter API key
          </button>
        </div>
      )
    }
    if (error.status === 403) {
      return (
        <div className="state error" role="alert" data-status="403">
          <strong>403 Forbidden:</strong> {error.message}
          {error.hint ? <> {error.hint}</> : null}{' '}
          <button type="button" onClick={askKey}>
            Use another key
          </button>
        </div>
      )
    }
    if (error.missingRoute) {
      return (
        <div className="state unavailable" role="note" data-status="404">
          Not available: this server has no <code>{error.path}</code> route (it comes with a newer version of mem).
        </div>
      )
    }
    return (
      <div className="state error" role="alert" data-status={error.status}>
        <strong>{error.status ? `Error ${error.status}` : 'No answer'}:</strong> {error.message}
        {error.hint ? <span className="hint"> {error.hint}</span> : null}
        {retry ? (
          <>
            {' '}
            <button type="button" onClick={retry}>
              Retry
            </button>
          </>
        ) : null}
      </div>
    )
  }
  return (
    <div className="state error" role="alert">
      <strong>Error:</strong> {String((error as Error)?.message ?? error)}
    </div>
  )
}

/** Renders loading, error, or the data through `children`. */
export function Show<T>({value, children, loadingLabel}: {value: Async<T> & {reload?: () => void}; children: (data: T) => ReactNode; loadingLabel?: string}) {
  if (value.state === 'loading') return <Loading label={loadingLabel} />
  if (value.state === 'error') return <ErrorView error={value.error} retry={value.reload} />
  return <>{children(value.data)}</>
}

export function TypeBadge({type}: {type: string}) {
  const t = type.toLowerCase()
  return <span className={`badge type-${t}`}>{t}</span>
}

export function formatDate(iso: string | null | undefined): string {
  if (!iso) return '—'
  const d = new Date(iso)
  if (Number.isNaN(d.getTime())) return iso
  return d.toISOString().replace('T', ' ').slice(0, 16) + ' UTC'
}

export function Section({title, children, id}: {title: string; children: ReactNode; id?: string}) {
  const headingId = `${id ?? title.toLowerCase().replace(/\W+/g, '-')}-heading`
  return (
    <section className="card" aria-labelledby={headingId} data-section={id}>
      <h2 id={headingId}>{title}</h2>
      {children}
    </section>
  )
}

/** Horizontal bars with their values written out (the numbers are the data; bars are a glance). */
export function BarChart({data, label}: {data: Array<{name: string; value: number; className?: string}>; label: string}) {
  const max = Math.max(1, ...data.map((d) => d.value))
  return (
    <figure className="bars" aria-label={label}>
      <table>
        <caption className="visually-hidden">{label}</caption>
        <tbody>
          {data.map((d) => (
            <tr key={d.name}>
              <th scope="row">{d.name}</th>
              <td className="bar-cell">
                <span className={`bar ${d.className ?? ''}`} style={{width: `${(d.value / max) * 100}%`}} aria-hidden="true" />
              </td>
              <td className="num">{d.value.toLocaleString('en-US')}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </figure>
  )
}

/** Small column chart of a series (e.g. recalls per day); the total is given in text beside it. */
export function Sparkline({values, label, height = 40}: {values: Array<{x: string; y: number}>; label: string; height?: number}) {
  const width = Math.max(60, values.length * 6)
  const max = Math.max(1, ...values.map((v) => v.y))
  const w = width / Math.max(1, values.length)
  return (
    <svg className="sparkline" role="img" aria-label={label} viewBox={`0 0 ${width} ${height}`} preserveAspectRatio="none" width="100%" height={height}>
      {values.map((v, i) => {
        // a zero still shows as a baseline tick, so the days without activity read as days
        const h = Math.max(1, (v.y / max) * (height - 2))
        return (
          <rect key={v.x} className={v.y === 0 ? 'zero' : undefined} x={i * w + 0.5} y={height - h} width={Math.max(1, w - 1)} height={h}>
            <title>{`${v.x}: ${v.y}`}</title>
          </rect>
        )
      })}
    </svg>
  )
}

/** A score 0..100 as a meter. */
/** A 0..100 score as a meter; `null` (nothing to judge yet) shows as "no score" with the reason. */
export function Score({value, label, none}: {value: number | null; label: string; none?: string}) {
  if (value === null) {
    return (
      <div className="score none" data-score="none">
        <span className="score-value">–</span>
        <span className="score-max">{none ?? 'no score yet'}</span>
      </div>
    )
  }
  const v = Math.max(0, Math.min(100, Math.round(value)))
  const band = v >= 75 ? 'good' : v >= 50 ? 'fair' : 'poor'
  return (
    <div className={`score ${band}`} data-score={v}>
      <meter min={0} max={100} low={50} high={75} optimum={100} value={v} aria-label={label} />
      <span className="score-value">{v}</span>
      <span className="score-max">/ 100</span>
    </div>
  )
}

export function Message({kind, children}: {kind: 'ok' | 'error' | 'info'; children: ReactNode}) {
  return (
    <div className={`message ${kind}`} role={kind === 'error' ? 'alert' : 'status'}>
      {children}
    </div>
  )
}
