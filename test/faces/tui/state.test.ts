// The terminal browser as functions: keys → keyToAction → reduce → effects, with a fake store
// answering the effects at once. No ink, no React, no timers: every step is a plain value.
import {describe, expect, it, vi} from 'vitest'
import type {MemContext} from '../../../src/engines/context.js'
import {effectRunner} from '../../../src/faces/tui/effects.js'
import type {Memory, MemoryType} from '../../../src/model/memory.js'
import {GLOBAL_KEYS, KEY_TABLES, keyName, keyToAction, type KeyFlags} from '../../../src/faces/tui/keys.js'
import {headerLine, screen} from '../../../src/faces/tui/screen.js'
import {init, reduce, selectedRow, visibleRows, type Action, type BrowserConfig, type Effect, type Mode} from '../../../src/faces/tui/state.js'
import type {Row} from '../../../src/faces/tui/view.js'
import {testMemory} from '../../helpers/memory.js'

const TYPES: MemoryType[] = ['observation', 'insight', 'procedure', 'heuristic']
const WORDS = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel', 'india', 'juliet']

/** Row i of a store: ids and text distinct, types cycling, newest (i = 0) first. */
function row(i: number, over: Partial<Row> = {}): Row {
  return {
    id: `memories/app/${TYPES[i % 4]}/${i.toString(16).padStart(12, '0')}`,
    type: TYPES[i % 4],
    content: `note ${WORDS[i % 10]} about module ${i}${i % 3 === 0 ? ' docker' : ''}`,
    oneLiner: null,
    tags: [`t${i}`],
    importance: 0.5,
    createdAt: `2026-03-01T12:${String(59 - (i % 60)).padStart(2, '0')}:00.000Z`,
    ...over,
  }
}

function memoryOf(r: Row): Memory {
  return testMemory({...r, updatedAt: r.createdAt})
}

const CONFIG: BrowserConfig = {repo: '/work/app', skip: 0, searchLimit: 50, debounceMs: 150, refreshMs: 0, warmSearch: false, canEdit: true, canCopy: true}

/** ink's flags for a key name as the tables write it ('escape', 'ctrl+u', 'q'). */
function ink(name: string): [string, KeyFlags] {
  const flags: Record<string, KeyFlags> = {
    up: {upArrow: true},
    down: {downArrow: true},
    left: {leftArrow: true},
    right: {rightArrow: true},
    pageup: {pageUp: true},
    pagedown: {pageDown: true},
    return: {return: true},
    escape: {escape: true, meta: true}, // ink reports Esc as meta too
    tab: {tab: true},
    backspace: {backspace: true},
    delete: {delete: true},
  }
  if (flags[name]) return ['', flags[name]]
  const combo = /^(ctrl|meta)\+(.)$/.exec(name)
  if (combo) return [combo[2], {[combo[1]]: true}]
  return [name, {}]
}

/**
 * A browser over a fake store of `n` rows. `press` sends keys, `act` actions; effects the store
 * can answer (loads, opens, changes) are answered at once unless `hold` is set; the rest (timers,
 * copy, exit) are recorded in `effects`.
 */
function browser(
  n: number,
  options: {config?: Partial<BrowserConfig>; size?: {columns: number; rows: number}; editor?: (text: string) => string | null; rows?: Row[]} = {},
) {
  let rows = options.rows ?? Array.from({length: n}, (_, i) => row(i))
  const forgotten = new Set<string>()
  const live = () => rows.filter((r) => !forgotten.has(r.id))
  let versions = 0

  function answer(e: Effect): Action | null {
    switch (e.type) {
      case 'browse': {
        const all = live().filter((r) => !e.memType || r.type === e.memType)
        return {type: 'loaded', seq: e.seq, query: '', skip: e.skip, memType: e.memType, rows: all.slice(e.skip, e.skip + e.take), count: all.length, repoId: 'app'}
      }
      case 'recall': {
        const hits = live().filter((r) => r.content.includes(e.q) && (!e.memType || r.type === e.memType)).slice(0, e.limit)
        return {type: 'loaded', seq: e.seq, query: e.q, skip: 0, memType: e.memType, rows: hits, count: hits.length}
      }
      case 'open': {
        const r = rows.find((x) => x.id === e.id)
        return r ? {type: 'opened', memory: memoryOf(r), history: null, keepScroll: e.keepScroll} : {type: 'openFailed', error: `${e.id} not found.`}
      }
      case 'forget': {
        const was = forgotten.has(e.id)
        forgotten.add(e.id)
        return {type: 'forgotten', id: e.id, forgotten: !was, fromDetail: e.fromDetail}
      }
      case 'edit': {
        const i = rows.findIndex((x) => x.id === e.id)
        if ('content' in e.set) {
          const id = `${e.id.slice(0, -4)}v${String(++versions).padStart(3, '0')}`
          rows = rows.map((x, j) => (j === i ? {...x, id, content: (e.set as {content: string}).content} : x))
          return {type: 'edited', id: e.id, set: e.set, inDetail: e.inDetail, result: {success: true, id, superseded: e.id}}
        }
        rows = rows.map((x, j) => (j === i ? {...x, ...e.set} : x))
        return {type: 'edited', id: e.id, set: e.set, inDetail: e.inDetail, result: {success: true, id: e.id, superseded: null}}
      }
      case 'feedback':
        return {type: 'feedbackDone', id: e.id, used: e.used, applied: !forgotten.has(e.id), inDetail: e.inDetail}
      case 'editText': {
        const before = rows.find((x) => x.id === e.id)!.content
        return {type: 'textEdited', id: e.id, before, after: options.editor ? options.editor(before) : null, inDetail: e.inDetail}
      }
      default:
        return null
    }
  }

  const first = init({...CONFIG, ...options.config}, options.size ?? {columns: 80, rows: 24})
  const b = {
    state: first.state,
    /** Every effect asked for, in order. */
    effects: [] as Effect[],
    /** Effects not answered yet (with `hold`). */
    held: [] as Effect[],
    hold: false,
    store: {forgotten, live: () => live()},
    dispatch(action: Action) {
      const step = reduce(b.state, action)
      b.state = step.state
      b.take(step.effects)
    },
    take(effects: Effect[]) {
      b.effects.push(...effects)
      for (const e of effects) {
        if (b.hold) {
          b.held.push(e)
          continue
        }
        const result = answer(e)
        if (result) b.dispatch(result)
      }
    },
    /** Answers the held effects `which` picks, in order, and the follow-ups it also picks. */
    release(which: (e: Effect) => boolean = () => true) {
      for (let e = b.held.find(which); e; e = b.held.find(which)) {
        b.held.splice(b.held.indexOf(e), 1)
        const result = answer(e)
        if (result) b.dispatch(result)
      }
    },
    /** Stops holding and answers everything held. */
    flush() {
      b.hold = false
      b.release()
    },
    press(...keys: string[]) {
      for (const k of keys) {
        const action = keyToAction(b.state, ...ink(k))
        if (action) b.dispatch(action)
      }
    },
    type(text: string) {
      b.press(...[...text])
    },
    act(...actions: Action[]) {
      for (const a of actions) b.dispatch(a)
    },
    /** Effects asked for since `mark` (the length of `effects` then). */
    since(mark: number) {
      return b.effects.slice(mark)
    },
    /** Fires the pending timer of `key` (the last one asked for), as the runner would. */
    fire(key: 'search' | 'poll' | 'warm') {
      const timer = [...b.effects].reverse().find((e) => (e.type === 'later' || e.type === 'cancel') && e.key === key)
      if (!timer || timer.type !== 'later') throw new Error(`no pending ${key} timer`)
      b.dispatch(timer.action)
    },
    header: () => headerLine(b.state),
    lines: () => screen(b.state).body.map((l) => l.text),
    selected: () => selectedRow(b.state)?.id,
    exited: () => b.effects.some((e) => e.type === 'exit'),
  }
  b.take(first.effects)
  return b
}

