/**
 * Pure helpers of the terminal browser: the rows it lists, the detail lines it shows, the keys
 * bar and the parsing of what is typed in its prompts. No ink, no React: easy to test alone.
 */
import Fuse from 'fuse.js'
import type {HistoryResult} from '../../operations/history.js'
import {MEMORY_TYPES, TYPE_LETTER, type Memory, type MemoryType} from '../../model/memory.js'
import {MAX_TAG_CHARS, MAX_TAGS, OUTDATED_WARNING, UPDATED_BY} from '../../model/memory.js'

/** What one list line needs: a browse entry or a recall result. */
export interface Row {
  id: string
  type: MemoryType
  content: string
  oneLiner: string | null
  tags: string[]
  importance: number
  createdAt: string
  /** Recall score (search results only). */
  score?: number
  /** A newer memory states another value of its subject (recall's warning, or an `updated-by` link). */
  outdated?: boolean
}

export function toRow(
  m: Omit<Row, 'type' | 'outdated'> & {type: string; links?: Array<{relation: string}>; stalenessWarning?: string | null},
): Row {
  const outdated = (m.links ?? []).some((l) => l.relation === UPDATED_BY) || (m.stalenessWarning ?? '').startsWith(OUTDATED_WARNING)
  return {
    ...(outdated ? {outdated} : {}),
    id: m.id,
    type: m.type.toLowerCase() as MemoryType,
    content: m.content,
    oneLiner: m.oneLiner,
    tags: m.tags,
    importance: m.importance,
    createdAt: m.createdAt,
    ...(m.score === undefined ? {} : {score: m.score}),
  }
}

export function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim()
}

/** Cuts `text` to `width` columns (code points; memories are text, not wide glyph art). */
export function clip(text: string, width: number): string {
  if (width <= 0) return ''
  const chars = [...text]
  return chars.length > width ? `${chars.slice(0, Math.max(0, width - 1)).join('')}…` : text
}

/** One list line (without the cursor marker): type letter, date, importance, text. */
export function rowLine(row: Row, width: number): string {
  const head = `${TYPE_LETTER[row.type] ?? '?'} ${row.createdAt.slice(0, 10)} ${row.importance.toFixed(2)} ${row.outdated ? '(outdated) ' : ''}`
  return clip(head + oneLine(row.oneLiner ?? row.content), width)
}

/** Instant filter of what is on screen (typo-tolerant), best match first; empty text keeps all. */
export function filterRows(rows: Row[], text: string): Row[] {
  const q = text.trim()
  if (!q) return rows
  const fuse = new Fuse(rows, {
    keys: [
      {name: 'oneLiner', weight: 2},
      {name: 'content', weight: 1},
      {name: 'tags', weight: 1.5},
      {name: 'id', weight: 0.5},
    ],
    threshold: 0.35,
    ignoreLocation: true,
  })
  return fuse.search(q).map((r) => r.item)
}

/** Wraps text to `width` columns, keeping blank lines and breaking words longer than a line. */
export function wrap(text: string, width: number): string[] {
  const w = Math.max(10, width)
  const out: string[] = []
  for (const para of text.split('\n')) {
    if (para.trim() === '') {
      out.push('')
      continue
    }
    let line = ''
    for (let word of para.split(/\s+/).filter(Boolean)) {
      while ([...word].length > w) {
        if (line) {
          out.push(line)
          line = ''
        }
        out.push([...word].slice(0, w).join(''))
        word = [...word].slice(w).join('')
      }
      if (!line) line = word
      else if ([...line].length + 1 + [...word].length <= w) line += ` ${word}`
      else {
        out.push(line)
        line = word
      }
    }
    if (line) out.push(line)
  }
  return out
}

