import type {Memory} from '../../model/memory.js'
import type {RecallItem} from '../../operations/recall.js'
import {isOwnOrigin, originMark} from '../../model/memory.js'

/** Human renderings of core results. Pure functions: the commands print what these return. */

function clip(text: string, max: number): string {
  const one = text.replace(/\s+/g, ' ').trim()
  return one.length > max ? `${one.slice(0, max - 1)}…` : one
}

export function formatMemory(m: Memory): string {
  const lines = [
    `${m.id}`,
    `  type        ${m.type}`,
    `  importance  ${m.importance}`,
    `  tags        ${m.tags.length ? m.tags.join(', ') : '-'}`,
    `  created     ${m.createdAt}`,
    `  source      ${m.source}${m.sessionId ? ` (session ${m.sessionId})` : ''}`,
    `  used        ${m.usedCount} used, ${m.unusedCount} unused, recalled ${m.accessCount}×`,
  ]
  if (m.supersedes) lines.push(`  supersedes  ${m.supersedes}`)
  if (m.supersededBy) lines.push(`  superseded  by ${m.supersededBy}${m.forgetReason && !m.forgottenAt ? ` (${m.forgetReason})` : ''}`)
  if (m.forgottenAt) lines.push(`  forgotten   ${m.forgottenAt}${m.forgetReason ? ` (${m.forgetReason})` : ''}`)
  if (m.oneLiner) lines.push(`  one-liner   ${m.oneLiner}`)
  lines.push('', m.content)
  return lines.join('\n')
}

export function formatMemoryRow(m: Pick<Memory, 'id' | 'type' | 'content' | 'oneLiner' | 'createdAt'>): string {
  return `${m.createdAt.slice(0, 10)}  ${m.type.padEnd(11)}  ${clip(m.oneLiner ?? m.content, 80)}\n            ${m.id}`
}

export function formatRecall(results: RecallItem[], q: string): string {
  if (results.length === 0) return `No memories match "${clip(q, 60)}".`
  return results
    .map((r, i) => {
      const warn = r.stalenessWarning ? `  (${r.stalenessWarning})` : ''
      const from = isOwnOrigin(r.origin) ? '' : `  (${originMark(r.origin)})`
      return `${String(i + 1).padStart(2)}. [${r.type}] ${clip(r.oneLiner ?? r.content, 90)}\n    score ${r.score.toFixed(3)}  ${r.id}${warn}${from}`
    })
    .join('\n')
}