const loads = (effects: Effect[]) => effects.filter((e) => e.type === 'browse' || e.type === 'recall')

describe('keys: names and tables', () => {
  it('names ink keys, Ctrl and Alt combinations and typed characters; a paste has no name', () => {
    expect(keyName('', {upArrow: true})).toBe('up')
    expect(keyName('', {escape: true, meta: true})).toBe('escape')
    expect(keyName('', {return: true})).toBe('return')
    expect(keyName('', {pageDown: true})).toBe('pagedown')
    expect(keyName('u', {ctrl: true})).toBe('ctrl+u')
    expect(keyName('q', {meta: true})).toBe('meta+q')
    expect(keyName('q', {})).toBe('q')
    expect(keyName(' ', {})).toBe(' ')
    expect(keyName('return', {})).toBe('')
  })

  it('has a table for every mode, and every key it binds is one keyName can produce', () => {
    const modes: Mode[] = ['list', 'search', 'filter', 'detail', 'prompt', 'confirm', 'help']
    expect(Object.keys(KEY_TABLES).sort()).toEqual([...modes].sort())
    for (const table of [...Object.values(KEY_TABLES), {bindings: GLOBAL_KEYS}]) {
      for (const b of table.bindings) for (const k of b.keys) expect(keyName(...ink(k)), k).toBe(k)
    }
  })

  it('list: each key asks for its action', () => {
    const b = browser(3)
    const expected: Array<[string, Action]> = [
      ['q', {type: 'quit'}],
      ['ctrl+c', {type: 'quit'}],
      ['up', {type: 'move', by: -1}],
      ['k', {type: 'move', by: -1}],
      ['down', {type: 'move', by: 1}],
      ['j', {type: 'move', by: 1}],
      ['n', {type: 'page', dir: 1}],
      ['right', {type: 'page', dir: 1}],
      ['pagedown', {type: 'page', dir: 1}],
      ['p', {type: 'page', dir: -1}],
      ['left', {type: 'page', dir: -1}],
      ['pageup', {type: 'page', dir: -1}],
      ['return', {type: 'open'}],
      ['/', {type: 'startSearch'}],
      ['f', {type: 'startFilter'}],
      ['t', {type: 'cycleType'}],
      ['r', {type: 'refresh'}],
      ['?', {type: 'help'}],
      ['d', {type: 'ask', what: 'reason'}],
      ['#', {type: 'ask', what: 'tags'}],
      ['i', {type: 'ask', what: 'importance'}],
      ['+', {type: 'feedback', used: true}],
      ['-', {type: 'feedback', used: false}],
      ['y', {type: 'copy'}],
      ['e', {type: 'editContent'}],
    ]
    for (const [k, action] of expected) expect(keyToAction(b.state, ...ink(k)), k).toEqual(action)
    for (const k of ['x', 'tab', 'ctrl+k', 'meta+q', ' ']) expect(keyToAction(b.state, ...ink(k)), k).toBeNull()
  })

  it('detail: scrolls, goes back on Esc ← Backspace, and acts on the open memory', () => {
    const b = browser(3)
    b.press('return')
    expect(b.state.mode).toBe('detail')
    const expected: Array<[string, Action]> = [
      ['q', {type: 'quit'}],
      ['escape', {type: 'closeDetail'}],
      ['left', {type: 'closeDetail'}],
      ['backspace', {type: 'closeDetail'}],
      ['delete', {type: 'closeDetail'}],
      ['up', {type: 'scroll', by: -1, unit: 'line'}],
      ['k', {type: 'scroll', by: -1, unit: 'line'}],
      ['down', {type: 'scroll', by: 1, unit: 'line'}],
      ['j', {type: 'scroll', by: 1, unit: 'line'}],
      ['pagedown', {type: 'scroll', by: 1, unit: 'page'}],
      [' ', {type: 'scroll', by: 1, unit: 'page'}],
      ['pageup', {type: 'scroll', by: -1, unit: 'page'}],
      ['r', {type: 'refresh'}],
      ['d', {type: 'ask', what: 'reason'}],
      ['e', {type: 'editContent'}],
    ]
    for (const [k, action] of expected) expect(keyToAction(b.state, ...ink(k)), k).toEqual(action)
    // list-only keys do nothing here
    for (const k of ['n', 'p', '/', 'f', 't', '?', 'return']) expect(keyToAction(b.state, ...ink(k)), k).toBeNull()
  })

  it('search, filter and prompt fields: keys are text; ⏎, Esc, Backspace and Ctrl-U edit or leave', () => {
    const b = browser(3)
    for (const [open, mode] of [['/', 'search'], ['f', 'filter'], ['#', 'prompt']] as const) {
      b.press(open)
      expect(b.state.mode).toBe(mode)
      for (const k of ['q', 'j', 'd', '/', ' ', 'Y']) expect(keyToAction(b.state, ...ink(k)), `${mode} ${k}`).toEqual({type: 'type', text: k})
      expect(keyToAction(b.state, 'docker', {})).toEqual({type: 'type', text: 'docker'}) // a paste
      expect(keyToAction(b.state, 'return', {})).toEqual({type: 'type', text: 'return'})
      expect(keyToAction(b.state, 'a\u0007b', {})).toEqual({type: 'type', text: 'ab'}) // control characters dropped
      expect(keyToAction(b.state, ...ink('backspace'))).toEqual({type: 'erase'})
      expect(keyToAction(b.state, ...ink('delete'))).toEqual({type: 'erase'})
      expect(keyToAction(b.state, ...ink('ctrl+u'))).toEqual({type: 'eraseAll'})
      for (const k of ['ctrl+k', 'meta+q', 'tab', 'left', 'pageup']) expect(keyToAction(b.state, ...ink(k)), `${mode} ${k}`).toBeNull()
      expect(keyToAction(b.state, ...ink('ctrl+c'))).toEqual({type: 'quit'})
      const leave = mode === 'prompt' ? [{type: 'submit'}, {type: 'cancel'}] : [{type: 'keepField'}, {type: mode === 'search' ? 'clearSearch' : 'clearFilter'}]
      expect(keyToAction(b.state, ...ink('return'))).toEqual(leave[0])
      expect(keyToAction(b.state, ...ink('escape'))).toEqual(leave[1])
      // ↑↓ move the selection under the search and filter fields; in a prompt they do nothing
      expect(keyToAction(b.state, ...ink('down'))).toEqual(mode === 'prompt' ? null : {type: 'move', by: 1})
      b.press('escape')
      expect(b.state.mode).toBe('list')
    }
  })

  it('confirm: y or Y forgets, any other key cancels; help: q quits, any other key closes it', () => {
    const b = browser(3)
    b.press('d', 'return')
    expect(b.state.mode).toBe('confirm')
    expect(keyToAction(b.state, ...ink('y'))).toEqual({type: 'confirmForget'})
    expect(keyToAction(b.state, ...ink('Y'))).toEqual({type: 'confirmForget'})
    for (const k of ['n', 'escape', 'return', 'q', 'up', ' ']) expect(keyToAction(b.state, ...ink(k)), k).toEqual({type: 'cancelForget'})
    b.press('n')
    b.press('?')
    expect(b.state.mode).toBe('help')
    expect(keyToAction(b.state, ...ink('q'))).toEqual({type: 'quit'})
    for (const k of ['escape', 'x', 'return', 'down']) expect(keyToAction(b.state, ...ink(k)), k).toEqual({type: 'closeHelp'})
  })

  it('while a change is written the list and the detail pane ignore keys; Ctrl-C still quits', () => {
    const b = browser(3)
    b.hold = true
    b.press('+')
    expect(b.state.busy).toBe(true)
    for (const k of ['q', 'escape', 'j', '+', 'd', 'return']) expect(keyToAction(b.state, ...ink(k)), k).toBeNull()
    expect(keyToAction(b.state, ...ink('ctrl+c'))).toEqual({type: 'quit'})
    b.flush()
    expect(b.state.busy).toBe(false)
    expect(keyToAction(b.state, ...ink('q'))).toEqual({type: 'quit'})
  })
})

