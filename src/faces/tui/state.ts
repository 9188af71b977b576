/**
 * The terminal browser as data: its whole state in one plain object, the actions that change it
 * and a pure `reduce(state, action)` that returns the next state and the effects to run (reads,
 * writes, the editor, the clipboard, timers). effects.ts runs those and dispatches their results
 * back as actions; keys.ts maps keys to actions; screen.ts turns a state into lines. No ink, no
 * React, no I/O here: every transition is testable as a function.
 */
import type {HistoryResult} from '../../operations/history.js'
import type {EditResult} from '../../operations/edit.js'
import type {Memory, MemoryType} from '../../model/memory.js'
import {listHeight} from './layout.js'
import {clip, detailLines, filterRows, nextType, oneLine, parseImportance, parseTags, type Row} from './view.js'

export type Mode = 'list' | 'search' | 'filter' | 'detail' | 'prompt' | 'confirm' | 'help'
export type PromptKind = 'reason' | 'tags' | 'importance'

export interface Prompt {
  kind: PromptKind
  id: string
  value: string
}

export interface Confirm {
  id: string
  reason: string
  /** The memory as the question names it (its one-liner, clipped). */
  label: string
}

export interface Status {
  text: string
  error?: boolean
}

/** What the browser was started with; fixed for its life. */
export interface BrowserConfig {
  repo: string
  type?: MemoryType
  skip: number
  /** Results a search shows (recall limit). */
  searchLimit: number
  /** Search-as-you-type waits this long after the last key (ms). */
  debounceMs: number
  /** Re-reads the page this often (ms) to show writes from other processes; 0 = only on `r`. */
  refreshMs: number
  /** Builds the search index after the first page is shown. */
  warmSearch: boolean
  /** An editor was handed in (`e` says so when not). */
  canEdit: boolean
  /** A clipboard was handed in (`y` then says "Copied", else "Id:"). */
  canCopy: boolean
  /** The size of the first page the command is already reading, if any. */
  firstPageTake?: number
}

export interface BrowserState {
  config: BrowserConfig
  size: {columns: number; rows: number}
  mode: Mode
  // what is asked for
  type?: MemoryType
  skip: number
  /** The search text as typed. */
  input: string
  /** The search text recalled (follows `input` after the debounce); '' = browsing. */
  query: string
  filter: string
  // what is on screen: the answer of the last load (it lags behind what is asked for)
  list: {
    rows: Row[]
    /** The store's count for a page; the number of results for a search. */
    count: number
    skip: number
    query: string
    type?: MemoryType
    repoId: string
    loaded: boolean
  }
  cursor: number
  detail: {memory: Memory; history: HistoryResult | null; scroll: number} | null
  prompt: Prompt | null
  confirm: Confirm | null
  status: Status | null
  /** A change is being written: the list and the detail pane ignore keys until it is done. */
  busy: boolean
  /** The newest load asked for: answers to older ones are dropped. */
  loadSeq: number
}

/** What a change to a memory set (edit). */
export type EditSet = {tags: string[]} | {importance: number} | {content: string}

/** Timers the browser keeps: scheduling one again replaces the pending one. */
export type TimerKey = 'search' | 'poll' | 'warm'

export type Effect =
  | {type: 'browse'; seq: number; skip: number; take: number; memType?: MemoryType; first: boolean}
  | {type: 'recall'; seq: number; q: string; limit: number; memType?: MemoryType}
  /** get + history for the detail pane. */
  | {type: 'open'; id: string; keepScroll: boolean}
  | {type: 'forget'; id: string; reason?: string; fromDetail: boolean}
  | {type: 'edit'; id: string; set: EditSet; inDetail: boolean}
  | {type: 'feedback'; id: string; used: boolean; inDetail: boolean}
  /** get the content, then hand the terminal to the editor with it. */
  | {type: 'editText'; id: string; inDetail: boolean}
  | {type: 'copy'; text: string}
  | {type: 'prepareRecall'}
  /** Dispatches `action` after `ms`, replacing a pending timer of the same key. */
  | {type: 'later'; key: TimerKey; ms: number; action: Action}
  | {type: 'cancel'; key: TimerKey}
  | {type: 'exit'}

