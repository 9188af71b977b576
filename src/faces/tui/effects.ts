/**
 * Runs what the reducer asks for: the core operations (browse, recall, get, history, forget, edit,
 * feedback), the editor, the clipboard and the timers; each result comes back as an action. The
 * store holds the one state, applies actions with `reduce` and hands the effects to the runner.
 * No React here: app.tsx subscribes to the store.
 */
import type {EventEmitter} from 'node:events'
import type {BrowseResult} from '../../operations/browse.js'
import {memoryOps as ops} from '../../operations/catalog/memories.js'
import {invoke} from '../../operations/define.js'
import {prepareRecall} from '../../operations/recall.js'
import type {MemContext} from '../../engines/context.js'
import {MemError} from '../../model/errors.js'
import {SHORT_REF_PATTERN} from '../../model/schemas.js'
import {init, reduce, type Action, type BrowserConfig, type BrowserState, type Effect, type TimerKey} from './state.js'
import {toRow} from './view.js'

export interface EffectDeps {
  ctx: MemContext
  repo: string
  /** Hands the terminal to the editor with `text`; the saved text, or null when nothing was saved. */
  editText?: (text: string) => string | null
  copy?: (text: string) => void
  /** The first page, already loading (the `browse` effect says when it is the one asked for). */
  firstPage?: Promise<BrowseResult>
  exit: () => void
}

export function describe(err: unknown): string {
  if (err instanceof MemError) return `${err.message}${err.hint ? ` ${err.hint}` : ''}`
  return `Unexpected error: ${(err as Error)?.message ?? String(err)}`
}

