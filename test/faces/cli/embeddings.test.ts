import {writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {cliRepo} from '../../helpers/cli.js'
import {fakeRuntime} from '../../helpers/fake-llm.js'

const PARAPHRASE = 'granny makes bread each weekend'

describe('embeddings from the command line', () => {
  it('mem enrich --all embeds, mem recall uses the vectors, and a failing runtime falls back to the text ranking', async () => {
    const fake = await fakeRuntime()
    const {home, mem} = cliRepo()
    const grandma = (await mem(['store', 'Grandma bakes sourdough loaves every Sunday morning.', '--type', 'insight', '--json'])).json().id
    await mem(['store', 'The staging database is reset every night at two.', '--type', 'insight', '--json'])
    const textOnly = (await mem(['recall', PARAPHRASE, '--json'])).json()
    expect(textOnly.results.map((r: {id: string}) => r.id)).not.toContain(grandma)

    writeFileSync(
      join(home, 'config.yaml'),
      `enrichment:\n  provider: openai\n  url: ${fake.url}/v1\n  model: tiny\n  timeoutMs: 2000\n  embeddings:\n    enabled: true\n    model: tiny-embed\n    dims: 64\n    timeoutMs: 1000\n`,
    )
    const all = await mem(['enrich', '--all'])
    expect(all.code).toBe(0)
    expect(all.stdout).toMatch(/2 enriched, 0 unchanged, 0 failed of 2; 2 embedded/)
    // the suite runs with MEM_MEANING=off (vitest.config.ts); here config.yaml decides: the runtime's model
    const found = await mem(['recall', PARAPHRASE, '--json'], {env: {MEM_MEANING: ''}})
    expect(found.code).toBe(0)
    expect(JSON.parse(found.stdout).results[0].id).toBe(grandma)

    fake.setMode('failing')
    const fallback = await mem(['recall', PARAPHRASE, '--json'], {env: {MEM_MEANING: ''}})
    expect(fallback.code).toBe(0)
    // one notice that the model failed, and the word-only answer
    expect(fallback.stderr).toMatch(/^The meaning model failed \(.*\); this recall answers by words alone\.\n$/)
    expect(JSON.parse(fallback.stdout).results.map((r: {id: string}) => r.id)).toEqual(textOnly.results.map((r: {id: string}) => r.id))
  })
})
