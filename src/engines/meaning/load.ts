import type {EnrichmentConfig, MeaningSetting} from '../../config/user-config.js'
import {holdsOnnxModel} from './model-dir.js'
import type {MeaningModel} from './model.js'

/**
 * The model a setting names, loaded once per process (every context of the process shares it), or
 * why it cannot load. Never throws: a model that cannot load leaves mem lexical, and says so once.
 */
export type Loaded = {model: MeaningModel; error?: undefined} | {model?: undefined; error: string}

const loaded = new Map<string, Promise<Loaded>>()

function keyOf(setting: MeaningSetting, runtime: EnrichmentConfig | null, longLived: boolean): string {
  if (setting.model === 'local') return `local\0${setting.dir}${longLived ? '\0worker' : ''}`
  if (setting.model === 'runtime') return `runtime\0${JSON.stringify(runtime)}`
  if (setting.model === 'builtin' && longLived) return 'builtin\0worker'
  return setting.model
}

/**
 * `longLived`: for a process that answers many requests (`mem serve`, `mem mcp`), where the built-in
 * model runs in a worker thread so that embedding does not hold up the other requests; a one-shot
 * command runs it in its own thread (a worker would cost it the thread's start).
 */
export function loadMeaningModel(setting: MeaningSetting, runtime: EnrichmentConfig | null, {longLived = false}: {longLived?: boolean} = {}): Promise<Loaded> | null {
  if (setting.model === 'off') return null
  const key = keyOf(setting, runtime, longLived)
  let p = loaded.get(key)
  if (!p) {
    p = load(setting, runtime, longLived).then(
      (model): Loaded => ({model}),
      (err: unknown): Loaded => ({error: err instanceof Error ? err.message.split('\n')[0] : String(err)}),
    )
    loaded.set(key, p)
  }
  return p
}

async function load(setting: MeaningSetting, runtime: EnrichmentConfig | null, longLived: boolean): Promise<MeaningModel> {
  switch (setting.model) {
    case 'static':
      return (await import('./static-table.js')).loadStaticTable()
    case 'builtin':
      return longLived ? (await import('./builtin.js')).loadBuiltinInWorker() : (await import('./builtin.js')).loadBuiltin()
    case 'local': {
      // a static table when the directory holds one, else its ONNX sentence-transformer, if any
      if (!embedsSlowly(setting)) return (await import('./local-table.js')).loadLocalTable(setting.dir)
      const {loadOnnxModel} = await import('./onnx.js')
      // a long-lived process runs it in a worker thread, as the built-in model (a one-shot command in its own)
      return longLived ? (await import('./in-worker.js')).loadInWorker({kind: 'onnx', dir: setting.dir}, () => loadOnnxModel(setting.dir)) : loadOnnxModel(setting.dir)
    }
    case 'runtime': {
      if (!runtime?.embeddings) throw new Error('meaning.model is runtime, but enrichment.embeddings is not enabled in config.yaml')
      return (await import('./runtime.js')).runtimeModel(runtime)
    }
    default:
      throw new Error('no model')
  }
}

/**
 * Whether a setting's model costs a text tens of milliseconds (a network, not a table lookup): the
 * built-in model, and a local directory holding an ONNX sentence-transformer rather than a static
 * table. Such a model embeds a store's text later (the queue of engines/meaning/pending.ts), not inside the store.
 */
export function embedsSlowly(setting: MeaningSetting): boolean {
  if (setting.model === 'builtin') return true
  if (setting.model !== 'local') return false
  // read once per directory and process (every store asks), as the model itself is loaded once
  let slow = slowDirs.get(setting.dir)
  if (slow === undefined) slowDirs.set(setting.dir, (slow = holdsOnnxModel(setting.dir)))
  return slow
}
const slowDirs = new Map<string, boolean>()

/** Forgets the loaded models (tests that load a broken model, then a mended one). */
export function forgetLoadedModels(): void {
  loaded.clear()
  slowDirs.clear()
}
