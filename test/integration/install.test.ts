// Installing mem as a user does (issue 20): the package packed as npm would publish it, installed
// globally into a fresh prefix, and `mem` run from an unrelated git repository. Needs the npm
// registry (or npm's cache) for the dependencies; it never skips: without them it fails, saying why.
import {execFileSync, spawnSync} from 'node:child_process'
import {existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'
import {afterAll, describe, expect, it} from 'vitest'

const ROOT = join(import.meta.dirname, '..', '..')
const NPM = process.platform === 'win32' ? 'npm.cmd' : 'npm'
const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {name: string; version: string}

function npm(args: string[], cwd: string, env: NodeJS.ProcessEnv = process.env): {stdout: string; stderr: string} {
  const r = spawnSync(NPM, args, {cwd, env, encoding: 'utf8', timeout: 240_000})
  if (r.status !== 0) {
    throw new Error(
      `npm ${args.join(' ')} failed (exit ${r.status ?? r.signal}); this test needs npm and the npm registry (or npm's cache) to install the package's dependencies.\n${r.error?.message ?? ''}\n${r.stderr.slice(-2_000)}`,
    )
  }
  return {stdout: r.stdout, stderr: r.stderr}
}

describe('installing the package', () => {
  // the global install is thousands of files: removing them took more than the 30 s of an
  // onTestFinished hook at load 12, so they go after the test, with a budget of their own
  const base = mkdtempSync(join(tmpdir(), 'mem-install-'))
  afterAll(() => {
    rmSync(base, {recursive: true, force: true})
    // npm exec linked the package into a folder of npm's cache (_npx/<hash of its path>) that
    // nothing reuses (the path is new each run): that folder goes too, found by the path it records
    const npx = join(npm(['config', 'get', 'cache'], tmpdir()).stdout.trim(), '_npx')
    for (const dir of existsSync(npx) ? readdirSync(npx) : []) {
      try {
        const record = JSON.parse(readFileSync(join(npx, dir, 'package.json'), 'utf8')) as {_npx?: {packages?: string[]}}
        if (record._npx?.packages?.some((p) => p.startsWith(`${base}/`))) rmSync(join(npx, dir), {recursive: true, force: true})
      } catch {
        // another run's folder, being written or not npm exec's: not ours
      }
    }
  }, 180_000)

  it('npm pack → npm install -g into a fresh prefix → mem store / mem recall in an unrelated git repository; npm exec runs it too', {timeout: 300_000}, () => {
    expect(existsSync(join(ROOT, 'dist', 'cli', 'main.js')), 'the package is built first (npm test runs npm run build)').toBe(true)
    // 1. the tarball npm would publish (built already: scripts are not run again)
    const packed = JSON.parse(npm(['pack', '--json', '--ignore-scripts', '--pack-destination', base], ROOT).stdout) as Array<{filename: string; files: Array<{path: string}>}>
    const tarball = join(base, packed[0].filename)
    expect(packed[0].filename).toBe(`${pkg.name}-${pkg.version}.tgz`)
    const shipped = packed[0].files.map((f) => f.path)
    for (const needed of ['bin/run.js', 'dist/cli/main.js', 'dist/cli/fast.js', 'dist/ui/index.html', 'oclif.manifest.json', 'templates/agent-instructions.md', 'package.json', 'README.md']) {
      expect(shipped, needed).toContain(needed)
    }
    expect(shipped.some((p) => p.startsWith('src/') || p.startsWith('test/'))).toBe(false)
    // nor the build's source maps (22 MB of the 35 MB unpacked): node reads them only under --enable-source-maps
    expect(shipped.filter((p) => p.endsWith('.map'))).toEqual([])

    // 2. a global install into a prefix of its own (npm's cache first: fast, and offline when warm)
    const prefix = join(base, 'prefix')
    const installed = npm(['install', '--global', '--prefix', prefix, '--prefer-offline', '--no-audit', '--no-fund', '--loglevel=warn', tarball], base)
    // every dependency installs on the Node this package supports (a consumer gets no `overrides`)
    expect(installed.stderr).not.toContain('EBADENGINE')
    const bin = process.platform === 'win32' ? join(prefix, 'mem.cmd') : join(prefix, 'bin', 'mem')
    expect(existsSync(bin), `the package installs a \`mem\` command (${bin})`).toBe(true)
    expect(readdirSync(join(prefix, process.platform === 'win32' ? '' : 'lib', 'node_modules'))).toContain(pkg.name)

    // 3. a project that has nothing to do with mem
    const project = join(base, 'someone-elses-app')
    mkdirSync(project, {recursive: true})
    execFileSync('git', ['init', '-q'], {cwd: project})
    const env = {...process.env, MEM_HOME: join(base, 'home'), MEM_REPO: '', NO_COLOR: '1', PATH: `${join(prefix, 'bin')}:${process.env.PATH ?? ''}`}
    const mem = (...args: string[]) => spawnSync(bin, args, {cwd: project, env, encoding: 'utf8', timeout: 60_000})

    const version = mem('--version')
    expect(version.status, version.stderr).toBe(0)
    expect(version.stdout).toContain(`${pkg.name}/${pkg.version}`)
    const stored = mem('store', 'integration tests run with npm run test:int and need docker', '--type', 'procedure', '--tags', 'testing', '--json')
    expect(stored.status, stored.stderr).toBe(0)
    const {id, success} = JSON.parse(stored.stdout) as {id: string; success: boolean}
    expect(success).toBe(true)
    expect(id).toMatch(/^memories\/[^/]*someone-elses-app\/procedure\/[0-9a-f]{12}$/)
    expect(existsSync(join(project, '.mem', 'mem.db')) || existsSync(join(project, '.mem', 'journal'))).toBe(true)
    const recalled = mem('recall', 'how do I run the integration tests?', '--json')
    expect(recalled.status, recalled.stderr).toBe(0)
    expect((JSON.parse(recalled.stdout) as {results: Array<{id: string}>}).results.map((r) => r.id)).toEqual([id])
    const help = mem('-h')
    expect(help.status, help.stderr).toBe(0)
    expect(help.stdout).toMatch(/USAGE\s+\$ mem \[COMMAND\]/)

    // 4. without installing, as `npx mem-for-agents …` runs it: npm exec finds the package's one
    // command, `mem`. The package given is the one step 2 installed (a folder: npm links it), not
    // the tarball again: that its dependencies install is step 2's proof, and extracting the same
    // 294 packages a second time was 10 s of this file's CPU
    const installedPackage = join(prefix, process.platform === 'win32' ? '' : 'lib', 'node_modules', pkg.name)
    const npx = npm(['exec', '--yes', '--prefer-offline', `--package=${installedPackage}`, '--', 'mem', 'recall', 'integration tests docker', '--json'], project, {...env, PATH: process.env.PATH ?? ''})
    expect((JSON.parse(npx.stdout) as {results: Array<{id: string}>}).results.map((r) => r.id)).toEqual([id])
  })
})
