import type {ConsolidateResult} from '../../engines/consolidation/consolidate.js'
import type {MaintenanceProgress, MaintenanceReport} from '../../engines/maintenance/types.js'

/** Human renderings of consolidation and maintenance results (pure: commands print them). */

function clip(text: string, max: number): string {
  const one = text.replace(/\s+/g, ' ').trim()
  return one.length > max ? `${one.slice(0, max - 1)}…` : one
}

const OUTCOME = {create: 'new insight', boost: 'boosts', restates: 'skipped, restates'} as const

export function formatConsolidate(r: ConsolidateResult, dryRun: boolean): string {
  const head = dryRun
    ? `Dry run: ${r.candidates} candidate cluster${r.candidates === 1 ? '' : 's'}; a run would create ${r.insightsCreated} insight${r.insightsCreated === 1 ? '' : 's'} and boost ${r.insightsBoosted}. Nothing was written.`
    : `${r.candidates} candidate cluster${r.candidates === 1 ? '' : 's'}: ${r.insightsCreated} insight${r.insightsCreated === 1 ? '' : 's'} created, ${r.insightsBoosted} boosted, ${r.candidates - r.insightsCreated - r.insightsBoosted} skipped.`
  const lines = [head]
  for (const c of r.clusters ?? []) {
    const target = c.target ? ` ${c.target}` : ''
    lines.push('', `${c.id}  → ${OUTCOME[c.outcome]}${target}${c.tags.length ? `  [${c.tags.join(', ')}]` : ''}`)
    for (const [i, line] of c.content.split('\n').entries()) lines.push(`  ${i === 0 ? '' : '  '}${clip(line.replace(/^- /, '• '), 110)}`)
    lines.push(`  from ${c.members.length} observations:`)
    for (const m of c.members) lines.push(`    - ${clip(m.text, 100)}`)
  }
  if ((r.clusters ?? []).some((c) => c.outcome !== 'restates')) {
    lines.push('', 'Apply some and not others: mem consolidate --cluster ID [--cluster ID …]')
  }
  return lines.join('\n')
}

export function formatMaintenance(r: MaintenanceReport, dryRun: boolean): string {
  const width = Math.max(...r.stages.map((s) => s.name.length), 5)
  const lines = [`Maintenance of ${r.repoId}${dryRun ? ' (dry run: nothing was written)' : ''}`]
  for (const s of r.stages) {
    const what = s.error ? `failed: ${s.error}` : `${s.affected} ${dryRun ? 'would change' : 'changed'}`
    lines.push(`  ${s.name.padEnd(width)}  ${what.padEnd(s.error ? 0 : 18)}${s.error ? '' : `${s.durationMs} ms`}`)
  }
  return lines.join('\n')
}

/** One progress line (rewritten in place on a terminal). */
export function formatProgress(p: MaintenanceProgress): string {
  const step = `[${p.index}/${p.total}] ${p.stage}`
  if (p.phase === 'start') return `${step}…`
  if (p.phase === 'progress') return `${step}… ${p.done ?? 0}/${p.of ?? 0}`
  return p.error ? `${step}: failed (${clip(p.error, 80)})` : `${step}: ${p.affected ?? 0} affected`
}
