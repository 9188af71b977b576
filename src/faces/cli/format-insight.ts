import type {MeaningStatus} from '../../operations/meaning.js'
import type {EnrichAllResult, EnrichmentStatus, EnrichResult} from '../../operations/enrich.js'
import type {QualityReport} from '../../operations/quality.js'
import type {DailyBucket, UsageHourly, UsageResult} from '../../operations/usage.js'

/** Human renderings of usage, quality and enrichment (pure: commands print what these return). */

export interface Style {
  /** ANSI colours; off under NO_COLOR, in pipes and with --json. */
  color: boolean
}

const SPARKS = '▁▂▃▄▅▆▇█'

function paint(style: Style, code: string, text: string): string {
  return style.color ? `\x1b[${code}m${text}\x1b[0m` : text
}

/** A one-line chart of values: one block character per value, scaled to the largest. */
export function sparkline(values: number[]): string {
  const max = Math.max(0, ...values)
  return values.map((v) => (max === 0 || v === 0 ? ' ' : SPARKS[Math.min(SPARKS.length - 1, Math.ceil((v / max) * SPARKS.length) - 1)])).join('')
}

/** A horizontal bar of `width` cells for `value` out of `max` (eighth blocks for the remainder). */
export function bar(value: number, max: number, width: number): string {
  if (max <= 0 || value <= 0) return ''
  const cells = (value / max) * width
  const full = Math.floor(cells)
  const rest = Math.round((cells - full) * 8)
  return '█'.repeat(full) + (rest > 0 ? '▏▎▍▌▋▊▉'[8 - rest] ?? '' : '')
}

function ms(n: number): string {
  return n >= 100 ? `${Math.round(n)} ms` : `${n.toFixed(n >= 10 ? 1 : 2)} ms`
}

export function formatUsage(u: UsageResult, daily: DailyBucket[], style: Style): string {
  const lines = [`Usage of ${u.repo}: ${u.total} call${u.total === 1 ? '' : 's'} in the last ${u.days} day${u.days === 1 ? '' : 's'} (UTC)`]
  if (daily.length > 0) {
    const peak = Math.max(...daily.map((d) => d.count))
    lines.push(`  ${daily[0].date} ${paint(style, '36', sparkline(daily.map((d) => d.count)))} ${daily.at(-1)!.date}   peak ${peak}/day`)
  }
  if (u.operations.length === 0) {
    lines.push('', '  No operations recorded yet.')
    return lines.join('\n')
  }
  const width = Math.max(9, ...u.operations.map((o) => o.operation.length))
  const max = Math.max(...u.operations.map((o) => o.count))
  const countWidth = Math.max(5, String(max).length)
  lines.push('', `  ${'operation'.padEnd(width)}  ${'calls'.padStart(countWidth)}  ${''.padEnd(20)}  ${'avg'.padEnd(9)}  ${'p95'.padEnd(9)}  results`)
  for (const o of u.operations) {
    lines.push(
      `  ${o.operation.padEnd(width)}  ${String(o.count).padStart(countWidth)}  ${paint(style, '32', bar(o.count, max, 20).padEnd(20))}  ${ms(o.avgDurationMs).padEnd(9)}  ${ms(o.p95DurationMs).padEnd(9)}  ${o.avgResults}`,
    )
  }
  return lines.join('\n')
}

export function formatHourly(h: UsageHourly, style: Style): string {
  const total = h.buckets.reduce((n, b) => n + b.count, 0)
  const lines = [`Calls per hour in ${h.repo}, last ${h.days} day${h.days === 1 ? '' : 's'} (UTC): ${total} in all`]
  for (let i = 0; i < h.buckets.length; i += 24) {
    const day = h.buckets.slice(i, i + 24)
    const n = day.reduce((a, b) => a + b.count, 0)
    lines.push(`  ${day[0].hour.slice(0, 13).replace('T', ' ')}h ${paint(style, '36', sparkline(day.map((b) => b.count)).padEnd(24))} ${n}`)
  }
  return lines.join('\n')
}

const SEVERITY: Record<string, [string, string]> = {critical: ['31', '✖ critical'], warning: ['33', '! warning'], info: ['36', '· info']}

