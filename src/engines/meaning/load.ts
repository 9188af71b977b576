import type {EnrichmentConfig, MeaningSetting} from '../../config/user-config.js'
import type {MeaningModel} from './model.js'

/**
 * The model a setting names, loaded once per process (every context of the process shares it), or
 * why it cannot load. Never throws: a model that cannot load leaves mem lexical, and says so once.
 */
export type Loaded = {model: MeaningModel; error?: undefined} | {model?: undefined; error: string}

const loaded = new Map<string, Promise<Loaded>>()

function keyOf(setting: MeaningSetting, runtime: EnrichmentConfig | null, longLived: boolean): string {
  if (setting.model === 'local') return `local\0${setting.dir}`
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
    case 'local':
      return (await import('./local-table.js')).loadLocalTable(setting.dir)
    case 'runtime': {
      if (!runtime?.embeddings) throw new Error('meaning.model is runtime, but enrichment.embeddings is not enabled in config.yaml')
      return (await import('./runtime.js')).runtimeModel(runtime)
    }
    default:
      throw new Error('no model')
  }
}

/** Forgets the loaded models (tests that load a broken model, then a mended one). */
export function forgetLoadedModels(): void {
  loaded.clear()
}
