import {mkdirSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {runCliInProcess} from '../../helpers/cli.js'
import {tempDir} from '../../helpers/mem.js'

function repo() {
  const base = tempDir()
  const root = join(base, 'app')
  const home = join(base, 'home')
  mkdirSync(join(root, '.git'), {recursive: true})
  return {root, mem: (args: string[]) => runCliInProcess(args, {cwd: root, home})}
}

describe('mem browse without a terminal (pipe, --json)', () => {
  it('prints pages newest first and the next --skip; --json is the browse page', async () => {
    const {mem} = repo()
    expect((await mem(['browse'])).stdout).toContain('No memories yet.')
    const ids: string[] = []
    for (let i = 0; i < 3; i++) {
      const r = await mem(['store', `deploy step ${['one', 'two', 'three'][i]}: run the migration before the rollout ${i}`, '--type', i === 1 ? 'procedure' : 'observation', '--json'])
      ids.push(r.json().id)
    }
    const page = await mem(['browse', '--take', '2'])
    expect(page.code).toBe(0)
    expect(page.stdout).toContain('1–2 of 3 (next: --skip 2)')
    expect(page.stdout.indexOf(ids[2])).toBeLessThan(page.stdout.indexOf(ids[1]))
    expect(page.stdout).not.toContain('\u001b[?1049h') // no alternate screen into a pipe

    const json = (await mem(['browse', '--skip', '1', '--take', '5', '--json'])).json()
    expect(Object.keys(json).sort()).toEqual(['count', 'entries', 'repo', 'skip', 'take'])
    expect(json).toMatchObject({skip: 1, take: 5, count: 3})
    expect(json.entries.map((e: {id: string}) => e.id)).toEqual([ids[1], ids[0]])

    expect((await mem(['browse', '--type', 'procedure', '--json'])).json().entries.map((e: {id: string}) => e.id)).toEqual([ids[1]])
  })

  it('refuses a bad page size with exit code 2 and a hint', async () => {
    const {mem} = repo()
    const r = await mem(['browse', '--take', '0'])
    expect(r.code).toBe(2)
    expect(r.stderr).toContain('take must be 1 to 500')
    const j = await mem(['browse', '--take', '501', '--json'])
    expect(j.code).toBe(2)
    expect(j.json()).toMatchObject({code: 'invalid_input'})
  })
})
