import type {IntakeProgress, IntakeResult} from '../../engines/intake/run.js'

/** Human renderings of intake and the hooks commands (pure: commands print them). */

export function formatIntake(repo: string, r: IntakeResult): string {
  const removed = r.files.reduce((n, f) => n + f.removedCount, 0)
  const rejected = r.files.reduce((n, f) => n + f.rejectedCount, 0)
  const parts = [`${r.newCount} new${r.replacedCount ? ` (${r.replacedCount} replacing changed seeds)` : ''}`, `${r.skippedCount} skipped`]
  if (removed) parts.push(`${removed} removed`)
  if (rejected) parts.push(`${rejected} rejected by the secret scanner or content gate`)
  const lines = [`Intake of ${repo}: ${parts.join(', ')}.`]
  if (r.files.length === 0) lines.push('  No project files found (README.md, AGENTS.md, package.json, Makefile, …).')
  const width = Math.min(40, Math.max(...r.files.map((f) => f.path.length), 4))
  for (const f of r.files) {
    const bits = [`${f.seeds} seed${f.seeds === 1 ? '' : 's'}`]
    if (f.newCount) bits.push(`${f.newCount} new`)
    if (f.replacedCount) bits.push(`${f.replacedCount} replaced`)
    if (f.skippedCount - f.rejectedCount) bits.push(`${f.skippedCount - f.rejectedCount} unchanged`)
    if (f.removedCount) bits.push(`${f.removedCount} removed`)
    if (f.rejectedCount) bits.push(`${f.rejectedCount} rejected`)
    lines.push(`  ${f.path.padEnd(width)}  ${bits.join(', ')}`)
    if (f.leftOut) lines.push(`  ${''.padEnd(width)}  ${f.leftOut} more not read: intake takes at most ${f.seeds} seeds of this file (split it, or store what matters with \`mem store\`)`)
  }
  for (const f of r.refused) lines.push(`  ${f.path.padEnd(width)}  not read: ${f.reason}`)
  return lines.join('\n')
}

export function formatIntakeProgress(p: IntakeProgress): string {
  return p.phase === 'scan' ? 'Scanning project files…' : `Writing seeds… ${p.done}/${p.total}`
}

const HOOK_ACTION: Record<string, string> = {
  created: 'installed',
  chained: 'installed, chained into the existing hook',
  wrapped: 'installed; the existing hook runs after it (moved to <hook>.mem-chained)',
  updated: 'updated',
  unchanged: 'already installed',
  skipped: 'skipped',
  removed: 'removed',
  restored: 'removed; the previous hook is back',
  absent: 'not installed',
}

export function formatHooks(r: {repo: string; hooksPath: string; hooks: Array<{name: string; action: string; reason?: string}>}): string {
  const lines = [`Git hooks of ${r.repo} (${r.hooksPath}):`]
  for (const h of r.hooks) lines.push(`  ${h.name.padEnd(13)}  ${HOOK_ACTION[h.action] ?? h.action}${h.reason ? `: ${h.reason}` : ''}`)
  return lines.join('\n')
}
