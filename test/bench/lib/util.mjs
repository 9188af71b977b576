import {spawn, spawnSync} from 'node:child_process'
import {createInterface} from 'node:readline'
import {mkdirSync, mkdtempSync} from 'node:fs'
import {tmpdir} from 'node:os'
import {join} from 'node:path'

export const BIN = join(import.meta.dirname, '..', '..', '..', 'bin', 'run.js')

export function tempRepo(name = 'bench') {
  const base = mkdtempSync(join(tmpdir(), `mem-bench-${name}-`))
  const root = join(base, 'repo')
  mkdirSync(join(root, '.git'), {recursive: true})
  return {base, root, home: join(base, 'home')}
}

export function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]
}

export const median = (values) => percentile(values, 50)

/** Wall time of a command, median of `runs` runs after one warm-up (ms). */
export function wallTime(args, {runs = 7, env = {}, cwd} = {}) {
  return wallTimesSideBySide([{args, env, cwd}], {runs})[0]
}

/**
 * Median wall times of several commands run in turn, round after round (side by side: a slow
 * moment of the machine hits them alike). Each command runs once unmeasured first. A command may
 * carry `input` (its standard input) and `before` (run, unmeasured, before each of its runs).
 */
export function wallTimesSideBySide(commands, {runs = 15} = {}) {
  const times = commands.map(() => [])
  for (let i = 0; i <= runs; i++) {
    commands.forEach(({args, env = {}, cwd, input: given, before}, c) => {
      before?.()
      // a function makes each run's input (a hook needs a new session id every time)
      const input = typeof given === 'function' ? given() : given
      const t = performance.now()
      const r = spawnSync(process.execPath, args, {env: {...process.env, ...env}, cwd, encoding: 'utf8', ...(input === undefined ? {} : {input})})
      const ms = performance.now() - t
      if (r.status !== 0) throw new Error(`${args.join(' ')} failed: ${r.stderr}`)
      if (i > 0) times[c].push(ms)
    })
  }
  return times.map(median)
}

export const fmt = (n, digits = 1) => Number(n).toFixed(digits)

/** Starts the built `mem serve` on a free loopback port; `started` resolves to its --json line. */
export function startServe(home, root) {
  const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--json', '--repo', root], {
    env: {...process.env, MEM_HOME: home, MEM_REPO: ''},
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  const exited = new Promise((resolve) => child.once('exit', (code) => resolve(code)))
  const started = new Promise((resolve, reject) => {
    createInterface({input: child.stdout}).once('line', (line) => resolve(JSON.parse(line)))
    child.once('exit', (code) => reject(new Error(`mem serve exited ${code}`)))
  })
  return {child, started, exited}
}