describe('reducer: loading and paging', () => {
  it('starts with one browse of a screen-sized page, and says loading until it is answered', () => {
    const b = browser(30)
    const s = init(CONFIG, {columns: 80, rows: 24})
    expect(s.effects).toEqual([{type: 'browse', seq: 1, skip: 0, take: 19, memType: undefined, first: false}])
    expect(headerLine(s.state)).toContain('loading…')
    expect(b.header()).toContain('1–19 of 30')
    // the page the command read is used only when it is the screen's size and place
    expect(init({...CONFIG, firstPageTake: 19}, {columns: 80, rows: 24}).effects[0]).toMatchObject({first: true})
    expect(init({...CONFIG, firstPageTake: 50}, {columns: 80, rows: 24}).effects[0]).toMatchObject({first: false})
    expect(init({...CONFIG, firstPageTake: 7}, {columns: 80, rows: 12}).effects[0]).toMatchObject({first: true, take: 7})
    // the poll is a timer asked for at start, only with a period
    expect(init({...CONFIG, refreshMs: 3000}, {columns: 80, rows: 24}).effects).toContainEqual({type: 'later', key: 'poll', ms: 3000, action: {type: 'tick'}})
  })

  it('drops the answer to a load that a newer one replaced', () => {
    const b = browser(45)
    b.hold = true
    b.press('n')
    b.press('n')
    expect(b.held.map((e) => (e.type === 'browse' ? e.skip : -1))).toEqual([19, 38])
    // the second answer first, then the first one late: the late one is not shown
    b.release((e) => e.type === 'browse' && e.skip === 38)
    expect(b.header()).toContain('39–45 of 45')
    b.release()
    expect(b.header()).toContain('39–45 of 45')
    expect(b.header()).not.toContain('…')
  })

  it('pages through the store, says so at either end, and marks a page still loading', () => {
    const b = browser(45)
    expect(b.header()).toContain('1–19 of 45')
    b.press('p')
    expect(b.state.status).toEqual({text: 'First page.'})
    b.hold = true
    b.press('n')
    expect(b.header()).toContain('1–19 of 45 …') // asked for, not there yet
    b.flush()
    expect(b.header()).toContain('20–38 of 45 ·')
    b.press('pagedown')
    expect(b.header()).toContain('39–45 of 45')
    b.press('right')
    expect(b.state.status).toEqual({text: 'Last page.'})
    expect(b.state.skip).toBe(38)
    b.press('pageup', 'left')
    expect(b.header()).toContain('1–19 of 45')
  })

  it('moves the selection, clamped to the rows on screen, and resets it on a new page', () => {
    const b = browser(25)
    b.press('k')
    expect(b.selected()).toBe(row(0).id)
    b.press('j', 'down', 'j')
    expect(b.selected()).toBe(row(3).id)
    for (let i = 0; i < 30; i++) b.press('j')
    expect(b.selected()).toBe(row(18).id)
    expect(b.lines().filter((l) => l.startsWith('> '))).toHaveLength(1)
    b.press('n')
    expect(b.selected()).toBe(row(19).id)
  })

  it('cycles the type, back to the first page, reading only that type', () => {
    const b = browser(10)
    b.press('j', 'n')
    const mark = b.effects.length
    b.press('t')
    expect(loads(b.since(mark))).toEqual([{type: 'browse', seq: expect.any(Number), skip: 0, take: 19, memType: 'observation', first: false}])
    expect(b.header()).toContain('1–3 of 3 · type: observation')
    expect(b.state.cursor).toBe(0)
    b.press('t', 't', 't', 't')
    expect(b.header()).toContain('1–10 of 10 · type: all')
  })

  it('reads a page of the new size on a resize', () => {
    const b = browser(30)
    const mark = b.effects.length
    b.act({type: 'resize', columns: 80, rows: 24})
    expect(b.since(mark)).toEqual([]) // the same size: nothing to read
    b.act({type: 'resize', columns: 50, rows: 12})
    expect(loads(b.since(mark))).toMatchObject([{type: 'browse', take: 7}])
    expect(b.header()).toContain('1–7 of 30')
    expect(screen(b.state).body).toHaveLength(7)
  })

  it('goes to the last page when the one on screen emptied (forgotten elsewhere)', () => {
    const b = browser(25)
    b.press('n')
    expect(b.header()).toContain('20–25 of 25')
    for (const r of b.store.live().slice(10)) b.store.forgotten.add(r.id)
    b.press('r')
    expect(b.state.skip).toBe(0)
    expect(b.header()).toContain('1–10 of 10')
  })

  it('re-reads the page on the poll timer while browsing, not while a search is on', () => {
    const b = browser(5, {config: {refreshMs: 3000}})
    let mark = b.effects.length
    b.fire('poll')
    expect(loads(b.since(mark))).toHaveLength(1)
    expect(b.since(mark)).toContainEqual({type: 'later', key: 'poll', ms: 3000, action: {type: 'tick'}})
    b.press('/', ...'docker', 'return')
    b.fire('search')
    mark = b.effects.length
    b.fire('poll')
    expect(loads(b.since(mark))).toEqual([]) // each recall counts as an access: not on a timer
    expect(b.since(mark)).toContainEqual({type: 'later', key: 'poll', ms: 3000, action: {type: 'tick'}})
  })

  it('warms the search index once, after the first page', () => {
    const b = browser(5, {config: {warmSearch: true}})
    expect(b.effects.filter((e) => e.type === 'later' && e.key === 'warm')).toHaveLength(1)
    b.press('r', 'n', 't')
    expect(b.effects.filter((e) => e.type === 'later' && e.key === 'warm')).toHaveLength(1)
    const mark = b.effects.length
    b.fire('warm')
    expect(b.since(mark)).toEqual([{type: 'prepareRecall'}])
    expect(browser(5).effects.some((e) => e.type === 'later' && e.key === 'warm')).toBe(false)
  })

  it('shows a load error in the status line and stops saying loading', () => {
    const b = browser(3)
    b.act({type: 'loadFailed', seq: b.state.loadSeq, query: '', skip: 0, error: 'Repository not found.'})
    expect(b.state.status).toEqual({text: 'Repository not found.', error: true})
    expect(b.header()).not.toContain('…')
    b.act({type: 'loadFailed', seq: b.state.loadSeq - 1, query: '', skip: 0, error: 'an old one'})
    expect(b.state.status?.text).toBe('Repository not found.')
  })
})

