/**
 * `mem recall` answered by the quick path (src/faces/cli/fast.ts) and by oclif (MEM_CLI_FAST=0) must be
 * indistinguishable: the same stdout, stderr and exit code, for good input and for bad.
 */
import {spawnSync} from 'node:child_process'
import {mkdirSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {BIN, runCliInProcess} from '../../helpers/cli.js'
import {tempDir} from '../../helpers/mem.js'

/** The built CLI in its own process (bin/run.js). */
function memProcess(root: string, home: string, args: string[], fast: boolean) {
  const r = spawnSync(process.execPath, [BIN, ...args], {
    cwd: root,
    encoding: 'utf8',
    env: {...process.env, MEM_HOME: home, MEM_REPO: '', NO_COLOR: '1', MEM_CLI_FAST: fast ? '1' : '0'},
  })
  // a warning oclif may print names the process id
  return {status: r.status, stdout: r.stdout, stderr: r.stderr.replace(/\(node:\d+\)/g, '(node:PID)')}
}

/** The same in this process (test/helpers/cli.ts): the quick path when it takes the arguments, as bin/run.js. */
async function mem(root: string, home: string, args: string[], fast: boolean) {
  const r = await runCliInProcess(args, {cwd: root, home, env: {MEM_CLI_FAST: fast ? '1' : '0'}})
  return {status: r.code, stdout: r.stdout, stderr: r.stderr}
}

async function seeded() {
  const base = tempDir()
  const root = join(base, 'repo')
  const home = join(base, 'home')
  mkdirSync(join(root, '.git'), {recursive: true})
  for (const [content, type] of [
    ['Integration suite: npm run test:int, needs docker', 'procedure'],
    ['Unit tests run with vitest', 'heuristic'],
    ['The checkout e2e spec is flaky when the payment sandbox is slow', 'observation'],
  ]) {
    expect((await mem(root, home, ['store', content, '--type', type], false)).status).toBe(0)
  }
  return {root, home}
}

const CASES = [
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

describe('mem recall: the quick path answers exactly as oclif does', () => {
  it('for results, empty results and every kind of bad input', async () => {
    const {root, home} = await seeded()
    for (const args of CASES) {
      const quick = await mem(root, home, args, true)
      const oclif = await mem(root, home, args, false)
      expect(quick, args.join(' ').slice(0, 60)).toEqual(oclif)
    }
    // and the outcomes are the expected ones (not two equal failures)
    expect((await mem(root, home, CASES[0], true)).stdout).toMatch(/^ 1\. \[Procedure\] Integration suite/)
    expect((await mem(root, home, CASES[3], true)).status).toBe(2)
  })

  it('in its own process too (bin/run.js), where node could add a warning of its own to stderr', async () => {
    const {root, home} = await seeded()
    // an answer and a refusal, both given by the quick path
    const [answer, refusal] = [CASES[1], CASES[3]].map((args) => memProcess(root, home, args, true))
    expect(JSON.parse(answer.stdout).results[0].content).toBe('Integration suite: npm run test:int, needs docker')
    expect(refusal.status).toBe(2)
    expect(answer).toEqual(memProcess(root, home, CASES[1], false))
    expect(refusal).toEqual(memProcess(root, home, CASES[3], false))
    // and the in-process runner the other tests use gives the same
    expect(answer).toEqual(await mem(root, home, CASES[1], true))
    expect(refusal).toEqual(await mem(root, home, CASES[3], true))
  })
})
