/**
 * The terminal browser (`mem browse` on a terminal): an Ink app over the core operations it is
 * handed a context for. It searches through recall (debounced, as you type), filters what is on
 * screen with fuse.js, pages through browse, shows get + history in a detail pane, and acts on
 * the selected memory (forget, tags, importance, content in $EDITOR, feedback, copy the id).
 */
import {Box, Text, useApp, useInput, useStdout, type Key} from 'ink'
import {useCallback, useEffect, useRef, useState} from 'react'
import {browse, type BrowseResult} from '../../operations/browse.js'
import {edit} from '../../operations/edit.js'
import {feedback} from '../../operations/feedback.js'
import {forget} from '../../operations/forget.js'
import {get} from '../../operations/get.js'
import {history, type HistoryResult} from '../../operations/history.js'
import type {MemContext} from '../../engines/context.js'
import {prepareRecall, recall} from '../../operations/recall.js'
import {MemError} from '../../model/errors.js'
import type {Memory, MemoryType} from '../../model/memory.js'
import {listHeight as listHeightFor} from './layout.js'
import {
  clip,
  detailLines,
  filterRows,
  HELP_LINES,
  keysBar,
  nextType,
  oneLine,
  parseImportance,
  parseTags,
  rowLine,
  toRow,
  wrap,
  type Row,
} from './view.js'

export interface BrowserProps {
  ctx: MemContext
  /** Repository path or id. */
  repo: string
  type?: MemoryType
  skip?: number
  /**
   * Hands the terminal to the user's editor with `text`; returns the saved text, or null when
   * nothing was saved. Absent: the `e` key says no editor is available.
   */
  editText?: (text: string) => string | null
  /** Puts text on the terminal's clipboard (the id is always shown as well). */
  copy?: (text: string) => void
  /** Re-reads the page this often (ms) to show writes from other processes; 0 = only on `r`. */
  refreshMs?: number
  /** Search-as-you-type waits this long after the last key (ms). */
  debounceMs?: number
  /** False under NO_COLOR: no colours at all (layout and markers carry the meaning). */
  color?: boolean
  /** Fixed size (tests); otherwise the terminal's, following resizes. */
  columns?: number
  rows?: number
  /** Results a search shows (recall limit). */
  searchLimit?: number
  /** Builds the search index after the first page is shown (default true). */
  warmSearch?: boolean
  /** The first page, already loading (used when its size matches the screen's). */
  firstPage?: {take: number; page: Promise<BrowseResult>}
}

type Mode = 'list' | 'search' | 'filter' | 'detail' | 'prompt' | 'confirm' | 'help'
type PromptKind = 'reason' | 'tags' | 'importance'
interface Prompt {
  kind: PromptKind
  id: string
  value: string
}
interface Status {
  text: string
  error?: boolean
}
interface Detail {
  memory: Memory
  history: HistoryResult | null
}

const PROMPT_LABEL: Record<PromptKind, string> = {
  reason: 'Forget: reason (optional)',
  tags: 'Tags (comma separated)',
  importance: 'Importance (0.0 to 1.0)',
}

function describe(err: unknown): string {
  if (err instanceof MemError) return `${err.message}${err.hint ? ` ${err.hint}` : ''}`
  return `Unexpected error: ${(err as Error)?.message ?? String(err)}`
}

/** Applies a key to a one-line text field; undefined when the key is not an edit. */
function editField(value: string, input: string, key: Key): string | undefined {
  if (key.backspace || key.delete) return [...value].slice(0, -1).join('')
  if (key.ctrl && input === 'u') return ''
  if (key.ctrl || key.meta || key.escape || key.return || key.tab) return undefined
  if (key.upArrow || key.downArrow || key.leftArrow || key.rightArrow || key.pageDown || key.pageUp) return undefined
  const printable = input.replace(/[\u0000-\u001f\u007f]/g, '')
  return printable ? value + printable : undefined
}

/**
 * State whose latest value the key handler can read at once: keys read in one go reach the
 * handler before React re-renders, and must see what the previous key changed.
 */