describe('reducer: search and filter', () => {
  it('recalls after the debounce, the text typed by then; backspacing to nothing browses at once', () => {
    const b = browser(40)
    b.press('/')
    let mark = b.effects.length
    b.type('dock')
    expect(b.since(mark).filter((e) => e.type === 'later')).toHaveLength(4)
    expect(b.since(mark).at(-1)).toEqual({type: 'later', key: 'search', ms: 150, action: {type: 'searchDue', q: 'dock'}})
    expect(loads(b.since(mark))).toEqual([]) // nothing recalled while typing
    // a timer of text typed since is not the search
    b.act({type: 'searchDue', q: 'doc'})
    expect(b.state.query).toBe('')
    mark = b.effects.length
    b.fire('search')
    expect(loads(b.since(mark))).toEqual([{type: 'recall', seq: expect.any(Number), q: 'dock', limit: 50, memType: undefined}])
    expect(b.header()).toContain('search "dock": 14 results')
    expect(screen(b.state).input).toBe('/ dock█')
    // typing the text that is already the search cancels the pending one
    b.type('x')
    mark = b.effects.length
    b.press('backspace')
    expect(b.since(mark)).toEqual([{type: 'cancel', key: 'search'}])
    b.press('ctrl+u')
    expect(b.effects.at(-1)).toEqual({type: 'later', key: 'search', ms: 0, action: {type: 'searchDue', q: ''}})
    b.fire('search')
    expect(b.header()).toContain('1–19 of 40')
  })

  it('⏎ keeps the search for the list keys; Esc in the field clears it and browses again', () => {
    const b = browser(40)
    b.press('/', ...'docker')
    b.fire('search')
    b.press('down', 'return')
    expect(b.state.mode).toBe('list')
    expect(screen(b.state).input).toBe('/ docker')
    expect(b.selected()).toBe(row(3).id)
    b.press('j')
    expect(b.selected()).toBe(row(6).id) // j moves in the results now
    b.press('/', 'escape')
    expect(b.state).toMatchObject({mode: 'list', input: '', query: '', cursor: 0})
    expect(b.effects).toContainEqual({type: 'cancel', key: 'search'})
    expect(b.header()).toContain('1–19 of 40')
  })

  it('pages through search results as one list', () => {
    const b = browser(120)
    b.press('/', ...'docker', 'return')
    b.fire('search')
    expect(b.header()).toContain('search "docker": 40 results')
    b.press('n')
    expect(b.selected()).toBe(row(57).id) // the 20th result
    expect(b.state.skip).toBe(0)
    b.press('n', 'n')
    expect(b.selected()).toBe(row(117).id) // the last result
    b.press('p')
    expect(b.selected()).toBe(row(60).id)
  })

  it('filters the rows on screen as you type, counts what is shown, and Esc clears the filter', () => {
    const b = browser(12)
    b.press('f', ...'docker')
    expect(visibleRows(b.state).map((r) => r.id)).toEqual([0, 3, 6, 9].map((i) => row(i).id))
    expect(b.header()).toContain('filter "docker": 4 shown')
    b.press('ctrl+u', ...'qqqqqqq')
    expect(b.lines()[0]).toContain('Nothing on screen matches "qqqqqqq"')
    b.press('escape')
    expect(b.state).toMatchObject({mode: 'list', filter: ''})
    expect(b.header()).not.toContain('filter')
    // ⏎ keeps the filter; n/p then jump within what is shown
    b.press('f', ...'docker', 'return', 'n')
    expect(b.state.skip).toBe(0)
    expect(b.selected()).toBe(row(9).id)
  })

  it('says so when nothing matches a search, or there are no memories of a type', () => {
    const b = browser(5)
    b.press('/', ...'zyxwv')
    b.fire('search')
    expect(b.lines()[0]).toBe('No memories match "zyxwv".')
    const empty = browser(0)
    expect(empty.lines()[0]).toContain('No memories yet.')
    expect(empty.header()).toContain('0 memories')
    empty.press('t')
    expect(empty.lines()[0]).toBe('No observation memories. Press t to change the type.')
  })
})

