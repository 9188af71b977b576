/**
 * The terminal browser (`mem browse` on a terminal): an Ink app over the core operations it is
 * handed a context for. It searches through recall (debounced, as you type), filters what is on
 * screen with fuse.js, pages through browse, shows get + history in a detail pane, and acts on
 * the selected memory (forget, tags, importance, content in $EDITOR, feedback, copy the id).
 *
 * This file only renders: the state and its transitions are state.ts, the keys keys.ts, the lines
 * screen.ts, and the operations, editor, clipboard and timers run in effects.ts.
 */
import {Box, Text, useApp, useInput, useStdout} from 'ink'
import {useCallback, useEffect, useState, useSyncExternalStore} from 'react'
import type {BrowseResult} from '../../operations/browse.js'
import type {MemContext} from '../../engines/context.js'
import type {MemoryType} from '../../model/memory.js'
import {browserStore, type BrowserStore} from './effects.js'
import {keyToAction} from './keys.js'
import {screen} from './screen.js'

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

/** The store for this mount (made once; the props are read when it starts), as React state. */
function useBrowserStore(props: BrowserProps): BrowserStore {
  const {exit} = useApp()
  const {stdout} = useStdout()
  const [store] = useState(() =>
    browserStore({
      ctx: props.ctx,
      repo: props.repo,
      editText: props.editText,
      copy: props.copy,
      firstPage: props.firstPage?.page,
      exit,
      terminal: stdout,
      size: () => ({columns: props.columns ?? (stdout.columns || 80), rows: props.rows ?? (stdout.rows || 24)}),
      config: {
        repo: props.repo,
        type: props.type,
        skip: props.skip ?? 0,
        searchLimit: props.searchLimit ?? 50,
        debounceMs: props.debounceMs ?? 150,
        refreshMs: props.refreshMs ?? 3000,
        warmSearch: props.warmSearch ?? true,
        canEdit: Boolean(props.editText),
        canCopy: Boolean(props.copy),
        firstPageTake: props.firstPage?.take,
      },
    }),
  )
  useEffect(() => store.start(), [store])
  return store
}

export function Browser(props: BrowserProps) {
  const color = props.color ?? true
  const store = useBrowserStore(props)
  const state = useSyncExternalStore(store.subscribe, store.getState)
  // the key is read against the store's latest state, not this render's: keys read in one go
  // reach the handler before React re-renders, and must see what the previous key changed
  useInput(
    useCallback(
      (input, key) => {
        const action = keyToAction(store.getState(), input, key)
        if (action) store.dispatch(action)
      },
      [store],
    ),
  )

  const view = screen(state)
  return (
    <Box flexDirection="column" width={state.size.columns}>
      <Text bold wrap="truncate">
        {view.header}
      </Text>
      <Text wrap="truncate" color={color && view.asking ? 'yellow' : undefined}>
        {view.input}
      </Text>
      {view.body.map((line, i) => (
        <Text key={i} wrap="truncate" inverse={line.selected && color}>
          {line.text || ' '}
        </Text>
      ))}
      {view.status.map((line, i) => (
        <Text key={`s${i}`} wrap="truncate" color={color && view.statusError ? 'red' : undefined}>
          {line}
        </Text>
      ))}
      <Text wrap="truncate" dimColor={color}>
        {view.keys}
      </Text>
    </Box>
  )
}
