import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {meaningStatus} from '../../src/operations/meaning.js'
import {formatStatus} from '../../src/faces/cli/format-insight.js'
import {memRepo, tempDir} from '../helpers/mem.js'

/** A clock that moves 7 ms each time it is read: every span meaningStatus measures is one step. */
function steppingClock(): () => number {
  let t = 0
  return () => (t += 7)
}

// what mem status says of enrichment when it is off (the heuristic answers)
const enrichment = {enabled: false, provider: 'heuristic' as const, model: null, reachable: false}

describe('what mem status says of the meaning model', () => {
  it('off: no model, no figures', async () => {
    const {ctx} = memRepo({}, {meaning: {model: 'off'}})
    const s = await meaningStatus(ctx, steppingClock())
    expect(s).toMatchObject({setting: 'off', on: false, loadMs: null, embedMs: null, embedNextMs: null, error: null})
    expect(formatStatus({version: '0.1.0', home: '/h', enrichment, meaning: s}, {color: false})).toMatch(/meaning {5}off: recall and update detection by words alone/)
  })

  it('a model that loads: its load, its first text and each text after, each timed apart', async () => {
    const {ctx} = memRepo({}, {meaning: {model: 'static'}})
    const s = await meaningStatus(ctx, steppingClock())
    expect(s).toMatchObject({setting: 'static', on: true, kind: 'static', loadMs: 7, embedMs: 7, embedNextMs: 7, error: null})
    const text = formatStatus({version: '0.1.0', home: '/h', enrichment, meaning: s}, {color: false})
    expect(text).toMatch(/loads in 7 ms, embeds its first note in 7 ms and each next in 7 ms$/m)
  })

  it('a model that cannot load: not available, with why, and no figures of embedding', async () => {
    const missing = join(tempDir(), 'no-model')
    const {ctx} = memRepo({}, {meaning: {model: 'local', dir: missing}})
    const s = await meaningStatus(ctx, steppingClock())
    expect(s).toMatchObject({setting: 'local', on: false, embedMs: null, embedNextMs: null})
    expect(s.error).toMatch(/no model\.safetensors/)
    expect(formatStatus({version: '0.1.0', home: '/h', enrichment, meaning: s}, {color: false})).toMatch(/meaning {5}local: not available \(.*no model\.safetensors.*\); recall answers by words alone/)
  })
})
