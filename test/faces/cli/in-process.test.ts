/**
 * The in-process runner (test/helpers/cli.ts runCliInProcess), which most CLI tests use, against
 * the built CLI in its own process (bin/run.js): the same commands over two fresh repositories give
 * the same exit codes, stdout and stderr. This is also the CLI's real-process round trip: store
 * (argument and stdin), the quick `mem recall` path and oclif's, --json, help, errors and their exit
 * codes through bin/run.js.
 */
import {mkdirSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {BIN, type CliResult, runCli, runCliInProcess} from '../../helpers/cli.js'
import {tempDir} from '../../helpers/mem.js'

const TOKEN = 'ghp_' + 'a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8'

function repo() {
  const base = tempDir()
  const root = join(base, 'app')
  const home = join(base, 'home')
  mkdirSync(join(root, '.git'), {recursive: true})
  mkdirSync(join(base, 'other', '.git'), {recursive: true})
  return {base, root, home}
}

describe('the in-process CLI runner', () => {
  it('answers every kind of command exactly as bin/run.js does in its own process', async () => {
    const inProcess = repo()
    const real = repo()
    // [args, stdin, extra env] (paths under the repo's base folder are written <base>)
    const cases: Array<[string[], string?, Record<string, string>?]> = [
      [['store', 'integration suite: npm run test:int, needs docker', '--type', 'procedure', '--tags', 'testing,docker', '--json']],
      [['store', '--type', 'observation'], 'The staging cluster scales to zero at night\n'],
      [['store', '--type', 'heuristic', '--json']],
      [['store', `ci uses token ${TOKEN}`, '-t', 'observation']],
      [['recall', 'how do I run the integration tests?', '--json']],
      [['recall', 'x', '--limit', '500']],
      // refused by oclif's parser: under NODE_ENV=test oclif also has node print a warning
      [['recall', 'x', '--type', 'fact']],
      [['stats', '--json'], undefined, {MEM_REPO: '<base>/other'}],
      [['store', '--help']],
      [['no-such-command']],
      [['mcp', '--print-config']],
    ]
    const normalize = (r: CliResult, base: string) => {
      const clean = (s: string) =>
        s
          .replaceAll(base, '<base>')
          .replaceAll(base.replace(/[:\\/._]/g, '-'), '<base-id>')
          .replace(/\b[0-9a-f]{12}\b/g, '<hex>')
          // context lines end with a ref (a key prefix), which differs with the clock like the key
          .replace(/\[[0-9a-f]{8,11}\]$/gm, '[<ref>]')
          .replace(/\d{4}-\d\d-\d\dT[\d:.]+Z/g, '<time>')
          .replace(/\(node:\d+\)/g, '(node:<pid>)')
      return {code: r.code, stdout: clean(r.stdout), stderr: clean(r.stderr)}
    }
    for (const [args, input, env] of cases) {
      const at = (base: string) => ({
        args: args.map((a) => a.replace('<base>', base)),
        env: env && Object.fromEntries(Object.entries(env).map(([k, v]) => [k, v.replace('<base>', base)])),
      })
      const a = at(inProcess.base)
      const b = at(real.base)
      const mine = await runCliInProcess(a.args, {cwd: inProcess.root, home: inProcess.home, input, env: a.env})
      const theirs = runCli(b.args, {cwd: real.root, home: real.home, input, env: b.env})
      expect(normalize(mine, inProcess.base), args.join(' ')).toEqual(normalize(theirs, real.base))
    }
    // and the answers are the expected ones, not two equal failures
    const last = (args: string[]) => runCliInProcess(args, {cwd: inProcess.root, home: inProcess.home})
    expect((await last(['stats', '--json'])).json()).toMatchObject({total: 2, counts: {procedure: 1, observation: 1}})
    expect((await last(['recall', 'integration tests', '--json'])).json().results[0].content).toBe('integration suite: npm run test:int, needs docker')
    expect(await last(['store', `ci uses token ${TOKEN}`, '-t', 'observation'])).toMatchObject({code: 5, stderr: expect.stringMatching(/Rejected/)})
    expect(await last(['get', 'not-an-id'])).toMatchObject({code: 2, stderr: expect.stringMatching(/^Error: /)})
    expect((await last(['mcp', '--print-config'])).json()).toEqual({mcpServers: {mem: {command: 'mem', args: ['mcp']}}})
    expect((await last(['mcp', '--print-config', '--absolute'])).json()).toEqual({mcpServers: {mem: {command: process.execPath, args: [BIN, 'mcp']}}})
  }, 90_000) // 12 commands through bin/run.js, each starting node: 0.4 s each here, up to 2 s at load 8-12

  it('puts back what it stood in for, runs one command at a time, and keeps serve and mcp out', async () => {
    const {root, home} = repo()
    const before = {cwd: process.cwd(), argv: process.argv, console: globalThis.console, stdin: process.stdin, exitCode: process.exitCode, env: {...process.env}, drain: process.stdout.listenerCount('drain')}
    // three runs started at once are run one after another, each in its own folder and environment
    const [stored, failed, counted] = await Promise.all([
      runCliInProcess(['store', 'kept memory about builds', '-t', 'observation', '--json'], {cwd: root, home}),
      runCliInProcess(['store', '-t', 'observation'], {cwd: root, home, input: ''}),
      runCliInProcess(['stats', '--json'], {cwd: root, home}),
    ])
    expect(stored.json()).toMatchObject({success: true})
    expect(failed).toMatchObject({code: 2, stdout: '', stderr: expect.stringMatching(/content is empty/)})
    expect(counted.json()).toMatchObject({total: 1})
    expect({cwd: process.cwd(), argv: process.argv, console: globalThis.console, stdin: process.stdin, exitCode: process.exitCode, env: {...process.env}, drain: process.stdout.listenerCount('drain')}).toEqual(before)
    await expect(runCliInProcess(['serve', '--port', '0'], {cwd: root, home})).rejects.toThrow(/own process/)
    await expect(runCliInProcess(['mcp'], {cwd: root, home})).rejects.toThrow(/own process/)
  })
})
