// Intake benchmark (issue 7): `mem intake` on this repository itself (its files at HEAD, copied
// out with git archive so the benchmark never writes a .mem into the checkout) and on a
// synthetic monorepo of 2,000 files. For each: the first run (writes the seeds), a re-run (writes
// nothing), and a run after one file changed (replaces its seeds), in process through the core,
// plus the wall time of the CLI command a git hook runs. Prints figures; asserts nothing.
import {execFileSync, spawnSync} from 'node:child_process'
import {existsSync, mkdirSync, readFileSync, writeFileSync} from 'node:fs'
import {cpus, loadavg} from 'node:os'
import {dirname, join} from 'node:path'
import {BIN, fmt, median, tempRepo} from './lib/util.mjs'

const REPO_ROOT = join(import.meta.dirname, '..', '..')

function write(root, path, text) {
  const full = join(root, path)
  mkdirSync(dirname(full), {recursive: true})
  writeFileSync(full, text)
}

/** A monorepo of exactly `total` files: root docs and configs, packages with nested AGENTS.md, sources, and a node_modules intake must skip. */
export function syntheticRepo(root, total = 2000) {
  let files = 0
  const put = (path, text) => {
    write(root, path, text)
    files++
  }
  const scripts = Object.fromEntries(Array.from({length: 20}, (_, i) => [i === 0 ? 'test' : i === 1 ? 'build' : `task:${i}`, `node scripts/task-${i}.mjs --flag ${i}`]))
  put('package.json', JSON.stringify({name: 'mono', version: '1.0.0', type: 'module', engines: {node: '>=20'}, workspaces: ['packages/*'], scripts}, null, 2))
  put('README.md', `# Mono\n\nA synthetic monorepo for the intake benchmark, with many packages and files.\n\n## Development\n\n\`\`\`sh\nnpm install\nnpm test\nnpm run build\n\`\`\`\n`)
  put('AGENTS.md', `# Agents\n\n${Array.from({length: 30}, (_, i) => `- Rule ${i}: always run \`npm run task:${(i % 18) + 2}\` before touching module ${i}.`).join('\n')}\n`)
  put('CONTRIBUTING.md', `# Contributing\n\n${Array.from({length: 15}, (_, i) => `- You must keep package ${i} free of cycles.`).join('\n')}\n`)
  put('Makefile', Array.from({length: 20}, (_, i) => `target${i}: ## Build part ${i}\n\tnode build.mjs ${i}\n`).join('\n'))
  put('tsconfig.json', '{\n  // shared\n  "compilerOptions": {"strict": true, "module": "NodeNext", "outDir": "dist"},\n}\n')
  put('.editorconfig', 'root = true\n[*]\nindent_style = space\nindent_size = 2\n')
  put('pyproject.toml', '[project]\nname = "tools"\nrequires-python = ">=3.11"\n[tool.pytest.ini_options]\naddopts = "-q"\n')
  for (let i = 0; i < 200; i++) put(`node_modules/dep${i % 20}/file${i}.js`, `module.exports = ${i}\n`)
  const packages = 40
  for (let p = 0; p < packages; p++) {
    if (p % 4 === 0) put(`packages/pkg${p}/AGENTS.md`, `# pkg${p}\n\n- Never import from pkg${p + 1} directly.\n- Run \`npm test -w pkg${p}\` for this package only.\n`)
    put(`packages/pkg${p}/package.json`, JSON.stringify({name: `pkg${p}`, scripts: {test: 'vitest run'}}))
  }
  let n = 0
  while (files < total) {
    const p = n % packages
    put(`packages/pkg${p}/src/dir${n % 7}/file${n}.ts`, `export const value${n} = ${n}\n`)
    n++
  }
  return files
}

async function inProcess(root, home, change) {
  const {openMem} = await import('../../dist/src/runtime/open-mem.js')
  const {intake} = await import('../../dist/src/operations/intake.js')
  const ctx = openMem({home, cwd: root})
  const runs = []
  for (const label of ['first run', 're-run', 'after a change']) {
    if (label === 'after a change') change()
    const t = performance.now()
    const r = await intake(ctx, {repo: root})
    runs.push({label, ms: performance.now() - t, r})
  }
  await ctx.close()
  return runs
}

function cliWall(root, home, runs = 5) {
  const times = []
  for (let i = 0; i < runs; i++) {
    const t = performance.now()
    const r = spawnSync(process.execPath, [BIN, 'intake', '--json', '--repo', root], {cwd: root, env: {...process.env, MEM_HOME: home}, encoding: 'utf8'})
    if (r.status !== 0) throw new Error(`mem intake failed: ${r.stderr}`)
    times.push(performance.now() - t)
  }
  return median(times)
}

