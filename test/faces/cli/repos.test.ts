// `repo` names a repository, never an arbitrary folder (the CLI's side; HTTP's is in
// test/faces/server/repos.test.ts): a typo makes nothing, a plain folder is not a repository until
// `mem init`.
import {existsSync, mkdirSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {runCliInProcess} from '../../helpers/cli.js'
import {tempDir} from '../../helpers/mem.js'

describe('which folders a repo value may name (CLI)', () => {
  it('a typo in --repo fails with exit 2 and makes nothing; mem init makes a folder a repository', async () => {
    const base = tempDir()
    const home = join(base, 'home')
    const work = join(base, 'work')
    mkdirSync(work, {recursive: true})
    const typo = await runCliInProcess(['store', 'x', '-t', 'observation', '--repo', join(base, 'nope')], {cwd: work, home})
    expect(typo.code).toBe(2)
    expect(typo.stderr).toMatch(/Invalid repo: ".*nope" is not a folder/)
    expect(existsSync(join(base, 'nope'))).toBe(false)
    // a plain folder (no git, no .mem) is not a repository: reads and writes say so and make nothing
    const here = await runCliInProcess(['store', 'notes about the folder', '-t', 'observation', '--json'], {cwd: work, home})
    expect(here.code).toBe(2)
    expect(here.json()).toMatchObject({code: 'invalid_input', hint: expect.stringMatching(/mem init/)})
    expect((await runCliInProcess(['recall', 'notes'], {cwd: work, home})).code).toBe(2)
    expect(existsSync(join(work, '.mem'))).toBe(false)

    const init = await runCliInProcess(['init', '--json'], {cwd: work, home})
    expect(init.code).toBe(0)
    expect(init.json()).toMatchObject({path: work, created: true})
    expect(existsSync(join(work, '.mem', 'mem.db'))).toBe(true)
    expect((await runCliInProcess(['init', '--json'], {cwd: work, home})).json()).toMatchObject({created: false})
    expect((await runCliInProcess(['store', 'notes about the folder', '-t', 'observation'], {cwd: work, home})).code).toBe(0)
    expect((await runCliInProcess(['stats', '--json'], {cwd: work, home})).json().total).toBe(1)
    expect((await runCliInProcess(['repos', '--json'], {cwd: work, home})).json().repos.map((r: {path: string}) => r.path)).toContain(work)
    const missing = await runCliInProcess(['init', join(base, 'absent')], {cwd: work, home})
    expect(missing.code).toBe(2)
    expect(missing.stderr).toMatch(/is not a folder/)
  })
})
