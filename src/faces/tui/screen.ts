/**
 * What the browser shows for a state, as lines: the header (position, type, repo), the input line
 * (search, filter, prompt or question), the body (list, detail pane or help), the status and the
 * keys bar. Pure: app.tsx only turns these into ink elements.
 */
import {pageHeight, pending, selectedIndex, textWidth, visibleRows, type BrowserState, type PromptKind} from './state.js'
import {clip, detailLines, HELP_LINES, keysBar, rowLine, wrap} from './view.js'

const PROMPT_LABEL: Record<PromptKind, string> = {
  reason: 'Forget: reason (optional)',
  tags: 'Tags (comma separated)',
  importance: 'Importance (0.0 to 1.0)',
}

export interface Screen {
  header: string
  input: string
  /** The input line asks something (a prompt or the forget question): shown in colour. */
  asking: boolean
  body: Array<{text: string; selected?: boolean}>
  status: string[]
  statusError: boolean
  keys: string
}

/** The header: what is on screen (position or results, filter), whether more is coming, type, repo. */
export function headerLine(s: BrowserState): string {
  const width = textWidth(s)
  const {list} = s
  const count = list.count
  let position: string
  if (!list.loaded) position = 'loading…'
  else if (list.query) position = `search "${clip(list.query, 24)}": ${count} result${count === 1 ? '' : 's'}`
  else if (count === 0) position = '0 memories'
  else position = `${list.skip + 1}–${Math.min(count, list.skip + list.rows.length)} of ${count}`
  if (s.filter) position += ` · filter "${clip(s.filter, 16)}": ${visibleRows(s).length} shown`
  // the repository comes last, by the name people know it by (its folder's), not its path-made id
  return clip(`mem browse · ${position}${pending(s) ? ' …' : ''} · type: ${s.type ?? 'all'} · ${repoName(s)}`, width)
}

/** The repository's folder name when the browser was given a path, else its id. */
export function repoName(s: BrowserState): string {
  const repo = s.config.repo.replace(/(?<![\\/])[\\/]+$/, '')
  if (/[\\/]/.test(repo)) return repo.split(/[\\/]/).pop() || repo
  return s.list.repoId || repo
}

export function screen(s: BrowserState): Screen {
  const width = textWidth(s)
  const {mode, prompt, confirm, detail, list} = s

  let input: string
  if (mode === 'search') input = `/ ${s.input}█`
  else if (mode === 'filter') input = `f ${s.filter}█`
  else if (mode === 'prompt' && prompt) input = `${PROMPT_LABEL[prompt.kind]}: ${prompt.value}█`
  else if (mode === 'confirm' && confirm) input = `Forget "${confirm.label}"${confirm.reason ? ` (${confirm.reason})` : ''}? y/N`
  else if (s.query) input = `/ ${s.query}`
  else input = '/ to search · f to filter · ? for keys'

  // a long status (an id, an error with its hint) takes up to three lines from the list
  const statusText = s.status ? (s.status.error ? `! ${s.status.text}` : s.status.text) : s.busy ? 'working…' : ''
  const status = statusText ? wrap(statusText, width).slice(0, 3) : [' ']
  const bodyHeight = Math.max(1, pageHeight(s) - (status.length - 1))

  const body: Screen['body'] = []
  const visible = visibleRows(s)
  if (mode === 'help') {
    for (const line of HELP_LINES) body.push({text: clip(line, width)})
  } else if (detail && (mode === 'detail' || mode === 'prompt' || mode === 'confirm')) {
    const lines = detailLines(detail.memory, detail.history, width)
    for (const line of lines.slice(detail.scroll, detail.scroll + bodyHeight)) body.push({text: clip(line, width)})
  } else if (list.loaded && visible.length === 0) {
    if (s.filter) body.push({text: `Nothing on screen matches "${clip(s.filter, 40)}". Esc clears the filter (f).`})
    else if (list.query) body.push({text: `No memories match "${clip(list.query, 40)}".`})
    else if (s.type) body.push({text: `No ${s.type} memories. Press t to change the type.`})
    else body.push({text: 'No memories yet. Store one with `mem store "…" --type observation`.'})
  } else {
    const at = selectedIndex(s)
    const offset = Math.floor(at / bodyHeight) * bodyHeight
    visible.slice(offset, offset + bodyHeight).forEach((row, i) => {
      const isSel = offset + i === at
      body.push({text: `${isSel ? '>' : ' '} ${rowLine(row, width - 2)}`, selected: isSel})
    })
  }
  while (body.length < bodyHeight) body.push({text: ''})

  const bar = mode === 'search' || mode === 'filter' ? 'input' : mode
  return {
    header: headerLine(s),
    input: clip(input, width),
    asking: mode === 'prompt' || mode === 'confirm',
    body: body.slice(0, bodyHeight),
    status,
    statusError: Boolean(s.status?.error),
    keys: keysBar(bar, width),
  }
}
