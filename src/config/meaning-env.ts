/**
 * MEM_MEANING, the environment's choice of meaning model (docs/meaning.md): off, static, builtin,
 * runtime, or the absolute path of a local model directory. It wins over config.yaml's `meaning:`
 * in every process that reads meaning: the local runtime (runtime/open-mem.ts) and `mem serve
 * --store` (team mode). Anything else is refused, naming the fix.
 */
import {isAbsolute} from 'node:path'
import {MemError} from '../model/errors.js'
import type {MeaningSetting} from './user-config.js'

export function meaningFromEnv(value: string): MeaningSetting {
  if (value === 'off' || value === 'static' || value === 'builtin' || value === 'runtime') return {model: value}
  if (isAbsolute(value)) return {model: 'local', dir: value}
  throw new MemError('invalid_input', `MEM_MEANING is ${JSON.stringify(value)}: it must be off, static, builtin, runtime or the absolute path of a model directory.`, {
    hint: 'Unset MEM_MEANING to use config.yaml (meaning.model), or set it to off for word-only recall.',
  })
}
