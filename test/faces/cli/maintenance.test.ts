// mem consolidate and mem maintain through the built CLI, as a user runs them.
import {describe, expect, it} from 'vitest'
import {acquireMaintenanceLock} from '../../../src/engines/maintenance/lock.js'
import {runCliInProcess} from '../../helpers/cli.js'
import {memRepo} from '../../helpers/mem.js'

const E2E = [
  'The payments e2e suite times out when the stripe mock container starts slowly.',
  'Retrying the checkout e2e test fixed a timeout caused by the stripe mock warming up.',
  'Stripe mock needs about 20 seconds before the e2e payment tests can connect.',
]

describe('mem consolidate and mem maintain', () => {
  it('consolidate --dry-run lists candidates and writes nothing; consolidate writes; a second run answers zeros', async () => {
    const {root: cwd, home} = memRepo()
    for (const content of E2E) expect((await runCliInProcess(['store', content, '--type', 'observation', '--tags', 'e2e'], {cwd, home})).code).toBe(0)

    const dry = await runCliInProcess(['consolidate', '--dry-run', '--json'], {cwd, home})
    expect(dry.code).toBe(0)
    const plan = dry.json()
    expect(plan).toMatchObject({candidates: 1, insightsCreated: 1, insightsBoosted: 0})
    expect(plan.clusters[0].memberIds).toHaveLength(3)
    expect((await runCliInProcess(['stats', '--json'], {cwd, home})).json().counts.insight).toBe(0)

    const human = await runCliInProcess(['consolidate', '--dry-run'], {cwd, home})
    expect(human.stdout).toMatch(/^Dry run: 1 candidate cluster; a run would create 1 insight/)
    expect(human.stdout).toMatch(/\nc-[0-9a-f]{12} {2}→ new insight {2}\[e2e\]\n/)
    expect(human.stdout).toMatch(/ — 3 observations, on \d+ \w{3}\.\n/)
    expect(human.stdout).toContain('from 3 observations:')
    for (const content of E2E) expect(human.stdout).toContain(`- ${content.replace(/\.$/, '').slice(0, 60)}`)
    const unknown = await runCliInProcess(['consolidate', '--cluster', 'c-000000000000'], {cwd, home})
    expect(unknown.code).not.toBe(0)
    expect(unknown.stderr).toMatch(/No current candidate cluster c-000000000000/)
    expect(unknown.stderr).toContain('mem consolidate --dry-run')

    expect((await runCliInProcess(['consolidate', '--json'], {cwd, home})).json()).toEqual({candidates: 1, insightsCreated: 1, insightsBoosted: 0})
    expect((await runCliInProcess(['stats', '--json'], {cwd, home})).json().counts.insight).toBe(1)
    const again = await runCliInProcess(['consolidate'], {cwd, home})
    expect(again.stdout.trim()).toBe('0 candidate clusters: 0 insights created, 0 boosted, 0 skipped.')
  })

  it('maintain runs the seven stages; --stage picks some; --json has no progress; --dry-run writes nothing', async () => {
    const {root: cwd, home} = memRepo()
    await runCliInProcess(['store', 'the same note twice', '--type', 'observation'], {cwd, home})
    const all = await runCliInProcess(['maintain', '--json'], {cwd, home})
    expect(all.code).toBe(0)
    expect(all.stderr).toBe('')
    const report = all.json()
    expect(report.stages.map((s: {name: string}) => s.name)).toEqual(['ttl-expiry', 'retention', 'dedup', 'decay', 'cleanup', 'enrichment', 'consolidation'])
    expect(report.repoId).toMatch(/repo$/)

    const some = (await runCliInProcess(['maintain', '--stage', 'decay', '--stage', 'dedup', '--json'], {cwd, home})).json()
    expect(some.stages.map((s: {name: string}) => s.name)).toEqual(['dedup', 'decay'])

    const human = await runCliInProcess(['maintain', '--dry-run'], {cwd, home})
    expect(human.code).toBe(0)
    expect(human.stdout).toMatch(/\(dry run: nothing was written\)/)
    expect(human.stdout).toMatch(/ttl-expiry\s+0 would change/)
    expect(human.stderr).toBe('') // not a terminal: no progress display

    const bad = await runCliInProcess(['maintain', '--stage', 'vacuum'], {cwd, home})
    expect(bad.code).toBe(2)
  })

  it('refuses a pass while another process holds the repo maintenance lock (exit 4)', async () => {
    const {root: cwd, home, ctx} = memRepo()
    await runCliInProcess(['store', 'a memory so the store exists', '--type', 'observation'], {cwd, home})
    const handle = await ctx.repo(cwd, 'write')
    const release = await acquireMaintenanceLock(handle.store.dir)
    try {
      const r = await runCliInProcess(['maintain', '--json'], {cwd, home})
      expect(r.code).toBe(4)
      expect(r.json()).toMatchObject({code: 'conflict', error: expect.stringMatching(/already running/)})
      expect((await runCliInProcess(['consolidate'], {cwd, home})).code).toBe(4)
      expect((await runCliInProcess(['maintain', '--dry-run', '--json'], {cwd, home})).code).toBe(0)
    } finally {
      await release()
    }
    expect((await runCliInProcess(['maintain', '--json'], {cwd, home})).code).toBe(0)
  })
})

describe('mem store of an update', () => {
  it('stores it, names the memory it updates and how to confirm or undo; the same text again is a duplicate', async () => {
    const {root: cwd, home} = memRepo()
    const first = await runCliInProcess(['store', "Convention: always start function argument names with 'e_'", '--type', 'heuristic', '--json'], {cwd, home})
    const old = first.json().id as string
    const second = await runCliInProcess(['store', "Convention: always start function argument names with 'j_'", '--type', 'heuristic'], {cwd, home})
    expect(second.code).toBe(0)
    expect(second.stdout).toMatch(/^Stored memories\/\S+\n/)
    expect(second.stdout).toContain(`looks like an update of ${old} ('e_' → 'j_')`)
    expect(second.stdout).toContain(`--supersedes ${old}`)
    expect(second.stdout).toContain('--relation distinct')
    const again = await runCliInProcess(['store', "Convention: always start function argument names with 'j_'", '--type', 'heuristic'], {cwd, home})
    expect(again.code).toBe(0)
    expect(again.stdout).toMatch(/^Already stored: duplicate of /)
  })
})