/** Runs effects; `stop` clears the timers. Results are dispatched back. */
export function effectRunner(deps: EffectDeps, dispatch: (a: Action) => void) {
  const {ctx, repo} = deps
  const timers = new Map<TimerKey, ReturnType<typeof setTimeout>>()
  const cancel = (key: TimerKey) => {
    clearTimeout(timers.get(key))
    timers.delete(key)
  }
  /** A change: its result, or the error said in the status line. */
  // both outcomes are dispatched, so nothing is left to await
  const change = (work: () => Promise<Action>): void =>
    void work().then(dispatch, (err) => dispatch({type: 'changeFailed', error: describe(err)}))

  function run(e: Effect): void {
    switch (e.type) {
      case 'browse': {
        const request = {seq: e.seq, query: '', skip: e.skip, memType: e.memType}
        const page = e.first && deps.firstPage ? deps.firstPage : invoke(ctx, ops.browse, {repo, skip: e.skip, take: e.take, type: e.memType})
        page.then(
          (p) => dispatch({type: 'loaded', ...request, rows: p.entries.map(toRow), count: p.count, repoId: p.repo}),
          (err) => dispatch({type: 'loadFailed', ...request, error: describe(err)}),
        )
        return
      }
      case 'recall': {
        const request = {seq: e.seq, query: e.q, skip: 0, memType: e.memType}
        // a search that is a short ref (a unique key prefix, as context lines show) finds that memory first
        const ref = e.q.trim()
        const named = SHORT_REF_PATTERN.test(ref)
          ? invoke(ctx, ops.get, {id: ref, repo}).then(
              (m) => (m.forgottenAt || m.supersededBy || (e.memType && m.type !== e.memType) ? null : m),
              () => null,
            )
          : Promise.resolve(null)
        Promise.all([invoke(ctx, ops.recall, {repo, q: e.q, limit: e.limit, type: e.memType, touch: false}), named]).then(
          ([r, m]) => {
            const rows = [...(m ? [toRow(m)] : []), ...r.results.filter((x) => x.id !== m?.id).map(toRow)]
            dispatch({type: 'loaded', ...request, rows, count: rows.length})
          },
          (err) => dispatch({type: 'loadFailed', ...request, error: describe(err)}),
        )
        return
      }
      case 'open':
        void (async () => {
          try {
            const memory = await invoke(ctx, ops.get, {id: e.id, repo})
            const hist = await invoke(ctx, ops.history, {id: e.id, repo}).catch(() => null)
            dispatch({type: 'opened', memory, history: hist, keepScroll: e.keepScroll})
          } catch (err) {
            dispatch({type: 'openFailed', error: describe(err)})
          }
        })()
        return
      case 'forget':
        change(async () => {
          const r = await invoke(ctx, ops.forget, {id: e.id, repo, reason: e.reason})
          return {type: 'forgotten', id: e.id, forgotten: r.forgotten, fromDetail: e.fromDetail}
        })
        return
      case 'edit':
        change(async () => {
          const result = await invoke(ctx, ops.edit, {id: e.id, repo, ...e.set})
          return {type: 'edited', id: e.id, set: e.set, inDetail: e.inDetail, result}
        })
        return
      case 'feedback':
        change(async () => {
          const r = await invoke(ctx, ops.feedback, {memoryId: e.id, wasUsed: e.used, repo})
          return {type: 'feedbackDone', id: e.id, used: e.used, applied: r.applied, inDetail: e.inDetail}
        })
        return
      case 'editText':
        change(async () => {
          const m = await invoke(ctx, ops.get, {id: e.id, repo})
          // the editor takes the terminal until it exits (run.tsx); no editor saves nothing
          const after = deps.editText ? deps.editText(m.content) : null
          return {type: 'textEdited', id: e.id, before: m.content, after, inDetail: e.inDetail}
        })
        return
      case 'copy':
        deps.copy?.(e.text)
        return
      case 'prepareRecall':
        // the first search would build the in-process index; nothing to show if this fails
        void prepareRecall(ctx, {repo}).catch(() => undefined)
        return
      case 'later': {
        cancel(e.key)
        const timer = setTimeout(() => {
          timers.delete(e.key)
          dispatch(e.action)
        }, e.ms)
        // a pending refresh or search never keeps the process alive on its own
        timer.unref?.()
        timers.set(e.key, timer)
        return
      }
      case 'cancel':
        cancel(e.key)
        return
      case 'exit':
        deps.exit()
        return
    }
  }

  return {
    run,
    stop() {
      for (const key of [...timers.keys()]) cancel(key)
    },
  }
}

export interface StoreOptions extends EffectDeps {
  config: BrowserConfig
  /** The terminal's size now; `resize` events (unless the size is fixed) update it. */
  size: () => {columns: number; rows: number}
  /** Emits 'resize' when the terminal's size changes. */
  terminal?: EventEmitter
}

/**
 * The browser's one state and its dispatch. `start` runs the first effects and follows resizes;
 * after `stop` nothing runs: results that arrive late are dropped.
 */
export function browserStore(options: StoreOptions) {
  const first = init(options.config, options.size())
  let state: BrowserState = first.state
  let running = false
  let started = false
  const listeners = new Set<() => void>()
  const runner = effectRunner(options, (a) => dispatch(a))

  function dispatch(action: Action): void {
    if (!running) return
    const step = reduce(state, action)
    if (step.state !== state) {
      state = step.state
      for (const l of listeners) l()
    }
    for (const e of step.effects) runner.run(e)
  }

  const onResize = () => {
    const {columns, rows} = options.size()
    dispatch({type: 'resize', columns, rows})
  }

  return {
    getState: (): BrowserState => state,
    dispatch,
    subscribe(listener: () => void): () => void {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
    start(): () => void {
      running = true
      if (!started) for (const e of first.effects) runner.run(e)
      started = true
      options.terminal?.on('resize', onResize)
      // the size may have changed between creating the store and starting it
      onResize()
      return () => {
        running = false
        options.terminal?.off('resize', onResize)
        runner.stop()
      }
    },
  }
}

export type BrowserStore = ReturnType<typeof browserStore>
