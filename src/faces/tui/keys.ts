/**
 * The browser's keys, one table per mode: a key (and, for some, a condition on the state) maps to
 * an action of state.ts. `keyToAction` is pure; app.tsx dispatches what it returns.
 */
import {searching, type Action, type BrowserState, type Mode} from './state.js'

/** The parts of ink's `Key` the tables read (tests pass only the flags they need). */
export interface KeyFlags {
  upArrow?: boolean
  downArrow?: boolean
  leftArrow?: boolean
  rightArrow?: boolean
  pageUp?: boolean
  pageDown?: boolean
  return?: boolean
  escape?: boolean
  tab?: boolean
  backspace?: boolean
  delete?: boolean
  ctrl?: boolean
  meta?: boolean
}

export interface Binding {
  /** Key names (see `keyName`): 'up', 'escape', 'ctrl+u', or the character typed ('q', '/', ' '). */
  keys: string[]
  /** The binding applies only in this state (the first binding that applies wins). */
  when?: (s: BrowserState) => boolean
  action: Action
}

export interface KeyTable {
  bindings: Binding[]
  /** Printable text no binding takes is typed into the mode's field. */
  typing?: boolean
  /** Any other key. */
  otherwise?: Action
  /** Keys wait while a change is written (a second forget of the same memory, say). */
  idleOnly?: boolean
}

const FLAG_NAMES: Array<[keyof KeyFlags, string]> = [
  ['upArrow', 'up'],
  ['downArrow', 'down'],
  ['leftArrow', 'left'],
  ['rightArrow', 'right'],
  ['pageUp', 'pageup'],
  ['pageDown', 'pagedown'],
  ['return', 'return'],
  ['escape', 'escape'],
  ['tab', 'tab'],
  ['backspace', 'backspace'],
  ['delete', 'delete'],
]

/**
 * One name per key: ink's flags first ('up', 'escape'), then Ctrl- and Alt- combinations
 * ('ctrl+u'), else the character typed. Text of more than one character (a paste) has no name:
 * pasting "return" into the search field types it instead of pressing ⏎.
 */
export function keyName(input: string, key: KeyFlags): string {
  for (const [flag, name] of FLAG_NAMES) if (key[flag]) return name
  if (key.ctrl) return `ctrl+${input}`
  if (key.meta) return `meta+${input}`
  return [...input].length === 1 ? input : ''
}

const QUIT: Action = {type: 'quit'}

/** Acting on a memory: the selection in the list, the open memory in the detail pane. */
const MEMORY_KEYS: Binding[] = [
  {keys: ['d'], action: {type: 'ask', what: 'reason'}},
  {keys: ['#'], action: {type: 'ask', what: 'tags'}},
  {keys: ['i'], action: {type: 'ask', what: 'importance'}},
  {keys: ['+'], action: {type: 'feedback', used: true}},
  {keys: ['-'], action: {type: 'feedback', used: false}},
  {keys: ['y'], action: {type: 'copy'}},
  {keys: ['e'], action: {type: 'editContent'}},
]

/** Editing a one-line field (search, filter, prompt). */
const FIELD_KEYS: Binding[] = [
  {keys: ['backspace', 'delete'], action: {type: 'erase'}},
  {keys: ['ctrl+u'], action: {type: 'eraseAll'}},
]

export const KEY_TABLES: Record<Mode, KeyTable> = {
  list: {
    idleOnly: true,
    bindings: [
      {keys: ['q'], action: QUIT},
      // Esc steps back: it clears the filter, then the search, and quits only with nothing to clear
      {keys: ['escape'], when: (s) => s.filter !== '', action: {type: 'clearFilter'}},
      {keys: ['escape'], when: searching, action: {type: 'clearSearch'}},
      {keys: ['escape'], action: QUIT},
      {keys: ['up', 'k'], action: {type: 'move', by: -1}},
      {keys: ['down', 'j'], action: {type: 'move', by: 1}},
      {keys: ['pagedown', 'right', 'n'], action: {type: 'page', dir: 1}},
      {keys: ['pageup', 'left', 'p'], action: {type: 'page', dir: -1}},
      {keys: ['return'], action: {type: 'open'}},
      {keys: ['/'], action: {type: 'startSearch'}},
      {keys: ['f'], action: {type: 'startFilter'}},
      {keys: ['t'], action: {type: 'cycleType'}},
      {keys: ['r'], action: {type: 'refresh'}},
      {keys: ['?'], action: {type: 'help'}},
      ...MEMORY_KEYS,
    ],
  },
  detail: {
    idleOnly: true,
    bindings: [
      {keys: ['q'], action: QUIT},
      {keys: ['escape', 'left', 'backspace', 'delete'], action: {type: 'closeDetail'}},
      {keys: ['up', 'k'], action: {type: 'scroll', by: -1, unit: 'line'}},
      {keys: ['down', 'j'], action: {type: 'scroll', by: 1, unit: 'line'}},
      {keys: ['pagedown', ' '], action: {type: 'scroll', by: 1, unit: 'page'}},
      {keys: ['pageup'], action: {type: 'scroll', by: -1, unit: 'page'}},
      {keys: ['r'], action: {type: 'refresh'}},
      ...MEMORY_KEYS,
    ],
  },
  search: {
    typing: true,
    bindings: [
      {keys: ['escape'], action: {type: 'clearSearch'}},
      {keys: ['return'], action: {type: 'keepField'}},
      {keys: ['up'], action: {type: 'move', by: -1}},
      {keys: ['down'], action: {type: 'move', by: 1}},
      ...FIELD_KEYS,
    ],
  },
  filter: {
    typing: true,
    bindings: [
      {keys: ['escape'], action: {type: 'clearFilter'}},
      {keys: ['return'], action: {type: 'keepField'}},
      {keys: ['up'], action: {type: 'move', by: -1}},
      {keys: ['down'], action: {type: 'move', by: 1}},
      ...FIELD_KEYS,
    ],
  },
  prompt: {
    typing: true,
    bindings: [{keys: ['escape'], action: {type: 'cancel'}}, {keys: ['return'], action: {type: 'submit'}}, ...FIELD_KEYS],
  },
  confirm: {
    bindings: [{keys: ['y', 'Y'], action: {type: 'confirmForget'}}],
    // anything but y keeps the memory
    otherwise: {type: 'cancelForget'},
  },
  help: {
    bindings: [{keys: ['q'], action: QUIT}],
    otherwise: {type: 'closeHelp'},
  },
}

/** Keys every mode shares, read before the mode's table: Ctrl-C always quits. */
export const GLOBAL_KEYS: Binding[] = [{keys: ['ctrl+c'], action: QUIT}]

/** The text a key types into a field, or '' (control keys and control characters type nothing). */
function typed(input: string, key: KeyFlags): string {
  if (key.ctrl || key.meta || FLAG_NAMES.some(([flag]) => key[flag])) return ''
  return input.replace(/[\u0000-\u001f\u007f]/g, '')
}

/** The action a key asks for in this state, or null when the key does nothing here. */
export function keyToAction(s: BrowserState, input: string, key: KeyFlags): Action | null {
  const name = keyName(input, key)
  const find = (bindings: Binding[]) => bindings.find((b) => b.keys.includes(name) && (!b.when || b.when(s)))?.action
  const global = find(GLOBAL_KEYS)
  if (global) return global
  const table = KEY_TABLES[s.mode]
  if (table.idleOnly && s.busy) return null
  const bound = find(table.bindings)
  if (bound) return bound
  if (table.typing) {
    const text = typed(input, key)
    if (text) return {type: 'type', text}
  }
  return table.otherwise ?? null
}
