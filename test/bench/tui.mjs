// Terminal browser benchmark (issue 10): time to the first screen of `mem browse` on a terminal,
// at 10k and 100k memories. What is measured: wall time from spawning `mem browse` under a
// pseudo-terminal (util-linux `script`, 80×24) to the moment its output stream contains the first
// full page (the header "1–19 of N"), i.e. process start, oclif, ink import, store open, first
// browse query and first render, as a user sees it. Also: time to the first search results
// (`/` + a word, from the keypress to the results header), and the same command into a pipe.
import {spawn, spawnSync} from 'node:child_process'
import {rmSync} from 'node:fs'
import {seedRepo} from './lib/seed.mjs'
import {BIN, fmt, median, tempRepo, wallTime} from './lib/util.mjs'

const ANSI = /\u001b\[[0-9;?]*[A-Za-z]|\u001b\][^\u0007]*\u0007/g

/** Runs `mem browse` in a pty; resolves with the ms until `first` shows, then the search. */
function firstScreen(root, home, count, {search} = {}) {
  return new Promise((resolve, reject) => {
    const cmd = `stty rows 24 cols 80; exec ${JSON.stringify(process.execPath)} ${JSON.stringify(BIN)} browse`
    const started = performance.now()
    const child = spawn('script', ['-qfec', cmd, '/dev/null'], {
      cwd: root,
      // under CI the command prints pages instead (and so would ink): a user's terminal has no CI
      env: {...withoutCi(), MEM_HOME: home, MEM_REPO: '', TERM: 'xterm-256color'},
      stdio: ['pipe', 'pipe', 'inherit'],
    })
    let out = ''
    let firstMs
    let searchStart
    let searchMs
    let secondStart
    let secondMs
    const second = 'deploy'
    const timer = setTimeout(() => {
      child.kill('SIGKILL')
      reject(new Error(`no first screen after 60 s; output: ${out.replace(ANSI, ' ').slice(-500)}`))
    }, 60_000)
    child.stdout.on('data', (data) => {
      out += data.toString('utf8')
      const plain = out.replace(ANSI, '')
      if (firstMs === undefined && plain.includes(`1–19 of ${count}`)) {
        firstMs = performance.now() - started
        if (!search) return child.stdin.write('q')
        searchStart = performance.now()
        out = ''
        child.stdin.write('/')
        setTimeout(() => child.stdin.write(search), 20)
      } else if (firstMs !== undefined && searchMs === undefined && search && plain.includes(`search "${search}": `)) {
        searchMs = performance.now() - searchStart
        // a second search, once the first has answered: clear the field, type another word
        out = ''
        secondStart = performance.now()
        child.stdin.write('\u0015')
        setTimeout(() => child.stdin.write(second), 20)
      } else if (searchMs !== undefined && secondMs === undefined && plain.includes(`search "${second}": `)) {
        secondMs = performance.now() - secondStart
        child.stdin.write('\u001b')
        setTimeout(() => child.stdin.write('q'), 50)
      }
    })
    child.on('exit', (code) => {
      clearTimeout(timer)
      if (firstMs === undefined) reject(new Error(`mem browse exited ${code} before its first screen`))
      else resolve({firstMs, searchMs, secondMs})
    })
  })
}

function withoutCi() {
  const env = {...process.env}
  delete env.CI
  delete env.CONTINUOUS_INTEGRATION
  return env
}

export async function benchTui(sizes = [10_000, 100_000], runs = 5) {
  if (spawnSync('script', ['--version']).status !== 0) throw new Error('the TUI benchmark needs util-linux `script` (a pty)')
  const rows = []
  {
    for (const size of sizes) {
      const {base, root, home} = tempRepo(`tui-${size}`)
      await seedRepo(root, size)
      const first = []
      const search = []
      const again = []
      await firstScreen(root, home, size) // warm-up: file cache, registry
      for (let i = 0; i < runs; i++) {
        const r = await firstScreen(root, home, size, {search: 'build'})
        first.push(r.firstMs)
        search.push(r.searchMs)
        again.push(r.secondMs)
      }
      const pipeMs = wallTime([BIN, 'browse', '--take', '19'], {env: {MEM_HOME: home}, cwd: root, runs})
      const statsMs = wallTime([BIN, 'stats'], {env: {MEM_HOME: home}, cwd: root, runs})
      const nodeMs = wallTime(['-e', '0'], {runs})
      rows.push({size, first: median(first), firstMax: Math.max(...first), search: median(search), again: median(again), pipeMs, statsMs, nodeMs})
      rmSync(base, {recursive: true, force: true})
    }
  }
  const load = (await import('node:os')).loadavg()[0]
  console.log('\n== terminal browser (issue 10) ==')
  console.log(`load average while measuring: ${fmt(load)} on ${(await import('node:os')).cpus().length} cores`)
  console.log('first screen = spawn of `mem browse` in an 80×24 pty until the first page is drawn')
  console.log('first search = typing `/build` right after the first screen, until its results are drawn (includes building the index)')
  console.log('next search = clearing the field and typing `deploy`, until its results are drawn; medians of the runs')
  console.log(`memories | first screen median (max of ${runs}) | first search | next search | browse into a pipe | mem stats | node -e 0`)
  for (const r of rows) {
    console.log(
      `${String(r.size).padStart(8)} | ${fmt(r.first, 0)} ms (${fmt(r.firstMax, 0)} ms) | ${fmt(r.search, 0)} ms | ${fmt(r.again, 0)} ms | ${fmt(r.pipeMs, 0)} ms | ${fmt(r.statsMs, 0)} ms | ${fmt(r.nodeMs, 0)} ms`,
    )
  }
  return rows
}

if (import.meta.url === `file://${process.argv[1]}`) await benchTui(process.argv[2] ? process.argv[2].split(',').map(Number) : undefined)