describe('reducer: detail pane', () => {
  const runbook = row(0, {content: Array.from({length: 60}, (_, i) => `line ${i} of the runbook`).join('\n')})

  it('opens the selection with get + history, and goes back to the list', () => {
    const b = browser(3)
    const mark = b.effects.length
    b.press('j', 'return')
    expect(b.since(mark)).toEqual([{type: 'open', id: row(1).id, keepScroll: false}])
    expect(b.state.mode).toBe('detail')
    expect(b.lines()[0]).toBe(row(1).id)
    b.press('escape')
    expect(b.state).toMatchObject({mode: 'list', detail: null})
    expect(b.selected()).toBe(row(1).id)
    // an error opening it is said, and the list stays
    b.act({type: 'openFailed', error: 'No memory with that id.'})
    expect(b.state).toMatchObject({mode: 'list', status: {text: 'No memory with that id.', error: true}})
  })

  it('scrolls by line and by page, clamped to the end of the text', () => {
    const b = browser(1, {rows: [runbook]})
    b.press('return', 'k')
    expect(b.state.detail?.scroll).toBe(0)
    b.press('j', 'down')
    expect(b.state.detail?.scroll).toBe(2)
    b.press(' ')
    expect(b.state.detail?.scroll).toBe(21)
    for (let i = 0; i < 10; i++) b.press('pagedown')
    const total = b.state.detail!.scroll
    expect(b.lines().at(-1)).toBe('line 59 of the runbook')
    b.press('j')
    expect(b.state.detail?.scroll).toBe(total)
    b.press('pageup')
    expect(b.state.detail?.scroll).toBe(total - 19)
  })

  it('r re-reads the list and the open memory, keeping the scroll', () => {
    const b = browser(1, {rows: [runbook]})
    b.press('return', ' ')
    const mark = b.effects.length
    b.press('r')
    expect(b.since(mark)).toContainEqual({type: 'open', id: row(0).id, keepScroll: true})
    expect(loads(b.since(mark))).toHaveLength(1)
    expect(b.state.detail?.scroll).toBe(19)
    expect(b.lines()[0]).toBe('line 7 of the runbook')
    // opening it again from the list starts at the top
    b.press('escape', 'return')
    expect(b.state.detail?.scroll).toBe(0)
  })
})