export type Action =
  // from keys (keys.ts)
  | {type: 'quit'}
  | {type: 'move'; by: 1 | -1}
  | {type: 'page'; dir: 1 | -1}
  | {type: 'scroll'; by: 1 | -1; unit: 'line' | 'page'}
  | {type: 'open'}
  | {type: 'closeDetail'}
  | {type: 'startSearch'}
  | {type: 'startFilter'}
  /** ⏎ in the search or filter field: keep what was typed, back to keys. */
  | {type: 'keepField'}
  | {type: 'clearSearch'}
  | {type: 'clearFilter'}
  | {type: 'cycleType'}
  | {type: 'refresh'}
  | {type: 'help'}
  | {type: 'closeHelp'}
  /** Text typed into the field of the mode (search, filter, prompt). */
  | {type: 'type'; text: string}
  | {type: 'erase'}
  | {type: 'eraseAll'}
  | {type: 'ask'; what: PromptKind}
  | {type: 'feedback'; used: boolean}
  | {type: 'copy'}
  | {type: 'editContent'}
  | {type: 'submit'}
  | {type: 'cancel'}
  | {type: 'confirmForget'}
  | {type: 'cancelForget'}
  // from the terminal and the timers
  | {type: 'resize'; columns: number; rows: number}
  | {type: 'searchDue'; q: string}
  | {type: 'tick'}
  | {type: 'warm'}
  // results of effects (effects.ts)
  | {type: 'loaded'; seq: number; query: string; skip: number; memType?: MemoryType; rows: Row[]; count: number; repoId?: string}
  | {type: 'loadFailed'; seq: number; query: string; skip: number; memType?: MemoryType; error: string}
  | {type: 'opened'; memory: Memory; history: HistoryResult | null; keepScroll: boolean}
  | {type: 'openFailed'; error: string}
  | {type: 'forgotten'; id: string; forgotten: boolean; fromDetail: boolean}
  | {type: 'edited'; id: string; set: EditSet; inDetail: boolean; result: EditResult}
  | {type: 'textEdited'; id: string; before: string; after: string | null; inDetail: boolean}
  | {type: 'feedbackDone'; id: string; used: boolean; applied: boolean; inDetail: boolean}
  | {type: 'changeFailed'; error: string}

export interface Step {
  state: BrowserState
  effects: Effect[]
}

/** The state the browser starts in, and the effects that start it (the first load, the poll). */
export function init(config: BrowserConfig, size: {columns: number; rows: number}): Step {
  const state: BrowserState = {
    config,
    size,
    mode: 'list',
    type: config.type,
    skip: config.skip,
    input: '',
    query: '',
    filter: '',
    list: {rows: [], count: 0, skip: 0, query: '', type: config.type, repoId: '', loaded: false},
    cursor: 0,
    detail: null,
    prompt: null,
    confirm: null,
    status: null,
    busy: false,
    loadSeq: 0,
  }
  const effects: Effect[] = []
  if (config.refreshMs > 0) effects.push(poll(config))
  return withLoad(state, effects)
}

// --- derived values (pure; the screen and the key tables read them too) ----------------------

export function pageHeight(s: BrowserState): number {
  return listHeight(s.size.rows)
}

/** Screen columns the text may use (one short of the edge). */
export function textWidth(s: BrowserState): number {
  return Math.max(20, s.size.columns - 1)
}

