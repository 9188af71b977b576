import {existsSync, mkdirSync, readFileSync} from 'node:fs'
import {basename, join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {runCliInProcess} from '../../helpers/cli.js'
import {storeFiles, tempDir} from '../../helpers/mem.js'
import {makeReadOnly} from '../../helpers/readonly.js'

function repo() {
  const base = tempDir()
  const root = join(base, 'app')
  const home = join(base, 'home')
  mkdirSync(join(root, '.git'), {recursive: true})
  mkdirSync(join(root, 'src', 'deep'), {recursive: true})
  const mem = (args: string[], extra: {input?: string; cwd?: string; env?: Record<string, string>} = {}) =>
    runCliInProcess(args, {cwd: extra.cwd ?? root, home, input: extra.input, env: extra.env})
  return {root, home, mem, repoId: root.replace(/[:\\/._]/g, '-')}
}

describe('mem CLI', () => {
  it('stores, gets, recalls, edits, forgets, and shows history and stats as a user would', async () => {
    const {root, mem, repoId} = repo()
    const stored = await mem(['store', 'integration suite: npm run test:int, needs docker', '--type', 'procedure', '--tags', 'testing,docker', '--json'])
    expect(stored.code).toBe(0)
    const {id, success} = stored.json()
    expect(success).toBe(true)
    expect(id).toMatch(new RegExp(`^memories/${repoId}/procedure/[0-9a-f]{12}$`))
    expect(readFileSync(join(root, '.mem', '.gitignore'), 'utf8')).toContain('mem.db')

    // from a subfolder: the repo root is found by walking up to .git
    const got = await mem(['get', id, '--json'], {cwd: join(root, 'src', 'deep')})
    expect(got.code).toBe(0)
    expect(got.json()).toMatchObject({id, type: 'procedure', tags: ['testing', 'docker'], importance: 0.5})

    const human = await mem(['get', id])
    expect(human.stdout).toContain('integration suite')

    const recalled = await mem(['recall', 'how do I run the integration tests?', '--json'])
    expect(recalled.code).toBe(0)
    const {results} = recalled.json()
    expect(results[0]).toMatchObject({id, repoId, type: 'Procedure'})
    expect(Object.keys(results[0]).sort()).toEqual(
      ['ageDays', 'content', 'createdAt', 'id', 'importance', 'oneLiner', 'origin', 'repoId', 'score', 'stalenessWarning', 'tags', 'type'].sort(),
    )

    const edited = await mem(['edit', id, '--content', 'integration suite: npm run test:int; docker must be running', '--json'])
    expect(edited.code).toBe(0)
    const e = edited.json()
    expect(e).toMatchObject({success: true, superseded: id})

    const hist = (await mem(['history', e.id, '--json'])).json()
    expect(hist.chain.map((c: {id: string}) => c.id)).toEqual([e.id, id])

    expect((await mem(['feedback', e.id, '--used', '--json'])).json()).toEqual({applied: true})
    expect((await mem(['stats', '--json'])).json()).toMatchObject({counts: {procedure: 1}, total: 1})
    expect((await mem(['forget', e.id, '--reason', 'obsolete', '--json'])).json()).toEqual({forgotten: true})
    expect((await mem(['stats', '--json'])).json().total).toBe(0)
    const listed = (await mem(['repos', '--json'])).json()
    expect(listed.repos).toContainEqual({repoId, path: root, name: basename(root)})
    expect(listed.current).toEqual({repoId, path: root, name: basename(root)})
    const shown = (await mem(['repos'])).stdout.split('\n')
    expect(shown).toContainEqual(`* ${basename(root)}  ${root}  ${repoId}`)
  })

  it('reads content from standard input', async () => {
    const {mem} = repo()
    const r = await mem(['store', '--type', 'observation', '--json'], {input: 'The staging cluster scales to zero at night\n'})
    expect(r.code).toBe(0)
    expect(r.json().success).toBe(true)
  })

  it('reports a duplicate with exit 0 and the duplicate id', async () => {
    const {mem} = repo()
    const first = (await mem(['store', 'Prefer small pull requests', '-t', 'heuristic', '--json'])).json()
    const second = await mem(['store', 'prefer small  pull requests!', '-t', 'heuristic', '--json'])
    expect(second.code).toBe(0)
    expect(second.json()).toEqual({success: false, duplicateId: first.id, reason: 'duplicate'})
  })

  it('rejects a secret with exit 5, writes nothing, and never prints it', async () => {
    const {root, mem} = repo()
    const token = 'ghp_' + 'a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8'
    const r = await mem(['store', `ci uses token ${token}`, '-t', 'observation', '--json'])
    expect(r.code).toBe(5)
    expect(r.json().success).toBe(false)
    expect(r.stdout + r.stderr).not.toContain(token)
    const human = await mem(['store', `ci uses token ${token}`, '-t', 'observation'])
    expect(human.code).toBe(5)
    expect(human.stdout + human.stderr).not.toContain(token)
    expect(human.stderr).toMatch(/Rejected/)
    // nothing reached the disk: in a repo without a store, no store was made at all
    expect(existsSync(join(root, '.mem'))).toBe(false)
    // in one with a store, no file of it holds the secret
    expect((await mem(['store', 'the ci token lives in the vault', '-t', 'observation'])).code).toBe(0)
    expect((await mem(['store', `ci uses token ${token}`, '-t', 'observation'])).code).toBe(5)
    const files = storeFiles(root)
    expect(files.map((f) => basename(f.path))).toEqual(expect.arrayContaining(['journal', 'mem.db']))
    for (const f of files) expect(f.text, f.path).not.toContain(token)
    expect(files.some((f) => f.text.includes('the ci token lives in the vault'))).toBe(true)
  })

  it('bad input: missing content, unknown type, importance outside 0..1, content over the limit, bad ids', async () => {
    const {mem} = repo()
    const cases: Array<[string[], number, RegExp]> = [
      [['store', '--type', 'observation'], 2, /content/i],
      [['store', 'x y', '--type', 'fact'], 2, /type/i],
      [['store', 'x y', '--type', 'insight', '--importance', '1.5'], 2, /importance/i],
      [['store', 'x y', '--type', 'insight', '--importance', 'high'], 2, /importance/i],
      [['store', 'x'.repeat(16_001), '--type', 'insight'], 2, /16,000/],
      [['get', 'not-an-id'], 2, /id/i],
      [['get', 'memories/x/insight/abcdefabcdef'], 3, /No memory/],
      [['forget', 'memories/x/insight/abcdefabcdef'], 3, /No memory/],
      [['feedback', 'memories/x/insight/abcdefabcdef'], 2, /--used or --unused/],
      [['edit', 'memories/x/insight/abcdefabcdef'], 2, /at least one/],
      [['browse', '--take', '0'], 2, /take/],
      [['recall', 'x', '--limit', '500'], 2, /limit/],
    ]
    for (const [args, code, message] of cases) {
      const human = await mem(args)
      expect(human.code, args.join(' ')).toBe(code)
      expect(human.stderr, args.join(' ')).toMatch(message)
      expect(human.stderr).toMatch(/^Error: /)
      const json = await mem([...args, '--json'])
      expect(json.code, args.join(' ')).toBe(code)
      const body = json.json()
      expect(body.error).toMatch(message)
      expect(typeof body.code).toBe('string')
    }
  })

  it('a read-only .mem: reads work, a store fails with exit 69 and a clear message', async () => {
    const {root, mem} = repo()
    expect((await mem(['store', 'kept memory about builds', '-t', 'observation'])).code).toBe(0)
    const dir = join(root, '.mem')
    const undo = makeReadOnly([dir, join(dir, 'journal'), join(dir, 'mem.db')])
    try {
      expect((await mem(['stats', '--json'])).json().total).toBe(1)
      const r = await mem(['store', 'not written', '-t', 'observation'])
      expect(r.code).toBe(69)
      expect(r.stderr).toMatch(/read-only/)
    } finally {
      undo()
    }
    expect((await mem(['stats', '--json'])).json().total).toBe(1)
  })

  it('--repo and MEM_REPO select another repository', async () => {
    const {mem, home} = repo()
    const other = join(home, '..', 'other')
    mkdirSync(join(other, '.git'), {recursive: true})
    expect((await mem(['store', 'belongs to other', '-t', 'insight', '--repo', other])).code).toBe(0)
    expect((await mem(['stats', '--json'])).json().total).toBe(0)
    expect((await mem(['stats', '--json', '--repo', other])).json().total).toBe(1)
    expect((await mem(['stats', '--json'], {env: {MEM_REPO: other}})).json().total).toBe(1)
  })

  it('context starts with the counts line and stays under the budget', async () => {
    const {mem} = repo()
    await mem(['store', 'Release with npm run release from main only', '-t', 'procedure'])
    await mem(['store', 'Flaky tests are quarantined, not retried', '-t', 'heuristic'])
    const r = await mem(['context', '--json'])
    expect(r.code).toBe(0)
    const lines = r.json().context.split('\n')
    expect(lines[0]).toBe('[Memory: 2 entries, 0 observations, 0 insights, 1 procedures, 1 heuristics]')
    expect(lines.slice(1).every((l: string) => /^\[[IPH]\] /.test(l))).toBe(true)
  })

  it('every command has help with examples', async () => {
    const {mem} = repo()
    for (const cmd of ['store', 'recall', 'context', 'get', 'edit', 'forget', 'history', 'feedback', 'stats', 'browse', 'repos']) {
      const r = await mem([cmd, '--help'])
      expect(r.code, cmd).toBe(0)
      expect(r.stdout, cmd).toMatch(/EXAMPLES/)
      expect(r.stdout, cmd).toMatch(/--json/)
    }
  })
})
