/**
 * `mem recall` answered by the quick path (src/faces/cli/fast.ts) and by oclif (MEM_CLI_FAST=0) must be
 * indistinguishable: the same stdout, stderr and exit code, for good input and for bad.
 */
import {spawnSync} from 'node:child_process'
import {mkdirSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {BIN} from '../helpers/cli.js'
import {tempDir} from '../helpers/mem.js'

function mem(root: string, home: string, args: string[], fast: boolean) {
  const r = spawnSync(process.execPath, [BIN, ...args], {
    cwd: root,
    encoding: 'utf8',
    env: {...process.env, MEM_HOME: home, MEM_REPO: '', NO_COLOR: '1', MEM_CLI_FAST: fast ? '1' : '0'},
  })
  // a warning oclif may print names the process id
  return {status: r.status, stdout: r.stdout, stderr: r.stderr.replace(/\(node:\d+\)/g, '(node:PID)')}
}

describe('mem recall: the quick path answers exactly as oclif does', () => {
  it('for results, empty results and every kind of bad input', () => {
    const base = tempDir()
    const root = join(base, 'repo')
    const home = join(base, 'home')
    mkdirSync(join(root, '.git'), {recursive: true})
    for (const [content, type] of [
      ['Integration suite: npm run test:int, needs docker', 'procedure'],
      ['Unit tests run with vitest', 'heuristic'],
      ['The checkout e2e spec is flaky when the payment sandbox is slow', 'observation'],
    ]) {
      expect(mem(root, home, ['store', content, '--type', type], false).status).toBe(0)
    }
    const cases = [
      ['recall', 'how do I run the integration tests?'],
      ['recall', 'integration tests', '--json', '-n', '2', '-t', 'procedure'],
      ['recall', 'nothing matches zzqx'],
      ['recall', 'x', '--limit', '0', '--json'],
      ['recall', 'x', '--limit', '101'],
      ['recall', 'x'.repeat(4_001), '--json'],
      ['recall', 'x', '--type', 'fact'],
      ['recall', 'x', '--repo', '   ', '--json'],
      ['recall', '?!...'],
      ['recall', 'integration', '-n2', '--json'],
      ['recall', 'integration', '-n=2'],
      ['recall', 'integration', '-tprocedure', '--limit=1'],
    ]
    for (const args of cases) {
      const quick = mem(root, home, args, true)
      const oclif = mem(root, home, args, false)
      expect(quick, args.join(' ').slice(0, 60)).toEqual(oclif)
    }
    // and the outcomes are the expected ones (not two equal failures)
    expect(mem(root, home, cases[0], true).stdout).toMatch(/^ 1\. \[Procedure\] Integration suite/)
    expect(mem(root, home, cases[3], true).status).toBe(2)
  })
})
