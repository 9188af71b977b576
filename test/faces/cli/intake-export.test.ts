// mem intake and mem export through the CLI (in process: test/helpers/cli.ts), with their bad
// inputs. The same over HTTP: test/faces/server/intake-export-graph.test.ts.
import {readFileSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import * as SO from '../../../src/model/shapes/operations.js'
import {ErrorResponse} from '../../../src/model/shapes/common.js'
import {runCliInProcess} from '../../helpers/cli.js'
import {memRepo} from '../../helpers/mem.js'

const FILES = {
  'AGENTS.md': '# Agents\n\n## Tests\n\n- Always run `npm test` before pushing.\n- Never edit generated files under dist/.\n',
  'package.json': JSON.stringify({name: 'shop', engines: {node: '>=20'}, scripts: {test: 'vitest run', build: 'tsc'}}),
  // npm's lock file: what says the package manager is npm (intake names it on evidence only)
  'package-lock.json': JSON.stringify({name: 'shop', lockfileVersion: 3, requires: true, packages: {}}),
  'go.mod': 'module example.com/shop\n\ngo 1.22\n',
}

describe('mem intake / export (CLI)', () => {
  it('intake prints a summary, --json equals the HTTP body shape; a re-run skips; export writes markdown', async () => {
    const {root, home} = memRepo(FILES)
    const first = await runCliInProcess(['intake'], {cwd: root, home})
    expect(first.code).toBe(0)
    expect(first.stdout).toMatch(/^Intake of .*: 8 new, 0 skipped\.\n/)
    expect(first.stdout).toMatch(/package\.json\s+4 seeds, 4 new/)

    const again = await runCliInProcess(['intake', '--json'], {cwd: root, home})
    expect(again.code).toBe(0)
    const body = SO.IntakeResult.parse(again.json())
    expect(body).toMatchObject({newCount: 0, skippedCount: 8, replacedCount: 0})
    expect(body.files.map((f) => f.path)).toEqual(['AGENTS.md', 'package.json', 'go.mod'])

    writeFileSync(join(root, 'go.mod'), 'module example.com/shop\n\ngo 1.23\n')
    expect((await runCliInProcess(['intake', '--json'], {cwd: root, home})).json()).toMatchObject({newCount: 1, replacedCount: 1, skippedCount: 7})

    const md = await runCliInProcess(['export'], {cwd: root, home})
    expect(md.code).toBe(0)
    expect(md.stdout).toMatch(/^# Memories of /)
    expect(md.stdout).toContain('## Procedures (')
    expect(md.stdout).toContain('> Go module example.com/shop, Go 1.23 (go.mod).')
    expect(md.stdout).not.toContain('Go 1.22')
    expect((await runCliInProcess(['export'], {cwd: root, home})).stdout).toBe(md.stdout)

    const out = join(root, 'MEMORIES.md')
    const written = await runCliInProcess(['export', '--out', out, '--json'], {cwd: root, home})
    expect(written.code).toBe(0)
    expect(written.json()).toEqual({repo: expect.any(String), count: 8, out, bytes: Buffer.byteLength(md.stdout)})
    expect(readFileSync(out, 'utf8')).toBe(md.stdout)
  })

  it('bad inputs: an unknown repo id (exit 3), a bad time limit (exit 2), an unwritable --out (exit 2)', async () => {
    const {root, home} = memRepo(FILES)
    const unknown = await runCliInProcess(['intake', '--repo', 'no-such-repo'], {cwd: root, home})
    expect(unknown.code).toBe(3)
    expect(unknown.stderr).toMatch(/^Error: No project directory for repo no-such-repo/)
    expect(unknown.stderr).toMatch(/Hint: Pass the repository by its path/)
    const json = await runCliInProcess(['intake', '--repo', 'no-such-repo', '--json'], {cwd: root, home})
    expect(json.code).toBe(3)
    expect(ErrorResponse.parse(json.json()).code).toBe('not_found')
    expect((await runCliInProcess(['intake', '--time-limit', '0'], {cwd: root, home})).code).toBe(2)
    const badOut = await runCliInProcess(['export', '--out', join(root, 'missing', 'dir', 'x.md')], {cwd: root, home})
    expect(badOut.code).toBe(2)
    expect(badOut.stderr).toMatch(/Cannot write .*x\.md \(ENOENT\)/)
  })
})