function report(name, files, runs, cliMs) {
  console.log(`${name} (${files} files; load average ${loadavg()[0].toFixed(1)} on ${cpus().length} cores):`)
  for (const {label, ms, r} of runs) {
    const removed = r.files.reduce((s, f) => s + f.removedCount, 0)
    console.log(`  ${label.padEnd(15)} ${fmt(ms, 0).padStart(6)} ms   new ${r.newCount}, replaced ${r.replacedCount}, skipped ${r.skippedCount}, removed ${removed}, from ${r.files.length} project files`)
  }
  console.log(`  CLI \`mem intake --json\` (what a hook runs; nothing to write): ${fmt(cliMs, 0)} ms wall, median of 5`)
}

/** Wall time of `git commit` without mem's hooks and with them (they only start intake in the background). */
async function hookOverhead(runs = 7) {
  const {root, home} = tempRepo('intake-hooks')
  execFileSync('rm', ['-rf', join(root, '.git')])
  const env = {...process.env, MEM_HOME: home, GIT_CONFIG_GLOBAL: '/dev/null', GIT_CONFIG_NOSYSTEM: '1'}
  const git = (...args) => execFileSync('git', args, {cwd: root, env, stdio: ['ignore', 'pipe', 'pipe']})
  git('init', '-q', '-b', 'main')
  git('config', 'user.name', 'Bench')
  git('config', 'user.email', 'bench@example.com')
  write(root, 'README.md', '# Bench\n\nA repository for timing git commits with and without the hooks.\n')
  write(root, 'package.json', JSON.stringify({name: 'bench', scripts: {test: 'node --test'}}))
  let n = 0
  const log = join(root, '.mem', 'hooks.log')
  const finished = () => (existsSync(log) ? (readFileSync(log, 'utf8').match(/: exit \d+/g) ?? []).length : 0)
  const commits = async (hooks) => {
    const times = []
    for (let i = 0; i < runs; i++) {
      write(root, `notes/${n}.txt`, `note ${n++}\n`)
      git('add', '-A')
      const before = finished()
      const t = performance.now()
      git('commit', '-q', '-m', `note ${n}`)
      times.push(performance.now() - t)
      // let the background intake finish, so it does not slow the next commit being timed
      for (const deadline = Date.now() + 30_000; hooks && finished() === before && Date.now() < deadline; ) await new Promise((r) => setTimeout(r, 50))
    }
    return median(times)
  }
  const without = await commits(false)
  const r = spawnSync(process.execPath, [BIN, 'hooks', 'install', '--repo', root], {cwd: root, env, encoding: 'utf8'})
  if (r.status !== 0) throw new Error(`mem hooks install failed: ${r.stderr}`)
  const withHooks = await commits(true)
  console.log(`git commit, median of ${runs}: ${fmt(without, 0)} ms without mem's hooks, ${fmt(withHooks, 0)} ms with them (intake runs after, in the background)`)
}

export async function benchIntake() {
  console.log('\n== intake (issue 7) ==')
  {
    const {root, home} = tempRepo('intake-self')
    const tar = execFileSync('git', ['-C', REPO_ROOT, 'archive', 'HEAD'], {maxBuffer: 1 << 28})
    execFileSync('tar', ['-x', '-C', root], {input: tar})
    const files = Number(execFileSync('git', ['-C', REPO_ROOT, 'ls-files'], {encoding: 'utf8'}).trim().split('\n').length)
    const runs = await inProcess(root, home, () => write(root, 'package.json', execFileSync('git', ['-C', REPO_ROOT, 'show', 'HEAD:package.json'], {encoding: 'utf8'}).replace('"vitest run"', '"vitest run --reporter dot"').replace('"node scripts/build.mjs"', '"node scripts/build.mjs --fast"')))
    report('this repository at HEAD', files, runs, cliWall(root, home))
  }
  {
    const {root, home} = tempRepo('intake-2000')
    const files = syntheticRepo(root, 2000)
    const runs = await inProcess(root, home, () => write(root, 'Makefile', Array.from({length: 20}, (_, i) => `target${i}: ## Build part ${i} (changed)\n\tnode build.mjs ${i}\n`).join('\n')))
    report('synthetic monorepo', files, runs, cliWall(root, home))
  }
  await hookOverhead()
}

if (import.meta.url === `file://${process.argv[1]}`) await (process.argv[2] === "--hooks" ? hookOverhead() : benchIntake())