const filtered = new WeakMap<Row[], {filter: string; visible: Row[]}>()
/** The rows on screen after the filter (fuse.js runs once per rows and filter, not per key). */
export function visibleRows(s: BrowserState): Row[] {
  if (!s.filter.trim()) return s.list.rows
  const hit = filtered.get(s.list.rows)
  if (hit && hit.filter === s.filter) return hit.visible
  const visible = filterRows(s.list.rows, s.filter)
  filtered.set(s.list.rows, {filter: s.filter, visible})
  return visible
}

/** The index of the selection in the visible rows (the cursor, clamped to them). */
export function selectedIndex(s: BrowserState): number {
  return Math.min(s.cursor, Math.max(0, visibleRows(s).length - 1))
}

export function selectedRow(s: BrowserState): Row | undefined {
  return visibleRows(s)[selectedIndex(s)]
}

/** A search is on: typed, or recalled and on screen. Esc in the list clears it before quitting. */
export function searching(s: BrowserState): boolean {
  return s.query !== '' || s.input.trim() !== ''
}

/** What was asked for is not on screen yet. */
export function pending(s: BrowserState): boolean {
  const l = s.list
  return l.loaded && (s.query !== l.query || s.type !== l.type || (!s.query && s.skip !== l.skip))
}

/** The memory an action key acts on: the open one in the detail pane, else the selection. */
function target(s: BrowserState): {id: string; tags: string[]; importance: number} | undefined {
  return s.mode === 'detail' && s.detail ? s.detail.memory : selectedRow(s)
}

/** Prompts and the forget question opened from the detail pane return to it. */
function back(s: BrowserState): Mode {
  return s.detail ? 'detail' : 'list'
}

// --- the reducer -----------------------------------------------------------------------------

/**
 * What a load depends on. Whenever it changes a new load is asked for, as the old component's
 * effect did on its dependencies; `reload` asks again for the same thing.
 */
function loadKey(s: BrowserState): string {
  return JSON.stringify([s.query, s.type ?? '', s.skip, pageHeight(s)])
}

function withLoad(s: BrowserState, effects: Effect[]): Step {
  const seq = s.loadSeq + 1
  const take = pageHeight(s)
  const load: Effect = s.query
    ? {type: 'recall', seq, q: s.query, limit: s.config.searchLimit, memType: s.type}
    : {
        type: 'browse',
        seq,
        skip: s.skip,
        take,
        memType: s.type,
        // the page the command read while ink loaded is this one only if it is the screen's
        first: !s.list.loaded && s.config.firstPageTake === take && s.skip === s.config.skip && s.type === s.config.type,
      }
  return {state: {...s, loadSeq: seq}, effects: [...effects, load]}
}

function poll(config: BrowserConfig): Effect {
  return {type: 'later', key: 'poll', ms: config.refreshMs, action: {type: 'tick'}}
}

interface Transition {
  state: BrowserState
  effects?: Effect[]
  /** Read the list again even though nothing it depends on changed. */
  reload?: boolean
}

export function reduce(s: BrowserState, a: Action): Step {
  const t = transition(s, a)
  const effects = t.effects ?? []
  if (t.reload || loadKey(t.state) !== loadKey(s)) return withLoad(t.state, effects)
  return {state: t.state, effects}
}

const same = (s: BrowserState): Transition => ({state: s})
const say = (s: BrowserState, text: string, error = false): Transition => ({state: {...s, status: error ? {text, error} : {text}}})