/** Every field of the full memory entry, its links and its version history, as screen lines. */
export function detailLines(m: Memory, history: HistoryResult | null, width: number): string[] {
  const indent = (prefix: string, text: string) => wrap(text, width - prefix.length).map((line) => prefix + line)
  const pad = 13
  const field = (name: string, value: string) =>
    wrap(value, width - pad).map((line, i) => `${(i === 0 ? name : '').padEnd(pad)}${line}`)
  const lines: string[] = [...wrap(m.id, width), '']
  lines.push(...field('type', m.type))
  lines.push(...field('importance', String(m.importance)))
  lines.push(...field('tags', m.tags.length ? m.tags.join(', ') : '-'))
  lines.push(...field('created', m.createdAt))
  lines.push(...field('updated', m.updatedAt))
  lines.push(...field('source', `${m.source}${m.sessionId ? ` (session ${m.sessionId})` : ''}`))
  lines.push(...field('recalled', `${m.accessCount}×${m.lastAccessedAt ? `, last ${m.lastAccessedAt}` : ''}`))
  lines.push(...field('feedback', `${m.usedCount} used, ${m.unusedCount} unused${m.lastUsedAt ? `, last used ${m.lastUsedAt}` : ''}`))
  if (m.expiresAt) lines.push(...field('expires', m.expiresAt))
  if (m.supersedes) lines.push(...field('supersedes', m.supersedes))
  if (m.supersededBy) lines.push(...field('superseded', `by ${m.supersededBy}${m.forgetReason && !m.forgottenAt ? ` (${m.forgetReason})` : ''}`))
  if (m.forgottenAt) lines.push(...field('forgotten', `${m.forgottenAt}${m.forgetReason ? ` (${m.forgetReason})` : ''}`))
  if (m.oneLiner) lines.push(...field('one-liner', m.oneLiner))
  if (m.summary) lines.push(...field('summary', m.summary))
  if (m.derivedFrom.length) {
    lines.push('derived from')
    for (const id of m.derivedFrom) lines.push(...indent('  ', id))
  }
  const links = m.links ?? []
  if (links.length) {
    lines.push('links')
    for (const link of links) lines.push(...indent('  ', `${link.relation} → ${link.targetId}`))
  }
  lines.push('', '── content ──', ...wrap(m.content, width))
  if (history && history.chain.length > 1) {
    lines.push('', `── history (${history.chain.length} versions, newest first) ──`)
    for (const v of history.chain) {
      const mark = v.id === m.id ? '*' : ' '
      lines.push(...indent(`${mark} `, `${v.createdAt} ${v.id}`))
      lines.push(...indent('    ', clip(oneLine(v.content), Math.max(10, width * 2))))
    }
  }
  return lines
}

/** The next type in the filter cycle: all → observation → insight → procedure → heuristic → all. */
export function nextType(type: MemoryType | undefined): MemoryType | undefined {
  if (type === undefined) return MEMORY_TYPES[0]
  const i = MEMORY_TYPES.indexOf(type)
  return i === MEMORY_TYPES.length - 1 ? undefined : MEMORY_TYPES[i + 1]
}

/** Tags typed as "a, b c" (commas or spaces); an error message when they break the limits. */
export function parseTags(text: string): {tags: string[]} | {error: string} {
  const tags = [...new Set(text.split(/[,\s]+/).map((t) => t.trim()).filter(Boolean))]
  if (tags.length > MAX_TAGS) return {error: `At most ${MAX_TAGS} tags.`}
  const long = tags.find((t) => t.length > MAX_TAG_CHARS)
  if (long) return {error: `Tag "${clip(long, 20)}" is longer than ${MAX_TAG_CHARS} characters.`}
  return {tags}
}

export function parseImportance(text: string): {importance: number} | {error: string} {
  const t = text.trim()
  const n = Number(t)
  if (t === '' || !Number.isFinite(n) || n < 0 || n > 1) return {error: 'Importance is a number from 0.0 to 1.0.'}
  return {importance: n}
}

/** The keys bar for a screen, cut to the width (the full list is under `?`). */
export function keysBar(mode: 'list' | 'detail' | 'input' | 'prompt' | 'confirm' | 'help', width: number): string {
  const bars = {
    list: '⏎ open / search f filter t type n/p page e edit # tags d forget ? keys q quit',
    detail: '↑↓ scroll e edit # tags i imp d forget +/- feedback y copy Esc back q quit',
    input: 'type to search · ↑↓ move · ⏎ keep · Esc clear · Ctrl-C quit',
    prompt: '⏎ confirm · Esc cancel · Ctrl-U clear · Ctrl-C quit',
    confirm: 'y yes · any other key cancels',
    help: 'any key closes help · q quit',
  }
  return clip(bars[mode], width)
}

export const HELP_LINES = [
  'Keys',
  '  ↑ ↓  j k         move the selection (detail: scroll)',
  '  ⏎                open the detail pane: all fields, links, history',
  '  Esc              back: closes the pane or a prompt, clears the filter, then',
  '                   the search; quits from the list with nothing to clear',
  '  /                search as you type (recall over the whole store)',
  '  f                filter what is on screen as you type (fuzzy)',
  '  t                type: all, observation, insight, procedure, heuristic',
  '  n p  → ←  PgDn PgUp   next / previous page (detail: PgDn PgUp scroll)',
  '  e                edit the content in $VISUAL or $EDITOR (saves a new version)',
  '  #                edit tags          i   edit importance (0.0 to 1.0)',
  '  d                forget (asks a reason, then y to confirm)',
  '  +  -             feedback: used / not used',
  '  y                copy the id (terminal clipboard, OSC 52) and show it',
  '  r                refresh (shows writes from other processes)',
  '  q  Ctrl-C        quit',
]
