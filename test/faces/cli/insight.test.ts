import {writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import * as I from '../../../src/model/shapes/insight.js'
import {cliRepo} from '../../helpers/cli.js'
import {fakeRuntime} from '../../helpers/fake-llm.js'

describe('mem usage, quality, enrich, status', () => {
  it('counts what separate CLI runs did, and charts it', async () => {
    const firstDay = new Date().toISOString().slice(0, 10)
    const {mem} = cliRepo()
    const stored = (await mem(['store', 'The e2e suite needs PLAYWRIGHT_BROWSERS_PATH set.', '--type', 'procedure', '--json'])).json()
    await mem(['store', 'Release tags are cut from main on Mondays.', '--type', 'heuristic'])
    await mem(['recall', 'e2e suite'])
    await mem(['get', stored.id])

    const usage = await mem(['usage', '--json'])
    expect(usage.code).toBe(0)
    const body = I.UsageResult.parse(usage.json())
    expect(body.days).toBe(30)
    expect(body.operations.map((o) => [o.operation, o.count])).toEqual([['store', 2], ['get', 1], ['recall', 1]])

    const human = await mem(['usage'])
    expect(human.stdout).toMatch(/calls in the last 30 days/)
    // the chart reads the same calls as the summary above it (all made today): one command, one call
    // counted, and never the chart's own reading (the peak showed one call more than the total)
    const total = Number(/: (\d+) calls in the last/.exec(human.stdout)?.[1])
    const again = await mem(['usage', '--daily'])
    expect(again.stdout).toContain(`: ${total + 1} calls in the last`)
    // (unless the calls straddle midnight UTC, when the peak is one day's share)
    const lastDay = /(\d{4}-\d\d-\d\d)\s+peak/.exec(human.stdout)?.[1]
    expect(lastDay).toBeDefined()
    if (lastDay === firstDay) {
      expect(human.stdout).toContain(`peak ${total}/day`)
      expect(again.stdout).toContain(`peak ${total + 1}/day`)
    }
    expect(human.stdout).toMatch(/store\s+\d+\s+█+/)
    expect(human.stdout).toMatch(/[▁▂▃▄▅▆▇█]/)
    expect(human.stdout).not.toMatch(/\x1b\[/) // NO_COLOR

    const daily = I.UsageTimeseries.parse((await mem(['usage', '--daily', '--days', '3', '--json'])).json())
    expect(daily.buckets).toHaveLength(3)
    expect(daily.buckets[2].byOperation.store).toBe(2)
    const hourly = I.UsageHourly.parse((await mem(['usage', '--hourly', '--json'])).json())
    expect(hourly.buckets).toHaveLength(168)
    expect((await mem(['usage', '--hourly'])).stdout).toMatch(/Calls per hour/)

    const bad = await mem(['usage', '--days', '0', '--json'])
    expect(bad.code).toBe(2)
    expect(bad.json()).toMatchObject({code: 'invalid_input', error: expect.stringMatching(/days must be 1 to 365/)})
  })

  it('reports quality with issues and advice', async () => {
    const {mem} = cliRepo()
    const id = (await mem(['store', 'Docs are built with npm run docs into site/.', '--type', 'procedure', '--json'])).json().id
    await mem(['feedback', id, '--unused'])
    const q = I.QualityReport.parse((await mem(['quality', '--json'])).json())
    expect(q).toMatchObject({totalMemories: 1, recalled: 1, fizzleRatio: 1, echoRatio: 0})
    expect(q.issues[0]).toMatchObject({kind: 'fizzle', severity: 'critical', exampleIds: [id]})
    const human = await mem(['quality'])
    expect(human.code).toBe(0)
    expect(human.stdout).toMatch(/Quality of .*: \d+\/100/)
    expect(human.stdout).toContain('✖ critical  fizzle (1)')
    expect(human.stdout).toContain(id)
  })

  it('enriches with the heuristic and says so; refuses a missing or doubled target', async () => {
    const {mem} = cliRepo()
    const id = (await mem(['store', 'Cache keys include the lockfile hash; bump CACHE_VERSION to reset.', '--type', 'insight', '--json'])).json().id
    const one = I.EnrichResult.parse((await mem(['enrich', id, '--json'])).json())
    expect(one).toMatchObject({id, enriched: true, provider: 'heuristic', entities: ['CACHE_VERSION']})
    expect((await mem(['enrich', id])).stdout).toMatch(/via heuristic \(no language-model runtime configured\)/)
    const all = (await mem(['enrich', '--all', '--json'])).json()
    expect(all).toMatchObject({provider: 'heuristic', candidates: 0, enriched: 0})
    for (const args of [['enrich'], ['enrich', id, '--all']]) {
      const r = await mem([...args, '--json'])
      expect(r.code).toBe(2)
      expect(r.json().code).toBe('invalid_input')
    }
  })

  it('goes through the configured runtime; mem status says whether it answers; a failure exits 69 and changes nothing', async () => {
    const fake = await fakeRuntime()
    const {home, mem} = cliRepo()
    const off = JSON.parse((await mem(['status', '--json'])).stdout)
    expect(off).toMatchObject({version: expect.stringMatching(/^\d+\.\d+\.\d+/), enrichment: {enabled: false, provider: 'heuristic', reachable: false}})
    writeFileSync(join(home, 'config.yaml'), `enrichment:\n  provider: ollama\n  url: ${fake.url}\n  model: tiny\n  timeoutMs: 2000\n`)
    const on = await mem(['status', '--json'])
    expect(JSON.parse(on.stdout).enrichment).toEqual({enabled: true, provider: 'ollama', model: 'tiny', reachable: true, url: fake.url})
    expect((await mem(['status'])).stdout).toMatch(/enrichment {2}ollama, model tiny at .*: reachable/)

    const id = (await mem(['store', 'The worker restarts when config.yaml changes.', '--type', 'observation', '--json'])).json().id
    const r = await mem(['enrich', id, '--json'])
    expect(r.code).toBe(0)
    expect(JSON.parse(r.stdout)).toMatchObject({id, provider: 'ollama', oneLiner: 'Model: The worker restarts when config.yaml'})

    const other = (await mem(['store', 'Logs rotate nightly at two in the morning.', '--type', 'observation', '--json'])).json().id
    const before = (await mem(['get', other, '--json'])).json()
    fake.setMode('failing')
    const failed = await mem(['enrich', other])
    expect(failed.code).toBe(69)
    expect(failed.stderr).toMatch(/answered HTTP 500\. The memory was left unchanged/)
    expect(failed.stderr).toMatch(/Hint: /)
    expect((await mem(['get', other, '--json'])).json()).toEqual(before)
    expect(JSON.parse((await mem(['status', '--json'])).stdout).enrichment.reachable).toBe(false)

    const all = await mem(['enrich', '--all', '--json'])
    expect(all.code).toBe(69)
    expect(JSON.parse(all.stdout)).toMatchObject({provider: 'ollama', candidates: 1, failed: 1, enriched: 0})
  })
})
