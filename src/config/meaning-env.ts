/**
 * MEM_MEANING, the environment's choice of meaning model (docs/meaning.md): off, static, builtin,
 * runtime, or the absolute path of a local model directory. It wins over config.yaml's `meaning:`
 * in every process that reads meaning: the local runtime (runtime/open-mem.ts) and `mem serve
 * --store` (team mode). Anything else is refused, naming the fix.
 */
import {isAbsolute} from 'node:path'
import {MemError} from '../model/errors.js'
import type {EnrichmentConfig, MeaningSetting, UserConfig} from './user-config.js'

export function meaningFromEnv(value: string): MeaningSetting {
  if (value === 'off' || value === 'static' || value === 'builtin' || value === 'runtime') return {model: value}
  if (isAbsolute(value)) return {model: 'local', dir: value}
  throw new MemError('invalid_input', `MEM_MEANING is ${JSON.stringify(value)}: it must be off, static, builtin, runtime or the absolute path of a model directory.`, {
    hint: 'Unset MEM_MEANING to use config.yaml (meaning.model), or set it to off for word-only recall.',
  })
}

/**
 * The meaning model of a process that has read its config.yaml (`mem serve --store`): MEM_MEANING
 * over the file's `meaning:`, with the enrichment runtime for a `runtime` model. (The local runtime,
 * runtime/open-mem.ts, answers the same, reading the file only when MEM_MEANING does not decide.)
 */
export function chosenMeaning(env: {MEM_MEANING?: string}, config: Pick<UserConfig, 'meaning' | 'enrichment'>): {setting: MeaningSetting; runtime: EnrichmentConfig | null} {
  const given = env.MEM_MEANING?.trim()
  return {setting: given ? meaningFromEnv(given) : config.meaning, runtime: config.enrichment}
}
