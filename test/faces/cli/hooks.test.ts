import {chmodSync, existsSync, readFileSync, statSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {execa} from 'execa'
import {describe, expect, it} from 'vitest'
import {type CliResult, runCliInProcess} from '../../helpers/cli.js'
import {tempDir, writeTree} from '../../helpers/mem.js'
import {eventually} from '../../helpers/server.js'

// git sees neither the machine's nor the user's config: core.hooksPath set globally would move the hooks
const GIT_ENV = {GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1', GIT_TERMINAL_PROMPT: '0'}

const FILES = {
  'README.md': '# Shop\n\nA small web shop used to demo the checkout flow end to end.\n',
  'package.json': JSON.stringify({name: 'shop', scripts: {test: 'vitest run', build: 'tsc'}}),
}

async function gitRepo(files: Record<string, string> = {}) {
  const base = tempDir('mem-hooks-')
  const root = join(base, 'repo')
  const home = join(base, 'home')
  writeTree(root, {'.keep': ''})
  const env = {...GIT_ENV, MEM_HOME: home}
  const git = (...args: string[]) => execa('git', args, {cwd: root, env, stdin: 'ignore'})
  await git('init', '-q', '-b', 'main')
  await git('config', 'user.name', 'Test')
  await git('config', 'user.email', 'test@example.com')
  const cli = (args: string[]) => runCliInProcess(args, {cwd: root, home, env: GIT_ENV})
  const commit = async (tree: Record<string, string>, message: string) => {
    writeTree(root, tree)
    await git('add', '-A')
    return git('commit', '-q', '-m', message)
  }
  if (Object.keys(files).length) writeTree(root, files)
  return {base, root, home, env, git, cli, commit}
}

/** Live intake seeds of the repo, read through the CLI as a user would. */
async function seeds(cli: (args: string[]) => Promise<CliResult>): Promise<Array<{source: string; content: string}>> {
  const r = await cli(['browse', '--json', '--take', '500'])
  if (r.code !== 0) return []
  return r.json().entries.filter((m: {source: string}) => m.source.startsWith('intake:'))
}

const hookLog = (root: string) => (existsSync(join(root, '.mem', 'hooks.log')) ? readFileSync(join(root, '.mem', 'hooks.log'), 'utf8') : '')

/**
 * Waits until the `runs` hook runs the test's git commands started have ended, and checks that no
 * other started: a run still writing into the repo when the test ends would race its removal.
 */
async function hookRunsEnded(root: string, runs: number) {
  await eventually(() => (hookLog(root).match(/^\[[^\]]+\] post-\w+: exit \d+$/gm) ?? []).length >= runs, 30_000)
  expect(hookLog(root).match(/^\[[^\]]+\] post-\w+: mem intake$/gm)).toHaveLength(runs)
}

