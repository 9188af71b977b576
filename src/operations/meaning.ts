import {meaningModel} from '../engines/meaning/use.js'
import type {MemContext} from '../engines/context.js'
import type {MeaningKind} from '../engines/meaning/model.js'

/** What `mem status` says of the meaning model. */
export interface MeaningStatus {
  /** The setting: builtin, off, local or runtime. */
  setting: string
  /** False when off or when the model cannot load (then `error` says why). */
  on: boolean
  kind: MeaningKind | null
  /** The id stored with each vector. */
  id: string | null
  name: string | null
  dims: number | null
  sizeBytes: number | null
  licence: string | null
  source: string | null
  /**
   * Milliseconds to load the model in this process, to embed one short note after (the first text
   * costs more: the built-in model sets its kernels up on first use), and to embed another one then
   * (what each text costs from there on).
   */
  loadMs: number | null
  embedMs: number | null
  embedNextMs: number | null
  error: string | null
}

/** Loads the context's meaning model (as a recall would) and says what it is and what it costs. */
export async function meaningStatus(ctx: MemContext, clock: () => number): Promise<MeaningStatus> {
  const none = {kind: null, id: null, name: null, dims: null, sizeBytes: null, licence: null, source: null, loadMs: null, embedMs: null, embedNextMs: null}
  let setting = 'off'
  try {
    setting = ctx.meaning ? (await ctx.meaning()).setting.model : 'off'
  } catch (err) {
    return {setting: 'invalid', on: false, ...none, error: (err as Error).message}
  }
  if (setting === 'off') return {setting, on: false, ...none, error: null}
  const errors: string[] = []
  const t0 = clock()
  const model = await meaningModel({...ctx, notice: (m) => errors.push(m)})
  const loadMs = clock() - t0
  if (!model) return {setting, on: false, ...none, loadMs, error: errors[0] ?? 'the model did not load'}
  let error: string | null = null
  let embedMs: number | null = null
  let embedNextMs: number | null = null
  let t = clock()
  try {
    await model.embed(['The API returns money as integer cents, never floats.'])
    embedMs = clock() - t
    t = clock()
    await model.embed(['Deploy to staging from the main branch with the release workflow.'])
    embedNextMs = clock() - t
  } catch (err) {
    error = `the model loaded but failed to embed: ${(err as Error).message}`
    embedMs ??= clock() - t
  }
  const a = model.about
  const ms = (v: number | null) => (v === null ? null : Math.round(v))
  return {setting, on: error === null, kind: a.kind, id: model.id, name: a.name, dims: model.dims || null, sizeBytes: a.sizeBytes, licence: a.licence, source: a.source, loadMs: Math.round(loadMs), embedMs: ms(embedMs), embedNextMs: ms(embedNextMs), error}
}
