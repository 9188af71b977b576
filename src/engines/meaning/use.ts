import type {MemContext} from '../context.js'
import {loadMeaningModel} from './load.js'
import type {MeaningModel} from './model.js'

const told = new Set<string>()

/**
 * The context's meaning model, loaded on first use, or null when meaning is off or the model
 * cannot load. Never throws: a model that cannot load (or a setting that is wrong) is told once per
 * process through ctx.notice, and mem answers with words alone.
 */
export async function meaningModel(ctx: MemContext): Promise<MeaningModel | null> {
  if (!ctx.meaning) return null
  let key = 'setting'
  try {
    const {setting, runtime} = await ctx.meaning()
    key = JSON.stringify(setting)
    const loading = loadMeaningModel(setting, runtime, {longLived: ctx.longLived})
    if (!loading) return null
    const loaded = await loading
    // config.yaml's meaning.floor sets the floor of a hit by meaning alone over the model's own
    if (loaded.model) return setting.floor === undefined ? loaded.model : {...loaded.model, onlyFloor: setting.floor}
    tell(ctx, key, `The meaning model (${describeSetting(setting)}) cannot load: ${loaded.error}. mem reads by words alone (recall, and update detection when storing).`)
  } catch (err) {
    const why = (err instanceof Error ? err.message.split('\n')[0] : String(err)).replace(/\.?$/, '.')
    tell(ctx, key, `The meaning model is not set up right: ${why} mem reads by words alone (recall, and update detection when storing).`)
  }
  return null
}

function describeSetting(s: {model: string; dir?: string}): string {
  return s.model === 'local' ? `local model at ${s.dir}` : s.model === 'builtin' ? 'built-in model' : s.model === 'static' ? 'static table' : s.model === 'runtime' ? "the enrichment runtime's embedding model" : s.model
}

function tell(ctx: MemContext, key: string, message: string): void {
  if (told.has(key)) return
  told.add(key)
  ctx.notice?.(`${message} Set meaning.model: off in config.yaml (or MEM_MEANING=off) to silence this.`)
}