describe('reducer: forget, tags, importance, content, feedback, copy', () => {
  it('forgets only after the reason and a y, and the header count follows the store', () => {
    const b = browser(4)
    b.press('j', 'd')
    expect(b.state.prompt).toEqual({kind: 'reason', id: row(1).id, value: ''})
    expect(screen(b.state).input).toBe('Forget: reason (optional): █')
    b.type('obsolete')
    b.press('return')
    expect(b.state.mode).toBe('confirm')
    expect(screen(b.state).input).toBe(`Forget "${row(1).content}" (obsolete)? y/N`)
    expect(b.effects.some((e) => e.type === 'forget')).toBe(false)
    const mark = b.effects.length
    b.press('y')
    expect(b.since(mark)[0]).toEqual({type: 'forget', id: row(1).id, reason: 'obsolete', fromDetail: false})
    expect(b.state.status).toEqual({text: `Forgot ${row(1).id}.`})
    expect(loads(b.since(mark))).toHaveLength(1)
    expect(b.header()).toContain('1–3 of 3')
    expect(b.state.busy).toBe(false)
  })

  it('keeps the memory on every cancel path: Esc at the reason, any key but y at the question', () => {
    const b = browser(2)
    b.press('d', 'x', 'escape')
    expect(b.state).toMatchObject({mode: 'list', prompt: null, status: {text: 'Cancelled: nothing changed.'}})
    for (const k of ['n', 'escape', 'return', 'q']) {
      b.press('d', 'return', k)
      expect(b.state).toMatchObject({mode: 'list', confirm: null, status: {text: 'Forget cancelled: nothing changed.'}})
    }
    expect(b.exited()).toBe(false)
    expect(b.effects.some((e) => e.type === 'forget')).toBe(false)
    expect(b.header()).toContain('1–2 of 2')
  })

  it('forgets from the detail pane and returns to the list', () => {
    const b = browser(2)
    b.press('return', 'd', 'return')
    expect(screen(b.state).body[0].text).toBe(row(0).id) // the pane stays under the question
    b.hold = true
    b.press('y')
    expect(b.state).toMatchObject({mode: 'detail', busy: true})
    expect(screen(b.state).status).toEqual(['working…'])
    b.flush()
    expect(b.state).toMatchObject({mode: 'list', detail: null, busy: false})
    expect(b.header()).toContain('1–1 of 1')
  })

  it('says when the memory was already forgotten, and shows an error from the store', () => {
    const b = browser(2)
    b.store.forgotten.add(row(0).id)
    b.press('d', 'return', 'y')
    expect(b.state.status).toEqual({text: `${row(0).id} was already forgotten.`})
    b.act({type: 'changeFailed', error: 'The store is locked. Try again.'})
    expect(b.state).toMatchObject({status: {text: 'The store is locked. Try again.', error: true}, busy: false})
  })

  it('edits tags and importance, refusing bad values without leaving the prompt', () => {
    const b = browser(1)
    b.press('#')
    expect(screen(b.state).input).toBe('Tags (comma separated): t0█')
    b.press('ctrl+u')
    b.type('docker, ci testing')
    let mark = b.effects.length
    b.press('return')
    expect(b.since(mark)[0]).toEqual({type: 'edit', id: row(0).id, set: {tags: ['docker', 'ci', 'testing']}, inDetail: false})
    expect(b.state.status).toEqual({text: 'Tags: docker, ci, testing.'})
    b.press('i')
    expect(b.state.prompt?.value).toBe('0.5')
    b.press('backspace', 'backspace', 'backspace', '2', 'return')
    expect(b.state).toMatchObject({mode: 'prompt', prompt: {value: '2'}, status: {text: 'Importance is a number from 0.0 to 1.0.', error: true}})
    b.press('ctrl+u', '0', '.', '9')
    mark = b.effects.length
    b.press('return')
    expect(b.since(mark)[0]).toEqual({type: 'edit', id: row(0).id, set: {importance: 0.9}, inDetail: false})
    expect(b.state.status).toEqual({text: 'Importance: 0.9.'})
    expect(b.lines()[0]).toContain(' 0.90 ')
    b.press('#', 'ctrl+u', 'return')
    expect(b.state.status).toEqual({text: 'Tags: (none).'})
  })

  it('reopens the memory after a change made from the detail pane, busy until it is shown', () => {
    const b = browser(1)
    b.press('return', 'i', 'ctrl+u', '1', 'return')
    expect(b.state).toMatchObject({mode: 'detail', busy: false})
    expect(b.effects.filter((e) => e.type === 'open').at(-1)).toEqual({type: 'open', id: row(0).id, keepScroll: true})
    expect(b.lines().find((l) => l.startsWith('importance'))).toBe('importance   1')
    b.hold = true
    b.press('+')
    b.release((e) => e.type === 'feedback')
    expect(b.state.busy).toBe(true) // the reopen is still coming
    b.flush()
    expect(b.state.busy).toBe(false)
  })

  it('edits the content in the editor: unchanged or empty saves nothing, a change is a new version', () => {
    let answer: string | null = null
    const b = browser(2, {editor: (text) => answer ?? text})
    b.press('e')
    expect(b.state.status).toEqual({text: 'No change: nothing saved.'})
    answer = '  \n'
    b.press('e')
    expect(b.state.status).toEqual({text: 'Empty text: nothing saved.'})
    answer = `${row(0).content} (checked again)\n\n`
    b.press('return')
    const mark = b.effects.length
    b.press('e')
    expect(b.since(mark)).toContainEqual({type: 'edit', id: row(0).id, set: {content: `${row(0).content} (checked again)`}, inDetail: true})
    const newId = `${row(0).id.slice(0, -4)}v001`
    expect(b.state.status).toEqual({text: `Saved a new version ${newId}.`})
    expect(b.state.detail?.memory.id).toBe(newId)
    expect(b.effects.filter((e) => e.type === 'edit')).toHaveLength(1)
  })

  it('says why an edit was refused, and that there is no editor', () => {
    const b = browser(2)
    b.act({type: 'edited', id: row(0).id, set: {content: 'x'}, inDetail: false, result: {success: false, duplicateId: row(1).id, reason: 'duplicate'}})
    expect(b.state.status).toEqual({text: `Not saved: it duplicates ${row(1).id}.`, error: true})
    b.act({type: 'edited', id: row(0).id, set: {content: 'x'}, inDetail: false, result: {success: false, reason: 'it looks like a secret (AWS access key)'}})
    expect(b.state.status?.text).toBe('Not saved: it looks like a secret (AWS access key).')
    const none = browser(1, {config: {canEdit: false}})
    none.press('e')
    expect(none.state.status).toEqual({text: 'No editor: set $VISUAL or $EDITOR.', error: true})
    expect(none.effects.some((e) => e.type === 'editText')).toBe(false)
  })

  it('records feedback, and says when it was not recorded', () => {
    const b = browser(2)
    b.press('+')
    expect(b.effects).toContainEqual({type: 'feedback', id: row(0).id, used: true, inDetail: false})
    expect(b.state.status).toEqual({text: 'Recorded: used.'})
    b.press('-')
    expect(b.state.status).toEqual({text: 'Recorded: not used.'})
    b.store.forgotten.add(row(1).id)
    b.press('j', '+')
    expect(b.state.status).toEqual({text: 'Not recorded: the memory is forgotten or superseded.', error: true})
  })

  it('copies the id and shows it; without a clipboard it only shows it', () => {
    const b = browser(1)
    b.press('y')
    expect(b.effects.at(-1)).toEqual({type: 'copy', text: row(0).id})
    expect(b.state.status).toEqual({text: `Copied ${row(0).id}`})
    const bare = browser(1, {config: {canCopy: false}})
    bare.press('y')
    expect(bare.effects.some((e) => e.type === 'copy')).toBe(false)
    expect(bare.state.status).toEqual({text: `Id: ${row(0).id}`})
  })

  it('says nothing is selected when the list is empty', () => {
    const b = browser(0)
    for (const k of ['d', '#', 'i', '+', '-', 'y', 'e']) {
      b.press(k)
      expect(b.state, k).toMatchObject({mode: 'list', status: {text: 'Nothing selected.', error: true}})
    }
    expect(b.effects.filter((e) => !['browse', 'recall'].includes(e.type))).toEqual([])
  })
})