function useLive<T>(initial: T) {
  const [value, setValue] = useState(initial)
  const ref = useRef(value)
  const set = useCallback((next: T | ((prev: T) => T)) => {
    const v = typeof next === 'function' ? (next as (prev: T) => T)(ref.current) : next
    ref.current = v
    setValue(v)
  }, [])
  return [value, set, ref] as const
}

function useTerminalSize(fixed: {columns?: number; rows?: number}) {
  const {stdout} = useStdout()
  const read = () => ({columns: fixed.columns ?? (stdout.columns || 80), rows: fixed.rows ?? (stdout.rows || 24)})
  const [size, setSize] = useState(read)
  useEffect(() => {
    const onResize = () => setSize(read())
    stdout.on('resize', onResize)
    return () => {
      stdout.off('resize', onResize)
    }
  }, [stdout, fixed.columns, fixed.rows])
  return size
}

export function Browser(props: BrowserProps) {
  const {ctx, repo, editText, copy, refreshMs = 3000, debounceMs = 150, color = true, searchLimit = 50, warmSearch = true} = props
  const {exit} = useApp()
  const {columns, rows: termRows} = useTerminalSize({columns: props.columns, rows: props.rows})
  const listHeight = listHeightFor(termRows)

  const [mode, setMode, modeR] = useLive<Mode>('list')
  const [type, setType, typeR] = useLive<MemoryType | undefined>(props.type)
  const [skip, setSkip, skipR] = useLive(props.skip ?? 0)
  const [input, setInput, inputR] = useLive('') // the search text as typed
  const [query, setQuery, queryR] = useLive('') // the search text recalled (debounced)
  const [filter, setFilter, filterR] = useLive('')
  const [rows, setRows, rowsR] = useLive<Row[]>([])
  const [count, setCount, countR] = useLive(0)
  /** The skip of the rows on screen (`skip` moves first, the rows follow when loaded). */
  const [shownSkip, setShownSkip] = useState(0)
  /** The search whose results are on screen ('' = browsing). */
  const [shownQuery, setShownQuery] = useState('')
  const [repoId, setRepoId] = useState('')
  const [loaded, setLoaded] = useState(false)
  const [shownType, setShownType] = useState<MemoryType | undefined>(props.type)
  const [cursor, setCursor, cursorR] = useLive(0)
  const [reload, setReload] = useState(0)
  const [detail, setDetail, detailR] = useLive<Detail | null>(null)
  const [detailScroll, setDetailScroll, detailScrollR] = useLive(0)
  const [prompt, setPrompt, promptR] = useLive<Prompt | null>(null)
  const [confirm, setConfirm, confirmR] = useLive<{id: string; reason: string; label: string} | null>(null)
  const [status, setStatus] = useState<Status | null>(null)
  const [busy, setBusy, busyR] = useLive(false)
  const seq = useRef(0)
  const loadedRef = useRef(false)

  // --- loading -----------------------------------------------------------------------------
  useEffect(() => {
    const mine = ++seq.current
    const run = async () => {
      if (query) {
        const r = await recall(ctx, {repo, q: query, limit: searchLimit, type})
        return {rows: r.results.map(toRow), count: r.results.length, repo: undefined as string | undefined}
      }
      const first = props.firstPage
      const page =
        first && !loadedRef.current && first.take === listHeight && skip === (props.skip ?? 0) && type === props.type
          ? await first.page
          : await browse(ctx, {repo, skip, take: listHeight, type})
      return {rows: page.entries.map(toRow), count: page.count, repo: page.repo}
    }
    run().then(
      (r) => {
        if (mine !== seq.current) return
        if (!query && r.rows.length === 0 && skip > 0 && r.count > 0) {
          // the page emptied under us (forgotten elsewhere): go to the last page
          setSkip(Math.max(0, Math.floor((r.count - 1) / listHeight) * listHeight))
          return
        }
        // a refresh that finds nothing new keeps the same rows (no redraw, the filter is kept)
        if (JSON.stringify(r.rows) !== JSON.stringify(rowsR.current)) setRows(r.rows)
        setCount(r.count)
        setShownType(type)
        setShownSkip(query ? 0 : skip)
        setShownQuery(query)
        if (r.repo) setRepoId(r.repo)
        setLoaded(true)
        loadedRef.current = true
      },
      (err) => {
        if (mine !== seq.current) return
        setLoaded(true)
        loadedRef.current = true
        // nothing more is coming for this request: no "loading" mark
        setShownSkip(query ? 0 : skip)
        setShownQuery(query)
        setShownType(type)
        setStatus({text: describe(err), error: true})
      },
    )
  }, [ctx, repo, query, type, skip, listHeight, reload, searchLimit])

  // the first search would build the in-process index; build it while the first page is read
  useEffect(() => {
    if (!loaded || !warmSearch) return
    const timer = setTimeout(() => void prepareRecall(ctx, {repo}).catch(() => undefined), 100)
    return () => clearTimeout(timer)
  }, [loaded, warmSearch, ctx, repo])

  // search as you type: recall after a pause
  useEffect(() => {
    const q = input.trim()
    if (q === query) return
    const timer = setTimeout(() => {
      setQuery(q)
      setCursor(0)
    }, q === '' ? 0 : debounceMs)
    return () => clearTimeout(timer)
  }, [input, query, debounceMs])

  // writes from other processes show up on the next read (the store replays its journal)
  useEffect(() => {
    if (!refreshMs) return
    const timer = setInterval(() => {
      // a search is not re-run on a timer: each recall counts as an access of its results
      if (!query) setReload((n) => n + 1)
    }, refreshMs)
    timer.unref?.()
    return () => clearInterval(timer)
  }, [refreshMs, query])

  const filtered = useRef<{rows: Row[]; filter: string; visible: Row[]} | null>(null)
  /** The rows on screen after the filter (computed once per rows and filter). */
  const visibleOf = (all: Row[], text: string): Row[] => {
    const c = filtered.current
    if (c && c.rows === all && c.filter === text) return c.visible
    filtered.current = {rows: all, filter: text, visible: filterRows(all, text)}
    return filtered.current.visible
  }
  const visible = visibleOf(rows, filter)
  const at = Math.min(cursor, Math.max(0, visible.length - 1))
  const selected: Row | undefined = visible[at]


  const openDetail = useCallback(
    async (id: string, keepScroll = false) => {
      try {
        const memory = await get(ctx, {id, repo})
        const hist = await history(ctx, {id, repo}).catch(() => null)
        setDetail({memory, history: hist})
        if (!keepScroll) setDetailScroll(0)
        setMode('detail')
      } catch (err) {
        setStatus({text: describe(err), error: true})
      }
    },
    [ctx, repo],
  )

  const act = useCallback(
    async (work: () => Promise<{text: string; error?: boolean; openId?: string | null}>) => {
      setBusy(true)
      try {
        const outcome = await work()
        setStatus({text: outcome.text, error: outcome.error})
        setReload((n) => n + 1)
        if (outcome.openId === null) {
          setDetail(null)
          setMode('list')
        } else if (outcome.openId) await openDetail(outcome.openId, true)
      } catch (err) {
        setStatus({text: describe(err), error: true})
      } finally {
        setBusy(false)
      }
    },
    [openDetail],
  )

  // Ink re-subscribes a new handler only after the render's effects run; keys that arrive in
  // between must not see the previous screen's state, so the subscription reads the latest one.
  const onKey = useRef<(text: string, key: Key) => void>(() => undefined)
  useInput((text, key) => onKey.current(text, key))
  onKey.current = (text, key) => {
    // the latest values, not this render's: see useLive
    const mode = modeR.current
    const type = typeR.current
    const skip = skipR.current
    const input = inputR.current
    const query = queryR.current
    const filter = filterR.current
    const count = countR.current
    const detail = detailR.current
    const detailScroll = detailScrollR.current
    const prompt = promptR.current
    const confirm = confirmR.current
    const visible = visibleOf(rowsR.current, filter)
    const at = Math.min(cursorR.current, Math.max(0, visible.length - 1))
    const selected: Row | undefined = visible[at]

    const refresh = () => {
      setReload((n) => n + 1)
      if (mode === 'detail' && detail) void openDetail(detail.memory.id, true)
    }
    const target = mode === 'detail' && detail ? detail.memory : selected
    // prompts opened from the detail pane return to it (leaving the pane drops `detail`)
    const returnMode = (): Mode => (detail ? 'detail' : 'list')

    const startAction = (inputKey: string): boolean => {
      if (!target) {
        if ('ed#i+-y'.includes(inputKey)) setStatus({text: 'Nothing selected.', error: true})
        return 'ed#i+-y'.includes(inputKey)
      }
      const id = target.id
      const inDetail = mode === 'detail'
      switch (inputKey) {
        case 'd':
          setPrompt({kind: 'reason', id, value: ''})
          setMode('prompt')
          return true
        case '#':
          setPrompt({kind: 'tags', id, value: target.tags.join(', ')})
          setMode('prompt')
          return true
        case 'i':
          setPrompt({kind: 'importance', id, value: String(target.importance)})
          setMode('prompt')
          return true
        case '+':
        case '-': {
          const used = inputKey === '+'
          void act(async () => {
            const r = await feedback(ctx, {memoryId: id, wasUsed: used, repo})
            return r.applied
              ? {text: `Recorded: ${used ? 'used' : 'not used'}.`, openId: inDetail ? id : undefined}
              : {text: 'Not recorded: the memory is forgotten or superseded.', error: true}
          })
          return true
        }
        case 'y':
          copy?.(id)
          setStatus({text: `${copy ? 'Copied ' : 'Id: '}${id}`})
          return true
        case 'e': {
          if (!editText) {
            setStatus({text: 'No editor: set $VISUAL or $EDITOR.', error: true})
            return true
          }
          void act(async () => {
            const m = await get(ctx, {id, repo})
            const saved = editText(m.content)
            if (saved === null || saved.trim() === '' || saved.trim() === m.content.trim()) {
              return {text: saved !== null && saved.trim() === '' ? 'Empty text: nothing saved.' : 'No change: nothing saved.', openId: inDetail ? id : undefined}
            }
            const r = await edit(ctx, {id, repo, content: saved.replace(/\n+$/, '')})
            if (!r.success) {
              const why = 'duplicateId' in r ? `it duplicates ${r.duplicateId}` : r.reason
              return {text: `Not saved: ${why}.`, error: true, openId: inDetail ? id : undefined}
            }
            return {text: `Saved a new version ${r.id}.`, openId: inDetail ? r.id : undefined}
          })
          return true
        }
        default:
          return false
      }
    }

    const submitPrompt = (p: Prompt) => {
      const inDetail = returnMode() === 'detail'
      if (p.kind === 'reason') {
        const label = clip(oneLine(target?.id === p.id ? (target.oneLiner ?? target.content) : p.id), 40)
        setConfirm({id: p.id, reason: p.value.trim(), label})
        setPrompt(null)
        setMode('confirm')
        return
      }
      if (p.kind === 'tags') {
        const parsed = parseTags(p.value)
        if ('error' in parsed) return setStatus({text: parsed.error, error: true})
        setPrompt(null)
        setMode(returnMode())
        void act(async () => {
          await edit(ctx, {id: p.id, repo, tags: parsed.tags})
          return {text: `Tags: ${parsed.tags.length ? parsed.tags.join(', ') : '(none)'}.`, openId: inDetail ? p.id : undefined}
        })
        return
      }
      const parsed = parseImportance(p.value)
      if ('error' in parsed) return setStatus({text: parsed.error, error: true})
      setPrompt(null)
      setMode(returnMode())
      void act(async () => {
        await edit(ctx, {id: p.id, repo, importance: parsed.importance})
        return {text: `Importance: ${parsed.importance}.`, openId: inDetail ? p.id : undefined}
      })
    }

    const pageStep = (dir: 1 | -1) => {
      if (query || filter) {
        setCursor(Math.max(0, Math.min(visible.length - 1, at + dir * listHeight)))
        return
      }
      const nextSkip = skip + dir * listHeight
      if (nextSkip < 0 || nextSkip >= count) {
        setStatus({text: dir > 0 ? 'Last page.' : 'First page.'})
        return
      }
      setSkip(nextSkip)
      setCursor(0)
    }

    if (mode === 'help') {
      if (text === 'q') exit()
      else setMode('list')
      return
    }
    if (mode === 'confirm' && confirm) {
      const c = confirm
      setConfirm(null)
      setMode(returnMode())
      if (text === 'y' || text === 'Y') {
        void act(async () => {
          const r = await forget(ctx, {id: c.id, repo, reason: c.reason || undefined})
          return {text: r.forgotten ? `Forgot ${c.id}.` : `${c.id} was already forgotten.`, openId: detail ? null : undefined}
        })
      } else setStatus({text: 'Forget cancelled: nothing changed.'})
      return
    }
    if (mode === 'prompt' && prompt) {
      if (key.escape) {
        setPrompt(null)
        setMode(returnMode())
        setStatus({text: 'Cancelled: nothing changed.'})
      } else if (key.return) submitPrompt(prompt)
      else {
        const value = editField(prompt.value, text, key)
        if (value !== undefined) setPrompt({...prompt, value})
      }
      return
    }
    if (mode === 'search' || mode === 'filter') {
      if (key.escape) {
        if (mode === 'search') {
          setInput('')
          setQuery('')
        } else setFilter('')
        setCursor(0)
        setMode('list')
      } else if (key.return) setMode('list')
      else if (key.upArrow) setCursor(Math.max(0, at - 1))
      else if (key.downArrow) setCursor(Math.min(Math.max(0, visible.length - 1), at + 1))
      else {
        const value = editField(mode === 'search' ? input : filter, text, key)
        if (value === undefined) return
        setCursor(0)
        if (mode === 'search') setInput(value)
        else setFilter(value)
      }
      return
    }
    if (busyR.current) return
    if (mode === 'detail') {
      const total = detail ? detailLines(detail.memory, detail.history, columns - 1).length : 0
      const maxScroll = Math.max(0, total - listHeight)
      if (text === 'q') exit()
      else if (key.escape || key.leftArrow || key.backspace || key.delete) {
        setDetail(null)
        setMode('list')
      } else if (key.upArrow || text === 'k') setDetailScroll(Math.max(0, detailScroll - 1))
      else if (key.downArrow || text === 'j') setDetailScroll(Math.min(maxScroll, detailScroll + 1))
      else if (key.pageDown || text === ' ') setDetailScroll(Math.min(maxScroll, detailScroll + listHeight))
      else if (key.pageUp) setDetailScroll(Math.max(0, detailScroll - listHeight))
      else if (text === 'r') refresh()
      else startAction(text)
      return
    }
    // list
    if (text === 'q' || key.escape) exit()
    else if (key.upArrow || text === 'k') setCursor(Math.max(0, at - 1))
    else if (key.downArrow || text === 'j') setCursor(Math.min(Math.max(0, visible.length - 1), at + 1))
    else if (key.pageDown || key.rightArrow || text === 'n') pageStep(1)
    else if (key.pageUp || key.leftArrow || text === 'p') pageStep(-1)
    else if (key.return) {
      if (selected) void openDetail(selected.id)
    } else if (text === '/') {
      setMode('search')
      setStatus(null)
    } else if (text === 'f') {
      setMode('filter')
      setStatus(null)
    } else if (text === 't') {
      setType(nextType(type))
      setSkip(0)
      setCursor(0)
    } else if (text === 'r') refresh()
    else if (text === '?') setMode('help')
    else startAction(text)
  }

  // --- rendering ---------------------------------------------------------------------------
  const width = Math.max(20, columns - 1)
  const typeLabel = type ?? 'all'
  let position: string
  if (!loaded) position = 'loading…'
  else if (shownQuery) position = `search "${clip(shownQuery, 24)}": ${count} result${count === 1 ? '' : 's'}`
  else if (count === 0) position = '0 memories'
  else position = `${shownSkip + 1}–${Math.min(count, shownSkip + rows.length)} of ${count}`
  if (filter) position += ` · filter "${clip(filter, 16)}": ${visible.length} shown`
  // what was asked for is not on screen yet
  const pending = loaded && (query !== shownQuery || type !== shownType || (!query && skip !== shownSkip))
  // the repo id comes last: it is long, and what changes must stay visible on a narrow screen
  const header = clip(`mem browse · ${position}${pending ? ' …' : ''} · type: ${typeLabel} · ${repoId || repo}`, width)

  let inputLine: string
  if (mode === 'search') inputLine = `/ ${input}█`
  else if (mode === 'filter') inputLine = `f ${filter}█`
  else if (mode === 'prompt' && prompt) inputLine = `${PROMPT_LABEL[prompt.kind]}: ${prompt.value}█`
  else if (mode === 'confirm' && confirm) inputLine = `Forget "${confirm.label}"${confirm.reason ? ` (${confirm.reason})` : ''}? y/N`
  else if (query) inputLine = `/ ${query}`
  else inputLine = '/ to search · f to filter · ? for keys'

  // a long status (an id, an error with its hint) takes up to three lines from the list
  const statusText = status ? (status.error ? `! ${status.text}` : status.text) : busy ? 'working…' : ''
  const statusLines = statusText ? wrap(statusText, width).slice(0, 3) : [' ']
  const bodyHeight = Math.max(1, listHeight - (statusLines.length - 1))

  const body: Array<{text: string; selected?: boolean}> = []
  if (mode === 'help') {
    for (const line of HELP_LINES) body.push({text: clip(line, width)})
  } else if (detail && (mode === 'detail' || mode === 'prompt' || mode === 'confirm')) {
    const lines = detailLines(detail.memory, detail.history, width)
    for (const line of lines.slice(detailScroll, detailScroll + bodyHeight)) body.push({text: clip(line, width)})
  } else if (loaded && visible.length === 0) {
    if (filter) body.push({text: `Nothing on screen matches "${clip(filter, 40)}". Esc clears the filter (f).`})
    else if (shownQuery) body.push({text: `No memories match "${clip(shownQuery, 40)}".`})
    else if (type) body.push({text: `No ${type} memories. Press t to change the type.`})
    else body.push({text: 'No memories yet. Store one with `mem store "…" --type observation`.'})
  } else {
    const offset = Math.floor(at / bodyHeight) * bodyHeight
    visible.slice(offset, offset + bodyHeight).forEach((row, i) => {
      const isSel = offset + i === at
      body.push({text: `${isSel ? '>' : ' '} ${rowLine(row, width - 2)}`, selected: isSel})
    })
  }
  while (body.length < bodyHeight) body.push({text: ''})

  const barMode = mode === 'search' || mode === 'filter' ? 'input' : mode === 'prompt' ? 'prompt' : mode
  return (
    <Box flexDirection="column" width={columns}>
      <Text bold wrap="truncate">
        {header}
      </Text>
      <Text wrap="truncate" color={color && (mode === 'prompt' || mode === 'confirm') ? 'yellow' : undefined}>
        {clip(inputLine, width)}
      </Text>
      {body.slice(0, bodyHeight).map((line, i) => (
        <Text key={i} wrap="truncate" inverse={line.selected && color}>
          {line.text || ' '}
        </Text>
      ))}
      {statusLines.map((line, i) => (
        <Text key={`s${i}`} wrap="truncate" color={color && status?.error ? 'red' : undefined}>
          {line}
        </Text>
      ))}
      <Text wrap="truncate" dimColor={color}>
        {keysBar(barMode, width)}
      </Text>
    </Box>
  )
}