export function formatQuality(q: QualityReport, style: Style): string {
  const scoreColor = q.score === null ? '36' : q.score >= 80 ? '32' : q.score >= 50 ? '33' : '31'
  const pct = (r: number) => `${Math.round(r * 100)}%`
  const lines = [
    `Quality of ${q.repo}: ${paint(style, scoreColor, q.score === null ? `no score (${q.totalMemories === 0 ? 'no memories yet' : 'nothing recalled yet'})` : `${q.score}/100`)}`,
    `  memories ${q.totalMemories}, recalled ${q.recalled}; of those recalled, echo ${pct(q.echoRatio)} (mostly used), fizzle ${pct(q.fizzleRatio)} (mostly unused)`,
    `  stale ${q.staleCount} (30+ days without a recall), dead ${q.deadCount} (60+ days, or repeatedly unused)`,
  ]
  const inj = q.injection
  if (inj.injections > 0) {
    lines.push(
      `  injected at prompt time: ${inj.injected} memories, ${inj.injections} times; precision ${inj.precision === null ? 'unknown (no feedback yet)' : `${pct(inj.precision)} (${inj.used} used of ${inj.used + inj.unused} reported)`}`,
    )
  }
  if (q.issues.length === 0) lines.push('', '  No issues found.')
  for (const issue of q.issues) {
    const [code, label] = SEVERITY[issue.severity]
    lines.push('', `  ${paint(style, code, label)}  ${issue.kind}${issue.count ? ` (${issue.count})` : ''}`, `    ${issue.advice}`)
    for (const id of issue.exampleIds) lines.push(`      ${id}`)
  }
  return lines.join('\n')
}

export function formatEnrich(r: EnrichResult): string {
  const lines = [
    `${r.enriched ? 'Enriched' : 'Unchanged (same supplements already stored)'} ${r.id} via ${r.provider}${r.provider === 'heuristic' ? ' (no language-model runtime configured)' : ''}`,
    `  one-liner  ${r.oneLiner ?? '-'}`,
    `  summary    ${r.summary ?? '-'}`,
    `  foresight  ${r.foresight ?? '-'}`,
    `  entities   ${r.entities.length ? r.entities.join(', ') : '-'}`,
  ]
  return lines.join('\n')
}

export function formatEnrichAll(r: EnrichAllResult): string {
  const lines = [
    `Enrichment of ${r.repo} via ${r.provider}${r.provider === 'heuristic' ? ' (no language-model runtime configured)' : ''}: ${r.enriched} enriched, ${r.unchanged} unchanged, ${r.failed} failed of ${r.candidates}${r.embedded > 0 ? `; ${r.embedded} embedded` : ''}`,
  ]
  for (const e of r.errors) lines.push(`  ${e.id}: ${e.error}`)
  if (r.stopped) lines.push(`Stopped: ${r.stopped}`)
  return lines.join('\n')
}

export function formatStatus(s: {version: string; home: string; enrichment: EnrichmentStatus & {url?: string | null}; meaning?: MeaningStatus}, style: Style): string {
  const e = s.enrichment
  const runtime = !e.enabled
    ? `off: the heuristic writes one-liners (set enrichment.provider in ${s.home}/config.yaml to use Ollama or an OpenAI-compatible runtime)`
    : `${e.provider}, model ${e.model}${e.url ? ` at ${e.url}` : ''}: ${e.reachable ? paint(style, '32', 'reachable') : paint(style, '31', 'not reachable')}`
  const lines = [`mem ${s.version}`, `  home        ${s.home}`, `  enrichment  ${runtime}`]
  if (s.meaning) lines.push(`  meaning     ${meaningLine(s.meaning, style)}`)
  return lines.join('\n')
}

function meaningLine(m: MeaningStatus, style: Style): string {
  if (m.setting === 'off') return 'off: recall and update detection by words alone (meaning.model: off)'
  if (!m.on) return `${m.setting}: ${paint(style, '31', 'not available')} (${m.error}); recall answers by words alone`
  const size = m.sizeBytes === null ? '' : `, ${(m.sizeBytes / 1_048_576).toFixed(1)} MiB`
  return `${m.name}${size}, ${m.licence}, from ${m.source}; loads in ${m.loadMs} ms, embeds its first note in ${m.embedMs} ms and each next in ${m.embedNextMs} ms`
}