describe('Esc in the list: clears the filter, then the search, then quits (issue 20)', () => {
  it('asks for the first of these that applies', () => {
    const b = browser(12)
    const esc = () => keyToAction(b.state, ...ink('escape'))
    expect(esc()).toEqual({type: 'quit'})
    b.press('/', ...'docker', 'return')
    expect(esc()).toEqual({type: 'clearSearch'}) // typed, not yet recalled: still a search
    b.fire('search')
    expect(esc()).toEqual({type: 'clearSearch'})
    b.press('f', 'n', 'o', 'return')
    expect(esc()).toEqual({type: 'clearFilter'})
  })

  it('clears a kept search and stays; the next Esc quits', () => {
    const b = browser(40)
    b.press('/', ...'docker')
    b.fire('search')
    b.press('return')
    expect(b.header()).toContain('search "docker": 14 results')
    const mark = b.effects.length
    b.press('escape')
    expect(b.exited()).toBe(false)
    expect(b.state).toMatchObject({mode: 'list', input: '', query: '', cursor: 0})
    expect(loads(b.since(mark))).toMatchObject([{type: 'browse', skip: 0}])
    expect(b.header()).toContain('1–19 of 40')
    expect(screen(b.state).input).toBe('/ to search · f to filter · ? for keys')
    b.press('escape')
    expect(b.exited()).toBe(true)
  })

  it('cancels a search still waiting for its debounce instead of quitting', () => {
    const b = browser(40)
    b.press('/', 'd', 'o', 'c', 'return')
    expect(b.state.query).toBe('')
    b.press('escape')
    expect(b.exited()).toBe(false)
    expect(b.effects.at(-1)).toEqual({type: 'cancel', key: 'search'})
    // the timer the runner would have fired by now is stale: still browsing
    b.act({type: 'searchDue', q: 'doc'})
    expect(b.state.query).toBe('')
    expect(b.header()).toContain('1–19 of 40')
  })

  it('steps back one layer at a time: detail pane, filter, search, quit', () => {
    const b = browser(40)
    b.press('/', ...'docker')
    b.fire('search')
    b.press('return', 'f', ...'module 3', 'return', 'return')
    expect(b.state.mode).toBe('detail')
    b.press('escape')
    expect(b.state.mode).toBe('list')
    expect(b.header()).toContain('search "docker": 14 results · filter "module 3"')
    b.press('escape')
    expect(b.header()).toContain('search "docker": 14 results ·')
    expect(b.header()).not.toContain('filter')
    b.press('escape')
    expect(b.header()).toContain('1–19 of 40')
    expect(b.exited()).toBe(false)
    b.press('escape')
    expect(b.exited()).toBe(true)
  })

  it('still quits on q and Ctrl-C with a search or a filter on', () => {
    for (const quit of ['q', 'ctrl+c']) {
      const b = browser(12)
      b.press('/', ...'docker', 'return', 'f', 'x', 'return', quit)
      expect(b.exited(), quit).toBe(true)
    }
  })
})