function transition(s: BrowserState, a: Action): Transition {
  switch (a.type) {
    case 'quit':
      return {state: s, effects: [{type: 'exit'}]}

    case 'move': {
      const last = Math.max(0, visibleRows(s).length - 1)
      return {state: {...s, cursor: Math.max(0, Math.min(last, selectedIndex(s) + a.by))}}
    }

    case 'page': {
      const height = pageHeight(s)
      if (s.query || s.filter) {
        // a search or a filter is one list: a page is a jump of the selection
        const last = Math.max(0, visibleRows(s).length - 1)
        return {state: {...s, cursor: Math.max(0, Math.min(last, selectedIndex(s) + a.dir * height))}}
      }
      const skip = s.skip + a.dir * height
      if (skip < 0 || skip >= s.list.count) return say(s, a.dir > 0 ? 'Last page.' : 'First page.')
      return {state: {...s, skip, cursor: 0}}
    }

    case 'scroll': {
      if (!s.detail) return same(s)
      const height = pageHeight(s)
      const max = Math.max(0, detailLines(s.detail.memory, s.detail.history, textWidth(s)).length - height)
      const by = a.unit === 'page' ? a.by * height : a.by
      return {state: {...s, detail: {...s.detail, scroll: Math.max(0, Math.min(max, s.detail.scroll + by))}}}
    }

    case 'open': {
      const row = selectedRow(s)
      return row ? {state: s, effects: [{type: 'open', id: row.id, keepScroll: false}]} : same(s)
    }

    case 'closeDetail':
      return {state: {...s, detail: null, mode: 'list'}}

    case 'startSearch':
      return {state: {...s, mode: 'search', status: null}}

    case 'startFilter':
      return {state: {...s, mode: 'filter', status: null}}

    case 'keepField':
      return {state: {...s, mode: 'list'}}

    case 'clearSearch':
      return {state: {...s, input: '', query: '', cursor: 0, mode: 'list'}, effects: [{type: 'cancel', key: 'search'}]}

    case 'clearFilter':
      return {state: {...s, filter: '', cursor: 0, mode: 'list'}}

    case 'cycleType':
      return {state: {...s, type: nextType(s.type), skip: 0, cursor: 0}}

    case 'refresh':
      return {
        state: s,
        reload: true,
        effects: s.mode === 'detail' && s.detail ? [{type: 'open', id: s.detail.memory.id, keepScroll: true}] : [],
      }

    case 'help':
      return {state: {...s, mode: 'help'}}

    case 'closeHelp':
      return {state: {...s, mode: 'list'}}

    case 'type':
    case 'erase':
    case 'eraseAll':
      return editField(s, a)

    case 'ask': {
      const m = target(s)
      if (!m) return say(s, 'Nothing selected.', true)
      const value = a.what === 'tags' ? m.tags.join(', ') : a.what === 'importance' ? String(m.importance) : ''
      return {state: {...s, prompt: {kind: a.what, id: m.id, value}, mode: 'prompt'}}
    }

    case 'feedback': {
      const m = target(s)
      if (!m) return say(s, 'Nothing selected.', true)
      return {state: {...s, busy: true}, effects: [{type: 'feedback', id: m.id, used: a.used, inDetail: s.mode === 'detail'}]}
    }

    case 'copy': {
      const m = target(s)
      if (!m) return say(s, 'Nothing selected.', true)
      const {state} = say(s, `${s.config.canCopy ? 'Copied ' : 'Id: '}${m.id}`)
      return {state, effects: s.config.canCopy ? [{type: 'copy', text: m.id}] : []}
    }

    case 'editContent': {
      const m = target(s)
      if (!m) return say(s, 'Nothing selected.', true)
      if (!s.config.canEdit) return say(s, 'No editor: set $VISUAL or $EDITOR.', true)
      return {state: {...s, busy: true}, effects: [{type: 'editText', id: m.id, inDetail: s.mode === 'detail'}]}
    }

    case 'submit':
      return submit(s)

    case 'cancel':
      return say({...s, prompt: null, mode: back(s)}, 'Cancelled: nothing changed.')

    case 'confirmForget': {
      const c = s.confirm
      if (!c) return same(s)
      return {
        state: {...s, confirm: null, mode: back(s), busy: true},
        effects: [{type: 'forget', id: c.id, reason: c.reason || undefined, fromDetail: s.detail !== null}],
      }
    }

    case 'cancelForget':
      return say({...s, confirm: null, mode: back(s)}, 'Forget cancelled: nothing changed.')

    case 'resize':
      if (a.columns === s.size.columns && a.rows === s.size.rows) return same(s)
      return {state: {...s, size: {columns: a.columns, rows: a.rows}}}

    case 'searchDue':
      // a timer left over from text typed since (or cleared) is not the search any more
      if (a.q !== s.input.trim() || a.q === s.query) return same(s)
      return {state: {...s, query: a.q, cursor: 0}}

    case 'tick':
      // a search is not re-run on a timer: each recall counts as an access of its results
      return {state: s, reload: s.query === '', effects: [poll(s.config)]}

    case 'warm':
      return {state: s, effects: [{type: 'prepareRecall'}]}

    case 'loaded': {
      if (a.seq !== s.loadSeq) return same(s)
      if (!a.query && a.rows.length === 0 && a.skip > 0 && a.count > 0) {
        // the page emptied under us (forgotten elsewhere): go to the last page
        const height = pageHeight(s)
        return {state: {...s, skip: Math.max(0, Math.floor((a.count - 1) / height) * height)}}
      }
      // a refresh that finds nothing new keeps the same rows (the filter's result is kept)
      const rows = JSON.stringify(a.rows) === JSON.stringify(s.list.rows) ? s.list.rows : a.rows
      const list = {rows, count: a.count, skip: a.query ? 0 : a.skip, query: a.query, type: a.memType, repoId: a.repoId || s.list.repoId, loaded: true}
      return {state: {...s, list}, effects: firstLoad(s)}
    }

    case 'loadFailed': {
      if (a.seq !== s.loadSeq) return same(s)
      // nothing more is coming for this request: no "loading" mark, the rows shown stay
      const list = {...s.list, skip: a.query ? 0 : a.skip, query: a.query, type: a.memType, loaded: true}
      return {state: {...s, list, status: {text: a.error, error: true}}, effects: firstLoad(s)}
    }

    case 'opened': {
      // a reopen after a change or `r` refreshes a pane under an open prompt without closing it;
      // a pane that opens after the user went on to a field or help is not forced on them
      if (s.mode === 'prompt' || s.mode === 'confirm') {
        return s.detail ? {state: {...s, detail: {memory: a.memory, history: a.history, scroll: s.detail.scroll}, busy: false}} : {state: {...s, busy: false}}
      }
      if (s.mode !== 'list' && s.mode !== 'detail') return {state: {...s, busy: false}}
      const scroll = a.keepScroll && s.detail ? s.detail.scroll : 0
      return {state: {...s, detail: {memory: a.memory, history: a.history, scroll}, mode: 'detail', busy: false}}
    }

    case 'openFailed':
      return {state: {...s, status: {text: a.error, error: true}, busy: false}}

    case 'changeFailed':
      // a change is refused mostly because the store changed under us (forgotten or superseded
      // elsewhere): read the list again so that it and its counts match the store
      return {state: {...s, status: {text: a.error, error: true}, busy: false}, reload: true}

    case 'forgotten':
      return changed(s, {text: a.forgotten ? `Forgot ${a.id}.` : `${a.id} was already forgotten.`}, a.fromDetail ? null : undefined)

    case 'edited': {
      const reopen = (id: string) => (a.inDetail ? id : undefined)
      if ('tags' in a.set) return changed(s, {text: `Tags: ${a.set.tags.length ? a.set.tags.join(', ') : '(none)'}.`}, reopen(a.id))
      if ('importance' in a.set) return changed(s, {text: `Importance: ${a.set.importance}.`}, reopen(a.id))
      const r = a.result
      if (r.success) return changed(s, {text: `Saved a new version ${r.id}.`}, reopen(r.id))
      const why = 'duplicateId' in r ? `it duplicates ${r.duplicateId}` : r.reason
      return changed(s, {text: `Not saved: ${why}.`, error: true}, reopen(a.id))
    }

    case 'textEdited': {
      const after = a.after
      if (after === null || after.trim() === '' || after.trim() === a.before.trim()) {
        const text = after !== null && after.trim() === '' ? 'Empty text: nothing saved.' : 'No change: nothing saved.'
        return changed(s, {text}, a.inDetail ? a.id : undefined)
      }
      // still busy: the new version is written next
      return {state: s, effects: [{type: 'edit', id: a.id, set: {content: after.replace(/(?<!\n)\n+$/, '')}, inDetail: a.inDetail}]}
    }

    case 'feedbackDone':
      return a.applied
        ? changed(s, {text: `Recorded: ${a.used ? 'used' : 'not used'}.`}, a.inDetail ? a.id : undefined)
        : changed(s, {text: 'Not recorded: the memory is forgotten or superseded.', error: true}, undefined)
  }
}

