// Web UI benchmark (issue 9): the size of what a browser downloads (raw and gzip), and the time to
// first render of the dashboard over a 10k-memory repo: the built `mem serve` in its own process,
// headless Chromium (Debian's chromium via playwright-core), a fresh browser context per run (no
// cache). "First render" = the dashboard's counts on screen (the page's `mem:dashboard-ready`
// mark, measured from navigation start); also the wall time from goto() until the counts are
// visible, as the user sees it. Prints figures; asserts nothing.
import {execFileSync} from 'node:child_process'
import {mkdirSync, readFileSync, rmSync, statSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {gzipSync} from 'node:zlib'
import {chromium} from 'playwright-core'
import {seedRepo} from './lib/seed.mjs'
import {fmt, median, startServe, tempRepo} from './lib/util.mjs'

const UI = join(import.meta.dirname, '..', '..', 'dist', 'ui')

function chromiumPath() {
  if (process.env.CHROMIUM_PATH) return process.env.CHROMIUM_PATH
  for (const name of ['chromium', 'chromium-browser', 'google-chrome']) {
    try {
      return execFileSync('which', [name], {encoding: 'utf8'}).trim()
    } catch {
      // next
    }
  }
  return undefined
}

function bundleSizes() {
  const html = readFileSync(join(UI, 'index.html'), 'utf8')
  const files = [...html.matchAll(/(?:src|href)="\/ui\/assets\/([^"]+)"/g)].map((m) => m[1])
  const rows = [['index.html', readFileSync(join(UI, 'index.html'))], ...files.map((f) => [f, readFileSync(join(UI, 'assets', f))])]
  let raw = 0
  let gz = 0
  for (const [name, bytes] of rows) {
    const g = gzipSync(bytes, {level: 9}).length
    raw += bytes.length
    gz += g
    console.log(`  ${name.padEnd(28)} ${fmt(bytes.length / 1024)} KiB raw, ${fmt(g / 1024)} KiB gzip`)
  }
  console.log(`bundle total  ${fmt(raw / 1024)} KiB raw, ${fmt(gz / 1024)} KiB gzip (${rows.length} files a first visit downloads)`)
}

export async function benchUi({size = 10_000, runs = 7} = {}) {
  console.log(`\n== web UI: bundle size; dashboard first render over a ${size.toLocaleString('en-US')}-memory repo in headless Chromium ==`)
  try {
    statSync(join(UI, 'index.html'))
  } catch {
    console.log('dist/ui is not built: run `npm run build` first')
    return
  }
  bundleSizes()
  const executablePath = chromiumPath()
  if (!executablePath) {
    console.log('first render: no chromium on this machine (apt-get install -y chromium, or set CHROMIUM_PATH)')
    return
  }
  const {base, root, home} = tempRepo('ui')
  mkdirSync(home, {recursive: true})
  writeFileSync(join(home, 'config.yaml'), 'update:\n  check: false\n')
  await seedRepo(root, size)
  const server = startServe(home, root)
  const browser = await chromium.launch({
    executablePath,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run', '--disable-dev-shm-usage'],
  })
  try {
    const {api} = await server.started
    const marks = []
    const walls = []
    let total = ''
    for (let i = 0; i <= runs; i++) {
      const context = await browser.newContext({viewport: {width: 1280, height: 900}})
      const page = await context.newPage()
      const t = performance.now()
      await page.goto(`${api}/ui/#/dashboard`)
      await page.locator('[data-testid="counts"]').waitFor({state: 'visible'})
      const wall = performance.now() - t
      const mark = await page.evaluate(() => performance.getEntriesByName('mem:dashboard-ready')[0]?.startTime ?? NaN)
      total = (await page.locator('[data-testid="counts"]').getAttribute('data-total')) ?? ''
      await context.close()
      if (i === 0) {
        console.log(`first visit (server cold)  counts shown ${fmt(mark, 0)} ms after navigation start; goto → visible ${fmt(wall, 0)} ms`)
        continue
      }
      marks.push(mark)
      walls.push(wall)
    }
    console.log(
      `dashboard first render  median ${fmt(median(marks), 0)} ms after navigation start (min ${fmt(Math.min(...marks), 0)}, max ${fmt(Math.max(...marks), 0)}; ` +
        `${runs} fresh contexts, no cache); goto → counts visible median ${fmt(median(walls), 0)} ms; the page showed ${Number(total).toLocaleString('en-US')} memories`,
    )
    await benchGraph(browser, api, root)
  } finally {
    await browser.close()
    server.child.kill('SIGTERM')
    await server.exited
    rmSync(base, {recursive: true, force: true})
  }
}

if (import.meta.url === `file://${process.argv[1]}`) await benchUi()

/**
 * The graph page at 200 nodes (the default limit): time until the force layout settles, and the
 * frame intervals while it animates (requestAnimationFrame in the page). The server's own graph
 * route when it has one; otherwise a stand-in in the agreed shape built from the repo's top 200
 * memories, answered by the browser (so the figure is the UI's cost, not the route's).
 */
async function benchGraph(browser, api, root) {
  const doc = await (await fetch(`${api}/api/openapi.json`)).json()
  const real = Boolean(doc.paths['/api/mem/graph']?.get)
  const context = await browser.newContext({viewport: {width: 1280, height: 900}})
  const page = await context.newPage()
  if (!real) {
    const browse = await (await fetch(`${api}/api/mem/browse?repo=${encodeURIComponent(root)}&take=200`)).json()
    const nodes = browse.entries.map((e) => ({id: e.id, type: e.type, label: e.oneLiner ?? e.content.slice(0, 80), importance: e.importance, tags: e.tags}))
    const edges = []
    for (let i = 1; i < nodes.length; i++) if (i % 4 !== 0) edges.push({from: nodes[i].id, to: nodes[(i * 7) % i].id, relation: i % 3 ? 'derived' : 'supersedes'})
    await page.route('**/api/openapi.json', async (route) => {
      const res = await route.fetch()
      const json = await res.json()
      json.paths['/api/mem/graph'] = {get: {summary: 'stand-in'}}
      await route.fulfill({response: res, json})
    })
    await page.route(/\/api\/mem\/graph\?/, (route) => route.fulfill({json: {repo: browse.repo, nodes, edges}}))
  }
  await page.addInitScript(() => {
    window.__frames = []
    let last = performance.now()
    const loop = (t) => {
      window.__frames.push(t - last)
      last = t
      if (!document.querySelector('[data-testid="graph"][data-settled="true"]')) requestAnimationFrame(loop)
    }
    requestAnimationFrame(loop)
  })
  const t = performance.now()
  await page.goto(`${api}/ui/#/graph`)
  await page.locator('[data-testid="graph"]').waitFor()
  const drawn = performance.now() - t
  await page.locator('[data-testid="graph"][data-settled="true"]').waitFor({timeout: 60_000})
  const settled = performance.now() - t
  const count = await page.locator('[data-testid="graph"]').getAttribute('data-node-count')
  const edges = await page.locator('[data-testid="graph"]').getAttribute('data-edge-count')
  const frames = (await page.evaluate(() => window.__frames)).slice(1)
  await context.close()
  const sorted = [...frames].sort((a, b) => a - b)
  const p = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]
  console.log(
    `graph ${count} nodes, ${edges} edges (${real ? 'the server\'s graph route' : 'stand-in in the agreed shape'}): first drawing ${fmt(drawn, 0)} ms after goto, ` +
      `layout settled ${fmt(settled, 0)} ms; ${frames.length} animation frames, interval p50 ${fmt(p(0.5))} ms, p95 ${fmt(p(0.95))} ms, max ${fmt(sorted.at(-1) ?? NaN)} ms`,
  )
}