// git runs the hooks, which start `node bin/run.js intake` in the background (five runs in the
// first test); each wait for one allows 30 s: 4-8 s a test here, so 60 s keeps them well clear
describe('mem hooks', {timeout: 60_000}, () => {
  it('install adds three executable hooks; a real commit runs intake in the background; uninstall removes them', async () => {
    const {root, cli, commit, git} = await gitRepo()
    const installed = await cli(['hooks', 'install', '--json'])
    expect(installed.code).toBe(0)
    const body = installed.json()
    expect(body.hooksPath).toBe(join(root, '.git', 'hooks'))
    expect(body.hooks).toEqual([
      {name: 'post-commit', action: 'created'},
      {name: 'post-merge', action: 'created'},
      {name: 'post-checkout', action: 'created'},
    ])
    for (const name of ['post-commit', 'post-merge', 'post-checkout']) {
      const path = join(root, '.git', 'hooks', name)
      expect(statSync(path).mode & 0o111).not.toBe(0)
      expect(readFileSync(path, 'utf8')).toContain(`# >>> mem hooks: ${name} >>>`)
    }
    expect((await cli(['hooks', 'install', '--json'])).json().hooks.map((h: {action: string}) => h.action)).toEqual(['unchanged', 'unchanged', 'unchanged'])

    const done = await commit(FILES, 'first')
    expect(done.exitCode).toBe(0)
    // the hook logs its run's exit after intake has ended: the seeds are read once it has, not
    // through the CLI every 25 ms while intake runs (which took a core from it)
    await eventually(() => /post-commit: exit 0/.test(hookLog(root)), 30_000)
    const found = await eventually(async () => {
      const s = await seeds(cli)
      return s.some((m) => m.source === 'intake:package.json') && s.some((m) => m.source === 'intake:README.md') ? s : undefined
    }, 30_000)
    expect(found.find((m) => m.content.includes('`npm test`'))).toMatchObject({source: 'intake:package.json'})
    // the log stays out of git
    expect((await git('status', '--porcelain')).stdout).not.toMatch(/hooks\.log/)

    // a branch checkout runs it too
    await git('checkout', '-q', '-b', 'feature')
    await eventually(() => /post-checkout: exit 0/.test(hookLog(root)), 30_000)
    // and a merge: the merged README change reaches the seeds
    await commit({'README.md': '# Shop\n\nA small web shop that demos checkout, refunds and invoices.\n'}, 'readme')
    await git('checkout', '-q', 'main')
    await git('merge', '-q', '--no-ff', '-m', 'merge feature', 'feature')
    await eventually(() => /post-merge: exit 0/.test(hookLog(root)), 30_000)
    await eventually(async () => (await seeds(cli)).some((m) => m.content.includes('refunds and invoices')), 30_000)

    const removed = await cli(['hooks', 'uninstall', '--json'])
    expect(removed.code).toBe(0)
    expect(removed.json().hooks.map((h: {action: string}) => h.action)).toEqual(['removed', 'removed', 'removed'])
    for (const name of ['post-commit', 'post-merge', 'post-checkout']) expect(existsSync(join(root, '.git', 'hooks', name))).toBe(false)
    expect((await cli(['hooks', 'uninstall', '--json'])).json().hooks.map((h: {action: string}) => h.action)).toEqual(['absent', 'absent', 'absent'])
    // first commit, checkout -b, readme commit, checkout main, merge
    await hookRunsEnded(root, 5)
  })

  it('an existing shell hook keeps working (chained), and uninstall gives back its exact bytes', async () => {
    const {root, cli, commit} = await gitRepo()
    const original = '#!/bin/sh\nset -e\necho "ran $(git rev-parse --short HEAD)" >> hook-ran.txt\nexit 0\n'
    const path = join(root, '.git', 'hooks', 'post-commit')
    writeFileSync(path, original)
    chmodSync(path, 0o755)
    expect((await cli(['hooks', 'install', '--json'])).json().hooks[0]).toEqual({name: 'post-commit', action: 'chained'})
    const text = readFileSync(path, 'utf8')
    expect(text.startsWith('#!/bin/sh\n# >>> mem hooks: post-commit >>>')).toBe(true)
    expect(text.endsWith('set -e\necho "ran $(git rev-parse --short HEAD)" >> hook-ran.txt\nexit 0\n')).toBe(true)

    await commit(FILES, 'first')
    expect(readFileSync(join(root, 'hook-ran.txt'), 'utf8')).toMatch(/^ran [0-9a-f]+\n$/)
    await eventually(() => /post-commit: exit 0/.test(hookLog(root)), 30_000)
    await eventually(async () => (await seeds(cli)).length > 0, 30_000)

    expect((await cli(['hooks', 'uninstall', '--json'])).json().hooks[0]).toEqual({name: 'post-commit', action: 'restored'})
    expect(readFileSync(path, 'utf8')).toBe(original)
    await hookRunsEnded(root, 1)
  })

  it('respects core.hooksPath (husky style) and chains into its hook', async () => {
    const {root, cli, commit, git} = await gitRepo()
    await git('config', 'core.hooksPath', '.husky')
    const original = '#!/usr/bin/env sh\necho husky >> husky-ran.txt\nexit 0\n'
    writeTree(root, {'.husky/post-commit': original})
    chmodSync(join(root, '.husky', 'post-commit'), 0o755)
    const body = (await cli(['hooks', 'install', '--json'])).json()
    expect(body.hooksPath).toBe(join(root, '.husky'))
    expect(body.hooks.map((h: {action: string}) => h.action)).toEqual(['chained', 'created', 'created'])
    expect(existsSync(join(root, '.git', 'hooks', 'post-commit'))).toBe(false)

    await commit(FILES, 'first')
    expect(readFileSync(join(root, 'husky-ran.txt'), 'utf8')).toBe('husky\n')
    await eventually(() => /post-commit: exit 0/.test(hookLog(root)), 30_000)
    await eventually(async () => (await seeds(cli)).length > 0, 30_000)

    await cli(['hooks', 'uninstall'])
    expect(readFileSync(join(root, '.husky', 'post-commit'), 'utf8')).toBe(original)
    expect(existsSync(join(root, '.husky', 'post-merge'))).toBe(false)
    await hookRunsEnded(root, 1)
  })

  it('a hook in another language is moved aside and still runs, with its arguments; uninstall moves it back', async () => {
    const {root, cli, git, commit} = await gitRepo()
    await commit(FILES, 'first')
    const original = `#!${process.execPath}\nimport('node:fs').then((fs) => fs.appendFileSync('checkout-args.txt', process.argv.slice(2).join(' ') + '\\n'))\n`
    const path = join(root, '.git', 'hooks', 'post-checkout')
    writeFileSync(path, original)
    chmodSync(path, 0o755)
    expect((await cli(['hooks', 'install', '--json'])).json().hooks[2]).toEqual({name: 'post-checkout', action: 'wrapped'})
    expect(readFileSync(`${path}.mem-chained`, 'utf8')).toBe(original)

    await git('checkout', '-q', '-b', 'feature')
    const args = readFileSync(join(root, 'checkout-args.txt'), 'utf8').trim().split(' ')
    expect(args).toHaveLength(3)
    expect(args[2]).toBe('1')
    await eventually(() => /post-checkout: exit 0/.test(hookLog(root)), 30_000)

    expect((await cli(['hooks', 'uninstall', '--json'])).json().hooks[2]).toEqual({name: 'post-checkout', action: 'restored'})
    expect(readFileSync(path, 'utf8')).toBe(original)
    expect(existsSync(`${path}.mem-chained`)).toBe(false)
    await hookRunsEnded(root, 1) // the checkout (the first commit came before the install)
  })

  it('never breaks git: a failing intake leaves the commit alone; MEM_HOOKS_DISABLE skips it', async () => {
    const {root, cli, commit, git, env} = await gitRepo()
    expect((await cli(['hooks', 'install'])).code).toBe(0)
    // a store mem cannot read: intake fails in the background, the commit does not
    writeTree(root, {'.mem/mem.db': 'this is not a database'})
    const r = await commit(FILES, 'first')
    expect(r.exitCode).toBe(0)
    await eventually(() => /post-commit: exit [1-9]\d*/.test(hookLog(root)), 30_000)
    expect((await git('log', '--oneline')).stdout.split('\n')).toHaveLength(1)

    writeTree(root, {'.mem/mem.db': ''})
    const before = hookLog(root)
    writeTree(root, {'NOTES.md': 'x'})
    await git('add', '-A')
    await execa('git', ['commit', '-q', '-m', 'second'], {cwd: root, env: {...env, MEM_HOOKS_DISABLE: '1'}, stdin: 'ignore'})
    await new Promise((r) => setTimeout(r, 500))
    expect(hookLog(root)).toBe(before)
    await hookRunsEnded(root, 1)
  })

  it('stops an intake that never returns (a read stuck inside one file) at twice the limit and 5 s', async () => {
    const {root, base, cli, commit} = await gitRepo()
    expect((await cli(['hooks', 'install', '--time-limit', '1'])).code).toBe(0)
    // the hook's `mem` made into one that blocks without end, as a pattern stuck on a hostile file did
    const stuck = join(base, 'stuck.js')
    writeFileSync(stuck, 'Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0)\n')
    const hook = join(root, '.git', 'hooks', 'post-commit')
    writeFileSync(hook, readFileSync(hook, 'utf8').replace(/mem_bin='[^']*'/, `mem_bin='${stuck}'`))
    const began = Date.now()
    expect((await commit(FILES, 'first')).exitCode).toBe(0)
    await eventually(() => /post-commit: exit \d+/.test(hookLog(root)), 30_000)
    expect(hookLog(root)).toMatch(/post-commit: exit 124$/m) // coreutils' timeout: the command timed out
    expect(Date.now() - began).toBeGreaterThanOrEqual(6_000)
  })

  it('bad inputs: not a git repository, a hook that is not executable, a bad time limit', async () => {
    const dir = tempDir('mem-nogit-')
    const home = join(dir, 'home')
    writeTree(dir, {'plain/README.md': '# x'})
    const notGit = await runCliInProcess(['hooks', 'install'], {cwd: join(dir, 'plain'), home, env: {...GIT_ENV, GIT_CEILING_DIRECTORIES: dir}})
    expect(notGit.code).toBe(2)
    expect(notGit.stderr).toMatch(/is not a repository \(not a git work tree/)
    expect(notGit.stderr).toMatch(/Hint: .*git init/)
    const asJson = await runCliInProcess(['hooks', 'uninstall', '--json'], {cwd: join(dir, 'plain'), home, env: {...GIT_ENV, GIT_CEILING_DIRECTORIES: dir}})
    expect(asJson.code).toBe(2)
    expect(asJson.json()).toMatchObject({code: 'invalid_input', error: expect.stringMatching(/is not a repository/)})

    const {root, cli} = await gitRepo()
    const path = join(root, '.git', 'hooks', 'post-merge')
    writeFileSync(path, '#!/bin/sh\necho disabled\n')
    chmodSync(path, 0o644)
    const r = await cli(['hooks', 'install', '--json'])
    expect(r.code).toBe(1)
    expect(r.json().hooks[1]).toMatchObject({name: 'post-merge', action: 'skipped', reason: expect.stringMatching(/not executable/)})
    expect(readFileSync(path, 'utf8')).toBe('#!/bin/sh\necho disabled\n')

    const bad = await cli(['hooks', 'install', '--time-limit', '0'])
    expect(bad.code).toBe(2)
    expect(bad.stderr).toMatch(/time-limit/)
  })
})
