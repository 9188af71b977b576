/**
 * The markdown export: every live memory, organised by type, in an order that depends only on
 * the memories themselves (type, creation time, id), never on the clock or on access counters,
 * so that exporting the same store twice gives the same bytes and a new memory is a small diff.
 * Volatile fields (importance, which decay moves; usage counters) are left out for that reason.
 */
import {capitalizeType, MEMORY_TYPES, type MemoryType} from '../../model/memory.js'
import type {GraphRow} from '../../storage/graph.js'
import {label} from './graph.js'

const PLURAL: Record<MemoryType, string> = {observation: 'Observations', insight: 'Insights', procedure: 'Procedures', heuristic: 'Heuristics'}
/** Section order: what an agent acts on first. */
export const EXPORT_ORDER: MemoryType[] = ['procedure', 'heuristic', 'insight', 'observation']

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim()
}

/** Text safe inside a heading: no line breaks, markdown that would change structure escaped. */
function headingText(text: string): string {
  return oneLine(text).replace(/([\\`*_[\]<>#|])/g, '\\$1')
}

export function renderMarkdown(repoId: string, rows: GraphRow[]): string {
  const byType = new Map<MemoryType, GraphRow[]>(MEMORY_TYPES.map((t) => [t, []]))
  for (const r of rows) byType.get(r.type)!.push(r)
  for (const list of byType.values()) list.sort((a, b) => (a.createdAt < b.createdAt ? -1 : a.createdAt > b.createdAt ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
  const counts = EXPORT_ORDER.map((t) => `${byType.get(t)!.length} ${PLURAL[t].toLowerCase()}`).join(', ')
  const out: string[] = [`# Memories of ${headingText(repoId)}`, '', `${rows.length} live memories: ${counts}.`, '']
  for (const type of EXPORT_ORDER) {
    const list = byType.get(type)!
    if (list.length === 0) continue
    out.push(`## ${PLURAL[type]} (${list.length})`, '')
    for (const m of list) {
      out.push(`### ${headingText(label(m))}`, '')
      // content as a block quote: its own headings and lists cannot break the document's structure
      for (const line of m.content.replace(/\r\n?/g, '\n').trimEnd().split('\n')) out.push(line.trim() === '' ? '>' : `> ${line}`)
      out.push('')
      const meta = [`id \`${m.id}\``, `type ${capitalizeType(m.type)}`, `created ${m.createdAt.slice(0, 10)}`, `source ${oneLine(m.source)}`]
      if (m.tags.length) meta.push(`tags ${m.tags.map((t) => `\`${t}\``).join(', ')}`)
      if (m.derivedFrom.length) meta.push(`derived from ${m.derivedFrom.length} observation${m.derivedFrom.length === 1 ? '' : 's'}`)
      if (m.supersedes) meta.push(`supersedes \`${m.supersedes}\``)
      out.push(`<sub>${meta.join(' · ')}</sub>`, '')
    }
  }
  return `${out.join('\n').trimEnd()}\n`
}
