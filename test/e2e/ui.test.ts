// End-to-end tests of the web UI in real headless Chromium against a real `mem serve` on loopback
// with fixture data. Every page: no console errors (CSP violations included), no serious or
// critical axe-core violations, screenshots in light and dark (test/e2e/screenshots/, git-ignored).
// Routes that other issues add (graph, portal, quality, usage, intake, export, packs) are read
// from the server's OpenAPI document: where the server has one, the real route is exercised;
// where it has none, the page must say so (and a browser-level stand-in that answers the agreed
// shape checks what the UI does with it).
import type {Browser, Page} from 'playwright-core'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {launch, openPage, screenshot, seriousViolations, type WatchedPage} from './browser.js'
import {type Fixture, startFixture} from './fixture.js'

let browser: Browser
let fx: Fixture
let routes: Set<string>

beforeAll(async () => {
  ;[browser, fx] = await Promise.all([launch(), startFixture({server: {maintenance: {windowMs: 0}}})])
  const doc = (await (await fetch(`${fx.url}/api/openapi.json`)).json()) as {paths: Record<string, Record<string, unknown>>}
  routes = new Set(Object.entries(doc.paths).flatMap(([p, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${p}`)))
}, 120_000)

afterAll(async () => {
  await browser?.close()
  await fx?.close()
})

const has = (route: string) => routes.has(route)

async function visit(w: WatchedPage, hash: string) {
  await w.page.goto(`${fx.url}/ui/#/${hash}`)
}

async function stats(repo = fx.repo) {
  return fx.client.stats(repo)
}

/** Each page, the selector that shows it rendered its data, and what it must show. */
const PAGES: Array<{name: string; hash: string; ready: string}> = [
  {name: 'dashboard', hash: 'dashboard', ready: '[data-testid="counts"]'},
  {name: 'browser', hash: 'browse', ready: '[data-testid="memory-list"]'},
  {name: 'browser-detail', hash: 'browse?id=', ready: '[data-testid="memory-detail"]'},
  {name: 'graph', hash: 'graph', ready: 'h1:text("Knowledge graph") >> xpath=..//*[@data-testid="graph" or contains(@class,"state")]'},
  {name: 'timeline', hash: 'timeline', ready: '[data-testid="timeline"]'},
  {name: 'settings', hash: 'settings', ready: '[data-testid="status"]'},
]

describe('web UI in Chromium', {timeout: 120_000}, () => {
  for (const scheme of ['light', 'dark'] as const) {
    it(`every page loads without console errors and passes axe (${scheme})`, async () => {
      const w = await openPage(browser, {colorScheme: scheme})
      try {
        for (const p of PAGES) {
          await visit(w, p.hash === 'browse?id=' ? `browse?id=${encodeURIComponent(fx.versioned[1])}` : p.hash)
          await w.page.locator(p.ready).first().waitFor({state: 'visible'})
          await w.page.waitForFunction(() => document.querySelectorAll('.state.loading').length === 0)
          if (p.name === 'graph' && (await w.page.locator('[data-testid="graph"]').count()) > 0) {
            await w.page.locator('[data-testid="graph"][data-settled="true"]').waitFor()
          }
          expect(await w.page.locator('main h1').first().textContent(), p.name).toBeTruthy()
          const violations = await seriousViolations(w.page)
          expect(violations, `${p.name} (${scheme}): ${JSON.stringify(violations, null, 1)}`).toEqual([])
          await screenshot(w.page, `${p.name}-${scheme}`)
        }
        expect(w.errors).toEqual([])
        expect(w.requests.filter((r) => r.status >= 400)).toEqual([])
      } finally {
        await w.context.close()
      }
    })
  }

  it('dashboard: counts by type, recent memories, scheduled tasks, and the repo selector switches repos', async () => {
    const w = await openPage(browser)
    try {
      await visit(w, 'dashboard')
      const counts = w.page.locator('[data-testid="counts"]')
      const s = await stats()
      await expect.poll(() => counts.getAttribute('data-total')).toBe(String(s.total))
      for (const type of ['observation', 'insight', 'procedure', 'heuristic'] as const) {
        await expect(counts.locator('tr', {hasText: type}).locator('td.num').textContent()).resolves.toBe(String(s.counts[type] ?? 0))
      }
      const recent = w.page.locator('[data-section="recent"] li')
      await expect.poll(() => recent.count()).toBe(10)
      await expect(recent.first().textContent()).resolves.toContain('lint:all')
      // the scheduler's listing (real route on this branch); portal/quality/usage: real or "not available"
      await w.page.locator('[data-section="tasks"] :is([data-testid="tasks"], .state.empty)').waitFor()
      for (const [section, route] of [['quality', 'GET /api/mem/quality'], ['usage', 'GET /api/mem/usage']] as const) {
        const portal = has('GET /api/mem/portal')
        if (portal || has(route)) await w.page.locator(`[data-section="${section}"] [data-testid="${section}"]`).waitFor()
        else await expect(w.page.locator(`[data-section="${section}"] .state.unavailable`).textContent()).resolves.toMatch(/Not available/)
      }

      const select = w.page.getByLabel('Repository')
      const options = await select.locator('option').allTextContents()
      expect(options).toEqual(expect.arrayContaining([fx.repoId, (await fx.client.browse(fx.otherRepo, 0, 1)).repo]))
      await select.selectOption((await fx.client.browse(fx.otherRepo, 0, 1)).repo)
      await expect.poll(() => counts.getAttribute('data-total')).toBe('3')
      await select.selectOption(fx.repoId)
      await expect.poll(() => counts.getAttribute('data-total')).toBe(String(s.total))
      expect(w.errors).toEqual([])
    } finally {
      await w.context.close()
    }
  })

  it('browser: paginate, filter by type, search through recall, open a memory with its history and links', async () => {
    const w = await openPage(browser)
    try {
      await visit(w, 'browse')
      const summary = w.page.getByTestId('list-summary')
      const s = await stats()
      await expect.poll(() => summary.textContent()).toBe(`Showing 1–20 of ${s.total}`)
      const firstPage = await w.page.locator('[data-testid="memory-list"] li').allTextContents()
      expect(firstPage).toHaveLength(20)
      await w.page.getByRole('button', {name: 'Next →'}).click()
      await expect.poll(() => summary.textContent()).toBe(`Showing 21–40 of ${s.total}`)
      const secondPage = await w.page.locator('[data-testid="memory-list"] li').allTextContents()
      expect(secondPage).toHaveLength(20)
      expect(secondPage.filter((t) => firstPage.includes(t))).toEqual([])
      // the page matches the API's own second page, in order
      const api = await fx.client.browse(fx.repo, 20, 20)
      expect(await w.page.locator('[data-testid="memory-list"] li a').evaluateAll((as) => as.map((a) => decodeURIComponent(a.getAttribute('href')!.split('id=')[1])))).toEqual(api.entries.map((e) => e.id))

      // type filter: back to page 1, only that type, the type's count
      await w.page.getByLabel('Type').selectOption('heuristic')
      await expect.poll(() => summary.textContent()).toBe(`Showing 1–${Math.min(20, s.counts.heuristic ?? 0)} of ${s.counts.heuristic}`)
      const badges = await w.page.locator('[data-testid="memory-list"] .badge').allTextContents()
      expect(new Set(badges)).toEqual(new Set(['heuristic']))
      await w.page.getByLabel('Type').selectOption('')

      // search goes through recall: the best hit first, with its score
      await w.page.getByLabel('Search (recall)').fill('checkout integration test times out')
      await w.page.getByRole('button', {name: 'Search', exact: true}).click()
      await expect.poll(() => summary.textContent()).toMatch(/^\d+ results? for “checkout integration test times out”$/)
      const top = (await fx.client.recall(fx.repo, 'checkout integration test times out', 50))[0]
      const firstHit = w.page.locator('[data-testid="memory-list"] li').first()
      await expect(firstHit.textContent()).resolves.toContain(top.oneLiner ?? top.content.slice(0, 40))
      await expect(firstHit.textContent()).resolves.toContain(`score ${top.score.toFixed(2)}`)
      expect(w.requests.some((r) => r.path.startsWith('/api/mem/recall?') && r.path.includes('q=checkout'))).toBe(true)

      // a search that finds nothing says so
      await w.page.getByLabel('Search (recall)').fill('zzzzqqqq xyzzy')
      await w.page.getByRole('button', {name: 'Search', exact: true}).click()
      await w.page.getByText('Nothing matches this search').waitFor()
      await w.page.getByRole('button', {name: 'Clear'}).click()
      await expect.poll(() => summary.textContent()).toBe(`Showing 1–20 of ${s.total}`)

      // open the edited memory: fields, both versions in its history, the old one linked
      await w.page.locator('[data-testid="memory-list"] li a', {hasText: 'lint:all'}).click()
      const detail = w.page.getByTestId('memory-detail')
      await expect.poll(() => detail.getAttribute('data-id')).toBe(fx.versioned[1])
      await expect(w.page.getByTestId('memory-content').textContent()).resolves.toContain('npm run lint:all')
      await expect.poll(() => w.page.locator('[data-testid="history"] li').count()).toBe(2)
      await expect(w.page.getByTestId('links').textContent()).resolves.toContain(`supersedes ${fx.versioned[0]}`)
      // the old version opens from the history and says it is superseded
      await w.page.locator('[data-testid="history"] li a', {hasText: 'open'}).click()
      await expect.poll(() => detail.getAttribute('data-id')).toBe(fx.versioned[0])
      await w.page.getByText('Superseded by').waitFor()
      expect(await detail.getAttribute('data-live')).toBe('false')
      expect(w.errors).toEqual([])
    } finally {
      await w.context.close()
    }
  })

  it('browser: edit content (a new version), edit tags in place, feedback, forget with confirmation and reason', async () => {
    const w = await openPage(browser)
    try {
      const target = fx.ids[5]
      const before = await fx.client.get(target)
      await visit(w, `browse?id=${encodeURIComponent(target)}`)
      const detail = w.page.getByTestId('memory-detail')
      await expect.poll(() => detail.getAttribute('data-id')).toBe(target)

      // feedback
      await w.page.getByRole('button', {name: /Used/}).first().click()
      await expect.poll(() => w.page.getByTestId('feedback-counts').textContent()).toBe('used 1, not used 0')
      expect((await fx.client.get(target)).usedCount).toBe(before.usedCount + 1)

      // tags only: same id
      await w.page.getByRole('button', {name: 'Edit'}).click()
      await w.page.getByLabel('Tags (comma-separated)').fill('edited-in-ui, second')
      await w.page.getByRole('button', {name: 'Save'}).click()
      await w.page.getByText('Saved.').waitFor()
      expect(await detail.getAttribute('data-id')).toBe(target)
      expect((await fx.client.get(target)).tags).toEqual(['edited-in-ui', 'second'])

      // content: a new version, opened at once; the old one superseded by it
      await w.page.getByRole('button', {name: 'Edit'}).click()
      await w.page.getByLabel(/^Content/).fill(`${before.content} Confirmed again in the web UI test.`)
      await w.page.getByRole('button', {name: 'Save'}).click()
      await expect.poll(() => detail.getAttribute('data-id')).not.toBe(target)
      const newId = (await detail.getAttribute('data-id'))!
      await expect(w.page.getByTestId('memory-content').textContent()).resolves.toContain('Confirmed again in the web UI test.')
      expect((await fx.client.get(target)).supersededBy).toBe(newId)
      await expect.poll(() => w.page.locator('[data-testid="history"] li').count()).toBe(2)

      // an invalid edit is refused with the service's message, nothing changes
      await w.page.getByRole('button', {name: 'Edit'}).click()
      await w.page.getByLabel('Importance (0–1)').fill('0.9')
      await w.page.getByLabel(/^Content/).fill('ci token ghp_' + 'a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8')
      await w.page.getByRole('button', {name: 'Save'}).click()
      await w.page.locator('.edit-form [role="alert"]').waitFor()
      await expect(w.page.locator('.edit-form [role="alert"]').textContent()).resolves.toMatch(/Error 422.*GitHub token/)
      expect((await fx.client.get(newId)).supersededBy).toBeNull()
      await w.page.getByRole('button', {name: 'Cancel'}).click()

      // forget: cancel first (nothing happens), then confirm with a reason
      const total = (await stats()).total
      await w.page.getByRole('button', {name: 'Forget…'}).click()
      const dialog = w.page.getByRole('dialog', {name: 'Forget this memory?'})
      await dialog.waitFor()
      await dialog.getByRole('button', {name: 'Cancel'}).click()
      await dialog.waitFor({state: 'detached'})
      expect((await fx.client.get(newId)).forgottenAt).toBeNull()
      await w.page.getByRole('button', {name: 'Forget…'}).click()
      await dialog.getByLabel('Reason (optional)').fill('wrong after the move to pnpm')
      await dialog.getByRole('button', {name: 'Forget memory'}).click()
      await w.page.getByText('Forgotten.').waitFor()
      const forgotten = await fx.client.get(newId)
      expect(forgotten.forgottenAt).not.toBeNull()
      expect(forgotten.forgetReason).toBe('wrong after the move to pnpm')
      expect(await detail.getAttribute('data-live')).toBe('false')
      await expect.poll(() => w.page.getByTestId('list-summary').textContent()).toBe(`Showing 1–20 of ${total - 1}`)
      // 422 of the refused edit is the one expected failed request
      expect(w.errors.filter((e) => !/status of 422/.test(e))).toEqual([])
    } finally {
      await w.context.close()
    }
  })

  it('timeline: grouped by day, newest first, with a type filter', async () => {
    const w = await openPage(browser)
    try {
      await visit(w, 'timeline')
      await w.page.getByTestId('timeline').waitFor()
      const days = await w.page.locator('[data-testid="timeline"] > li').evaluateAll((lis) => lis.map((li) => li.getAttribute('data-day')!))
      expect(days.length).toBeGreaterThanOrEqual(10)
      expect([...days].sort().reverse()).toEqual(days)
      expect(new Set(days).size).toBe(days.length)
      const page = await fx.client.browse(fx.repo, 0, 100)
      const expectedDays = [...new Set(page.entries.map((e) => e.createdAt.slice(0, 10)))]
      expect(days).toEqual(expectedDays)
      const s = await stats()
      await expect.poll(() => w.page.getByTestId('timeline-summary').textContent()).toBe(`${s.total} of ${s.total} memories`)

      await w.page.getByLabel('Type').selectOption('procedure')
      await expect.poll(() => w.page.getByTestId('timeline-summary').textContent()).toBe(`${s.counts.procedure} of ${s.counts.procedure} memories`)
      expect(new Set(await w.page.locator('[data-testid="timeline"] .badge').allTextContents())).toEqual(new Set(['procedure']))
      expect(w.errors).toEqual([])
    } finally {
      await w.context.close()
    }
  })

  it('settings: status, consolidate dry-run preview, and a maintenance run (202) followed to completion', async () => {
    const w = await openPage(browser)
    try {
      await visit(w, 'settings')
      const health = (await (await fetch(`${fx.url}/api/health`)).json()) as {version: string}
      await expect.poll(() => w.page.getByTestId('version').textContent()).toBe(health.version)

      const preview = await (await fetch(`${fx.url}/api/mem/consolidate?repo=${encodeURIComponent(fx.repo)}&dry_run=true`, {method: 'POST'})).json()
      await w.page.getByRole('button', {name: 'Preview (dry run)'}).click()
      await expect
        .poll(() => w.page.getByTestId('consolidate-preview').textContent())
        .toContain(`Dry run: ${preview.candidates} candidate cluster${preview.candidates === 1 ? '' : 's'} — would create ${preview.insightsCreated}, boost ${preview.insightsBoosted}.`)
      expect((await stats()).total, 'a dry run writes nothing').toBe((await stats()).total)

      const maintenance = w.page.getByTestId('maintenance')
      await w.page.getByRole('button', {name: 'Run maintenance'}).click()
      await expect.poll(() => maintenance.getAttribute('data-status'), {timeout: 60_000}).toBe('completed')
      await expect(maintenance.textContent()).resolves.toMatch(/Maintenance completed \(run [0-9a-f]{8}, followed to the end\)/)
      const stages = await maintenance.locator('tbody tr td:first-child').allTextContents()
      expect(stages).toEqual(['ttl-expiry', 'retention', 'dedup', 'decay', 'cleanup', 'enrichment', 'consolidation'])
      // the POST answered 202 and the UI polled the run until it finished
      const post = w.requests.find((r) => r.method === 'POST' && r.path.startsWith('/api/maintenance?'))
      expect(post?.status).toBe(202)
      const polls = w.requests.filter((r) => r.method === 'GET' && r.path.startsWith('/api/maintenance/runs/'))
      expect(polls.length).toBeGreaterThanOrEqual(1)
      expect(polls.every((p) => p.status === 200)).toBe(true)
      expect(w.errors).toEqual([])
    } finally {
      await w.context.close()
    }
  })
})