/** The first answer (or failure) of a load: the search index may now be built, off the path. */
function firstLoad(s: BrowserState): Effect[] {
  return !s.list.loaded && s.config.warmSearch ? [{type: 'later', key: 'warm', ms: 100, action: {type: 'warm'}}] : []
}

/**
 * After any change (forget, edit, feedback) the list and its counts are read again from the store:
 * the header never keeps a count from before it.
 * `reopen`: an id to show in the detail pane again (busy until it is), null to leave the pane.
 */
function changed(s: BrowserState, status: Status, reopen: string | null | undefined): Transition {
  const next: BrowserState = {...s, status, busy: typeof reopen === 'string'}
  if (reopen === null) return {state: {...next, detail: null, mode: 'list'}, reload: true}
  return {state: next, reload: true, effects: reopen ? [{type: 'open', id: reopen, keepScroll: true}] : []}
}

/** Applies typing to the field of the mode: the search text, the filter, or the prompt. */
function editField(s: BrowserState, a: {type: 'type'; text: string} | {type: 'erase'} | {type: 'eraseAll'}): Transition {
  const apply = (value: string) => (a.type === 'type' ? value + a.text : a.type === 'erase' ? [...value].slice(0, -1).join('') : '')
  if (s.mode === 'prompt' && s.prompt) return {state: {...s, prompt: {...s.prompt, value: apply(s.prompt.value)}}}
  if (s.mode === 'filter') return {state: {...s, filter: apply(s.filter), cursor: 0}}
  if (s.mode !== 'search') return same(s)
  const input = apply(s.input)
  const q = input.trim()
  // recall after a pause; back to browsing at once. Text that is the search already cancels it.
  const timer: Effect =
    q === s.query ? {type: 'cancel', key: 'search'} : {type: 'later', key: 'search', ms: q === '' ? 0 : s.config.debounceMs, action: {type: 'searchDue', q}}
  return {state: {...s, input, cursor: 0}, effects: [timer]}
}

/** ⏎ in a prompt: the reason goes on to the question; tags and importance are checked, then saved. */
function submit(s: BrowserState): Transition {
  const p = s.prompt
  if (!p) return same(s)
  const inDetail = s.detail !== null
  if (p.kind === 'reason') {
    const shown = s.detail?.memory.id === p.id ? s.detail.memory : selectedRow(s)?.id === p.id ? selectedRow(s) : undefined
    const label = clip(oneLine(shown ? (shown.oneLiner ?? shown.content) : p.id), 40)
    return {state: {...s, confirm: {id: p.id, reason: p.value.trim(), label}, prompt: null, mode: 'confirm'}}
  }
  const parsed = p.kind === 'tags' ? parseTags(p.value) : parseImportance(p.value)
  // a bad value keeps the prompt open, with what was typed, and says why
  if ('error' in parsed) return say(s, parsed.error, true)
  const set: EditSet = 'tags' in parsed ? {tags: parsed.tags} : {importance: parsed.importance}
  return {state: {...s, prompt: null, mode: back(s), busy: true}, effects: [{type: 'edit', id: p.id, set, inDetail}]}
}