describe('header counts after a change (issue 20)', () => {
  // another process forgets a memory first: only a read from the store can show the new count
  const changes: Array<[string, string[]]> = [
    ['forget', ['d', 'return', 'y']],
    ['tags', ['#', 'x', 'return']],
    ['importance', ['i', 'ctrl+u', '1', 'return']],
    ['content', ['e']],
    ['feedback used', ['+']],
    ['feedback not used', ['-']],
    ['refresh', ['r']],
  ]

  for (const [what, keys] of changes) {
    it(`re-reads the page and its count after ${what}`, () => {
      const b = browser(30, {editor: (text) => `${text} (again)`})
      expect(b.header()).toContain('1–19 of 30')
      b.store.forgotten.add(row(29).id)
      const mark = b.effects.length
      b.press(...keys)
      expect(loads(b.since(mark)), what).toHaveLength(1)
      expect(b.header()).toContain(`1–19 of ${what === 'forget' ? 28 : 29}`)
    })

    it(`re-runs the search and counts its results after ${what}`, () => {
      const b = browser(30, {editor: (text) => `${text} (again)`})
      b.press('/', ...'docker', 'return')
      b.fire('search')
      expect(b.header()).toContain('search "docker": 10 results')
      b.store.forgotten.add(row(27).id)
      b.press(...keys)
      expect(b.header()).toContain(`search "docker": ${what === 'forget' ? 8 : 9} results`)
    })
  }

  it('re-reads the counts when a change is refused (the store changed under it)', () => {
    const b = browser(5)
    b.hold = true
    b.press('#', 'return')
    b.store.forgotten.add(row(0).id)
    b.held.length = 0
    const mark = b.effects.length
    b.act({type: 'changeFailed', error: `${row(0).id} was forgotten; it cannot be edited. Store a new memory instead.`})
    expect(loads(b.since(mark))).toHaveLength(1)
    b.flush()
    expect(b.header()).toContain('1–4 of 4')
    expect(b.state.status?.error).toBe(true)
  })

  it('counts what the filter shows after a forget', () => {
    const b = browser(12)
    b.press('f', ...'docker', 'return')
    expect(b.header()).toContain('filter "docker": 4 shown')
    b.press('d', 'return', 'y')
    expect(b.header()).toContain('1–11 of 11 · filter "docker": 3 shown')
  })
})

describe('reducer: help and quitting', () => {
  it('? shows every key; any key closes it, q quits', () => {
    const b = browser(3)
    b.press('?')
    expect(b.lines()[0]).toBe('Keys')
    expect(screen(b.state).keys).toBe('any key closes help · q quit')
    b.press('x')
    expect(b.state.mode).toBe('list')
    expect(b.exited()).toBe(false)
    b.press('?', 'q')
    expect(b.exited()).toBe(true)
  })

  it('q quits from the list and the detail pane, but is text in a field', () => {
    const list = browser(1)
    list.press('q')
    expect(list.exited()).toBe(true)
    const detail = browser(1)
    detail.press('return', 'q')
    expect(detail.exited()).toBe(true)
    const field = browser(1)
    field.press('/', 'q')
    expect(field.exited()).toBe(false)
    expect(field.state.input).toBe('q')
  })
})

describe('effect runner: timers, clipboard, exit', () => {
  const runner = (deps: {copy?: (t: string) => void; exit?: () => void; editText?: (t: string) => string | null} = {}) => {
    const got: Action[] = []
    const r = effectRunner({ctx: {} as MemContext, repo: '/work/app', exit: () => undefined, ...deps}, (a) => got.push(a))
    return {...r, got}
  }

  it('dispatches the action of a timer after its time; a new timer of the same key replaces it; cancel and stop clear', () => {
    vi.useFakeTimers()
    try {
      const r = runner()
      r.run({type: 'later', key: 'search', ms: 150, action: {type: 'searchDue', q: 'do'}})
      vi.advanceTimersByTime(100)
      r.run({type: 'later', key: 'search', ms: 150, action: {type: 'searchDue', q: 'dock'}})
      r.run({type: 'later', key: 'poll', ms: 200, action: {type: 'tick'}})
      vi.advanceTimersByTime(149)
      expect(r.got).toEqual([])
      vi.advanceTimersByTime(1)
      expect(r.got).toEqual([{type: 'searchDue', q: 'dock'}])
      r.run({type: 'cancel', key: 'poll'})
      r.run({type: 'later', key: 'warm', ms: 100, action: {type: 'warm'}})
      r.stop()
      vi.advanceTimersByTime(1000)
      expect(r.got).toEqual([{type: 'searchDue', q: 'dock'}])
    } finally {
      vi.useRealTimers()
    }
  })

  it('copies through the clipboard it was given and exits through ink', () => {
    const copied: string[] = []
    let exits = 0
    const r = runner({copy: (t) => copied.push(t), exit: () => exits++})
    r.run({type: 'copy', text: 'memories/app/insight/0123456789ab'})
    r.run({type: 'exit'})
    expect(copied).toEqual(['memories/app/insight/0123456789ab'])
    expect(exits).toBe(1)
    runner().run({type: 'copy', text: 'no clipboard: nothing to call'})
  })
})

describe('effect runner: a search that is a short ref', () => {
  it('lists the memory the ref names first; a ref that names none adds nothing', async () => {
    const {memRepo, storedId} = await import('../../helpers/mem.js')
    const {store} = await import('../../../src/operations/store.js')
    const {ctx, root} = memRepo()
    const id = storedId(await store(ctx, {repo: root, content: 'The release script tags the commit and pushes the tag.', type: 'procedure'}))
    await store(ctx, {repo: root, content: 'Docker must be running for the integration tests.', type: 'observation'})
    const search = (q: string) =>
      new Promise<Action>((resolve) => effectRunner({ctx, repo: root, exit: () => undefined}, resolve).run({type: 'recall', seq: 1, q, limit: 10}))
    const ref = id.split('/').pop()!.slice(0, 7)
    const found = (await search(ref)) as Extract<Action, {type: 'loaded'}>
    expect(found.type).toBe('loaded')
    expect(found.rows.map((r) => r.id)).toEqual([id])
    const none = (await search('ffffff')) as Extract<Action, {type: 'loaded'}>
    expect(none.rows).toEqual([])
  })
})

describe('the header names the repository as people know it (issue 20)', () => {
  it('by its folder name when given a path, by its id when given an id', () => {
    const byPath = browser(3, {config: {repo: '/tmp/ux/my_app'}, size: {columns: 120, rows: 24}})
    expect(byPath.header()).toMatch(/· my_app$/)
    expect(byPath.header()).not.toContain('-tmp-ux')
    const byId = browser(3, {config: {repo: 'scratchpad'}, size: {columns: 120, rows: 24}})
    expect(byId.header()).toMatch(/· app$/) // the id the store answered with
  })
})
