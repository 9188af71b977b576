// End-to-end tests of the web UI in real headless Chromium against a real `mem serve` on loopback
// with fixture data. Every page: no console errors (CSP violations included), no serious or
// critical axe-core violations, screenshots in light and dark with MEM_UI_SCREENSHOTS=1
// (test/faces/ui/screenshots/, git-ignored).
// The UI reads which routes the server has from its OpenAPI document. The routes other issues added
// (graph, portal, quality, usage, intake, export, packs) are exercised for real; a browser-level
// stand-in that answers the agreed shape checks what the UI does with each answer; and with those
// routes taken out of the document, every page must say they are missing and ask nothing.
import {basename} from 'node:path'
import type {Browser, Page} from 'playwright-core'
import {afterAll, beforeAll, describe, expect, it} from 'vitest'
import {MemClient} from '../../../src/client/index.js'
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
      // the scheduler's listing; quality and usage from the real portal route
      await w.page.locator('[data-section="tasks"] :is([data-testid="tasks"], .state.empty)').waitFor()
      for (const section of ['quality', 'usage']) await w.page.locator(`[data-section="${section}"] [data-testid="${section}"]`).waitFor()
      expect(w.requests.filter((r) => r.path.startsWith('/api/mem/portal?')).map((r) => r.status)).toEqual([200])

      const select = w.page.getByLabel('Repository')
      // people see folder names, the path on hover; the value is the repo id
      expect(await select.locator('option').allTextContents()).toEqual(['app', 'tools'])
      expect(await select.locator('option').evaluateAll((os) => os.map((o) => [(o as HTMLOptionElement).value, o.getAttribute('title')]))).toEqual([
        [fx.repoId, fx.repo],
        [(await fx.client.browse(fx.otherRepo, 0, 1)).repo, fx.otherRepo],
      ])
      await expect(w.page.getByTestId('repo-name').textContent()).resolves.toBe('app')
      await expect(w.page.getByTestId('repo-name').getAttribute('title')).resolves.toBe(`${fx.repo} (repo id ${fx.repoId})`)
      await select.selectOption((await fx.client.browse(fx.otherRepo, 0, 1)).repo)
      await expect.poll(() => counts.getAttribute('data-total')).toBe('3')
      await select.selectOption(fx.repoId)
      await expect.poll(() => counts.getAttribute('data-total')).toBe(String(s.total))
      expect(w.errors).toEqual([])
    } finally {
      await w.context.close()
    }
  })

  it('a new tab opens on the repository last chosen in this browser (no repository of its own to start in)', async () => {
    const w = await openPage(browser)
    try {
      await visit(w, 'dashboard')
      const counts = w.page.getByTestId('counts')
      await expect.poll(() => counts.getAttribute('data-total')).toBe(String((await stats()).total))
      await w.page.getByLabel('Repository').selectOption({label: 'tools'})
      await expect.poll(() => counts.getAttribute('data-total')).toBe('3')
      const tab = await w.context.newPage()
      await tab.goto(`${fx.url}/ui/#/dashboard`)
      await expect.poll(() => tab.getByTestId('counts').getAttribute('data-total')).toBe('3')
      await expect(tab.getByTestId('repo-name').textContent()).resolves.toBe('tools')
    } finally {
      await w.context.close()
    }
  })

  it('a phone (390×844): no page scrolls sideways, every page link is on screen, lists stack', async () => {
    const context = await browser.newContext({viewport: {width: 390, height: 844}, reducedMotion: 'reduce', isMobile: true, hasTouch: true})
    const page = await context.newPage()
    const errors: string[] = []
    page.on('pageerror', (err) => errors.push(err.message))
    try {
      for (const p of PAGES) {
        await page.goto(`${fx.url}/ui/#/${p.hash === 'browse?id=' ? `browse?id=${encodeURIComponent(fx.versioned[1])}` : p.hash}`)
        await page.locator(p.ready).first().waitFor({state: 'visible'})
        await page.waitForFunction(() => document.querySelectorAll('.state.loading').length === 0)
        const width = await page.evaluate(() => ({scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth}))
        expect(width, p.name).toEqual({scroll: 390, client: 390})
        for (const link of await page.getByRole('navigation', {name: 'Pages'}).getByRole('link').all()) {
          const box = (await link.boundingBox())!
          expect(box.x, `${p.name}: ${await link.textContent()}`).toBeGreaterThanOrEqual(0)
          expect(box.x + box.width, `${p.name}: ${await link.textContent()}`).toBeLessThanOrEqual(390)
        }
        if (p.name === 'browser-detail') {
          // one column: the open memory comes first, not below a page of the list
          const detail = (await page.getByTestId('memory-detail').boundingBox())!
          const list = (await page.getByTestId('memory-list').boundingBox())!
          expect(detail.y).toBeLessThan(list.y)
        }
        if (p.name === 'browser') expect(await page.getByText('Select a memory to see its fields').isVisible()).toBe(false)
        await screenshot(page, `phone-${p.name}`)
      }
      expect(errors).toEqual([])
    } finally {
      await context.close()
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
      await w.page.getByRole('button', {name: 'Used', exact: true}).click()
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

  it('keyboard: skip link, page navigation, opening a memory, and the forget dialog without a mouse', async () => {
    const w = await openPage(browser)
    try {
      await visit(w, 'dashboard')
      await w.page.getByTestId('counts').waitFor()
      const active = () => w.page.evaluate(() => {
        const el = document.activeElement as HTMLElement | null
        return el ? `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''}:${(el.textContent ?? '').trim().slice(0, 40)}` : ''
      })
      await w.page.keyboard.press('Tab')
      expect(await active()).toBe('a:Skip to content')
      await w.page.keyboard.press('Enter')
      expect(await active()).toMatch(/^main#main:/)
      // from the top: skip link, the pages in order, then the repository selector
      await w.page.reload()
      await w.page.getByTestId('counts').waitFor()
      const seen: string[] = []
      for (let i = 0; i < 7; i++) {
        await w.page.keyboard.press('Tab')
        seen.push(await active())
      }
      expect(seen.slice(0, 6)).toEqual(['a:Skip to content', 'a:Dashboard', 'a:Browser', 'a:Graph', 'a:Timeline', 'a:Settings'])
      expect(seen[6]).toMatch(/^select#repo-select:/)
      await w.page.keyboard.press('Shift+Tab')
      await w.page.keyboard.press('Enter')
      await w.page.getByTestId('status').waitFor()

      // the browser: focus the first memory's link, Enter opens it
      await visit(w, 'browse')
      const first = w.page.locator('[data-testid="memory-list"] li a').first()
      await first.focus()
      const href = decodeURIComponent((await first.getAttribute('href'))!.split('id=')[1])
      await w.page.keyboard.press('Enter')
      await expect.poll(() => w.page.getByTestId('memory-detail').getAttribute('data-id')).toBe(href)
      // the forget dialog opens from the keyboard and Escape closes it without forgetting
      await w.page.getByRole('button', {name: 'Forget…'}).focus()
      await w.page.keyboard.press('Enter')
      const dialog = w.page.getByRole('dialog', {name: 'Forget this memory?'})
      await dialog.waitFor()
      expect(await active()).toBe('input#forget-reason:')
      await w.page.keyboard.press('Escape')
      await dialog.waitFor({state: 'detached'})
      expect((await fx.client.get(href)).forgottenAt).toBeNull()
      expect(w.errors).toEqual([])
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
      const before = await stats()
      await w.page.getByRole('button', {name: 'Preview (dry run)'}).click()
      await expect
        .poll(() => w.page.getByTestId('consolidate-preview').textContent())
        .toContain(`Dry run: ${preview.candidates} candidate cluster${preview.candidates === 1 ? '' : 's'} — would create ${preview.insightsCreated}, boost ${preview.insightsBoosted}.`)
      expect(await stats(), 'a dry run writes nothing').toEqual(before)
      expect(w.requests.filter((r) => r.path.startsWith('/api/mem/consolidate'))).toEqual([
        {method: 'POST', path: `/api/mem/consolidate?repo=${encodeURIComponent(fx.repoId)}&dry_run=true`, status: 200},
      ])


      // each candidate shows its proposed text and members, ticked; unticking one applies the others only
      type Cluster = {id: string; outcome: string; content: string; members: Array<{id: string; text: string}>}
      const writable = (preview.clusters as Cluster[]).filter((c) => c.outcome !== 'restates')
      expect(writable.length).toBeGreaterThanOrEqual(2)
      const [skipped, ...kept] = writable
      const box = w.page.getByRole('checkbox', {name: `Apply cluster ${skipped.id}`})
      expect(await box.isChecked()).toBe(true)
      const item = w.page.locator(`li[data-cluster="${skipped.id}"]`)
      await item.locator('summary').click()
      expect(await item.locator('.cluster-members li').count()).toBe(skipped.members.length)
      expect(await item.locator('.cluster-text').textContent()).toBe(skipped.content)
      await box.uncheck()
      await w.page.getByRole('button', {name: `Apply ${kept.length} selected`}).click()
      await w.page.getByText(/^Consolidated: /).waitFor()
      const applied = /Consolidated: (\d+) insights? created, (\d+) boosted/.exec((await w.page.getByText(/^Consolidated: /).textContent())!)!
      const created = kept.filter((c) => c.outcome === 'create').length
      expect(Number(applied[1])).toBe(created)
      expect((await stats()).counts.insight).toBe((before.counts.insight ?? 0) + created)
      const post = w.requests.filter((r) => r.path.startsWith('/api/mem/consolidate')).at(-1)!
      expect(decodeURIComponent(post.path)).toContain(`clusters=${kept.map((c) => c.id).join(',')}`)
      // the one left out is still a candidate
      const after = await (await fetch(`${fx.url}/api/mem/consolidate?repo=${encodeURIComponent(fx.repo)}&dry_run=true`, {method: 'POST'})).json()
      expect((after.clusters as Cluster[]).map((c) => c.id)).toContain(skipped.id)

      const maintenance = w.page.getByTestId('maintenance')
      await w.page.getByRole('button', {name: 'Run maintenance'}).click()
      await expect.poll(() => maintenance.getAttribute('data-status'), {timeout: 60_000}).toBe('completed')
      await expect(maintenance.textContent()).resolves.toMatch(/Maintenance completed \(run [0-9a-f]{8}, followed to the end\)/)
      const stages = await maintenance.locator('tbody tr td:first-child').allTextContents()
      expect(stages).toEqual(['ttl-expiry', 'retention', 'dedup', 'decay', 'cleanup', 'enrichment', 'consolidation'])
      // the POST answered 202 and the UI polled the run until it finished
      const started = w.requests.find((r) => r.method === 'POST' && r.path.startsWith('/api/maintenance?'))
      expect(started?.status).toBe(202)
      const polls = w.requests.filter((r) => r.method === 'GET' && r.path.startsWith('/api/maintenance/runs/'))
      expect(polls.length).toBeGreaterThanOrEqual(1)
      expect(polls.every((p) => p.status === 200)).toBe(true)
      expect(w.errors).toEqual([])
    } finally {
      await w.context.close()
    }
  })
})

/** The routes other issues added, which the UI asks the OpenAPI document about. */
const LATER_ROUTES: Array<[method: string, path: string]> = [
  ['GET', '/api/mem/graph'],
  ['GET', '/api/mem/portal'],
  ['GET', '/api/mem/quality'],
  ['GET', '/api/mem/usage'],
  ['GET', '/api/mem/export'],
  ['POST', '/api/mem/packs/export'],
  ['POST', '/api/mem/packs/import'],
  ['POST', '/api/mem/intake'],
]

/** Takes routes out of the OpenAPI document the page reads, as a server without them would list it. */
async function hideRoutes(page: Page, hidden: Array<[method: string, path: string]>) {
  await page.route('**/api/openapi.json', async (route) => {
    const res = await route.fetch()
    const doc = (await res.json()) as {paths: Record<string, Record<string, unknown>>}
    for (const [method, path] of hidden) delete doc.paths[path]?.[method.toLowerCase()]
    await route.fulfill({response: res, json: doc})
  })
}

describe('web UI of a service started in a repository with no memories yet', {timeout: 120_000}, () => {
  let started: Awaited<ReturnType<typeof startFixture>>
  beforeAll(async () => {
    started = await startFixture({startedIn: 'fresh'})
  }, 120_000)
  afterAll(async () => {
    await started?.close()
  })

  it('opens on that repository, empty and unscored, ahead of the others; a new tab opens there again', async () => {
    const w = await openPage(browser)
    try {
      await w.page.goto(`${started.url}/ui/#/dashboard`)
      const counts = w.page.getByTestId('counts')
      await expect.poll(() => counts.getAttribute('data-total')).toBe('0')
      await expect(w.page.getByTestId('repo-name').textContent()).resolves.toBe('fresh')
      const select = w.page.getByLabel('Repository')
      expect(await select.locator('option').allTextContents()).toEqual(['fresh', 'app', 'tools'])
      // an empty store has no score (not 100/100)
      const score = w.page.locator('[data-testid="quality"] .score')
      await expect(score.getAttribute('data-score')).resolves.toBe('none')
      await expect(score.textContent()).resolves.toContain('no memories yet')
      await select.selectOption({label: 'app'})
      await expect.poll(() => counts.getAttribute('data-total')).toBe('65')
      // 65 memories none of which an agent has recalled: no score either
      await expect(score.getAttribute('data-score')).resolves.toBe('none')
      await expect(score.textContent()).resolves.toContain('nothing recalled yet')
      // a person's searches in the browser do not count as recalls
      await w.page.goto(`${started.url}/ui/#/browse`)
      for (const q of ['payments service', 'release pipeline', 'docker compose']) {
        await w.page.getByLabel('Search (recall)').fill(q)
        await w.page.getByRole('button', {name: 'Search'}).click()
        await w.page.locator('[data-testid="memory-list"] li').first().waitFor()
      }
      expect((await started.client.quality(started.repo)).recalled).toBe(0)
      const tab = await w.context.newPage()
      await tab.goto(`${started.url}/ui/#/dashboard`)
      await expect.poll(() => tab.getByTestId('counts').getAttribute('data-total')).toBe('0')
      await expect(tab.getByTestId('repo-name').textContent()).resolves.toBe('fresh')
      expect(w.errors).toEqual([])
    } finally {
      await w.context.close()
    }
  })
})

/** Adds routes to the OpenAPI document the page reads, as a server that has them would list them. */
async function announceRoutes(page: Page, extra: Array<[method: string, path: string]>) {
  await page.route('**/api/openapi.json', async (route) => {
    const res = await route.fetch()
    const doc = (await res.json()) as {paths: Record<string, Record<string, unknown>>}
    for (const [method, path] of extra) (doc.paths[path] ??= {})[method.toLowerCase()] = {summary: 'stand-in'}
    await route.fulfill({response: res, json: doc})
  })
}

describe('web UI with the routes of other issues', {timeout: 120_000}, () => {
  it('the server has every route the UI reads', () => {
    expect(LATER_ROUTES.filter(([method, path]) => !has(`${method} ${path}`))).toEqual([])
  })

  it('graph (real route): draws the node count the server answers', async () => {
    const w = await openPage(browser)
    try {
      await visit(w, 'graph')
      const graph = (await (await fetch(`${fx.url}/api/mem/graph?repo=${encodeURIComponent(fx.repo)}&limit=200`)).json()) as {nodes: unknown[]; edges: unknown[]}
      expect(graph.nodes.length).toBeGreaterThan(0)
      const svg = w.page.getByTestId('graph')
      await expect.poll(() => svg.getAttribute('data-node-count')).toBe(String(graph.nodes.length))
      expect(await svg.locator('g.node').count()).toBe(graph.nodes.length)
      // pointing at a node names it and its neighbours and dims the rest
      const edges = graph.edges as Array<{from: string; to: string}>
      const hub = [...new Set(edges.flatMap((e) => [e.from, e.to]))][0]
      const neighbours = new Set(edges.flatMap((e) => (e.from === hub ? [e.to] : e.to === hub ? [e.from] : [])))
      await svg.locator(`g.node[data-id="${hub}"]`).hover()
      await expect.poll(() => w.page.getByTestId('graph-focus').textContent()).toMatch(new RegExp(`· ${neighbours.size} neighbours?$`))
      expect(await svg.getAttribute('class')).toContain('has-focus')
      expect(await svg.locator('g.node.near').count()).toBe(neighbours.size)
      expect(await svg.locator('text.node-label').count()).toBe(neighbours.size + 1)
      expect(w.errors).toEqual([])
    } finally {
      await w.context.close()
    }
  })

  it('without those routes: each page says which is missing, disables what needs it, and asks nothing', async () => {
    const w = await openPage(browser)
    try {
      await hideRoutes(w.page, LATER_ROUTES)
      await visit(w, 'dashboard')
      await expect.poll(() => w.page.getByTestId('counts').getAttribute('data-total')).toBe(String((await stats()).total))
      for (const section of ['quality', 'usage']) {
        await expect(w.page.locator(`[data-section="${section}"] .state.unavailable`).textContent()).resolves.toMatch(/Not available/)
      }
      await visit(w, 'graph')
      await expect(w.page.locator('.state.unavailable').textContent()).resolves.toContain('/api/mem/graph')
      await visit(w, 'settings')
      await w.page.getByTestId('status').waitFor()
      const transfer = w.page.locator('[data-section="transfer"]')
      await expect.poll(() => transfer.textContent()).toContain('no GET /api/mem/export route')
      expect(await w.page.getByRole('button', {name: 'Download markdown export'}).isDisabled()).toBe(true)
      await expect.poll(() => transfer.textContent()).toContain('/api/mem/packs/')
      expect(await w.page.getByRole('button', {name: 'Import pack'}).isDisabled()).toBe(true)
      await expect(w.page.locator('[data-section="intake"]').textContent()).resolves.toContain('no POST /api/mem/intake route')
      expect(await w.page.getByRole('button', {name: 'Run intake'}).isDisabled()).toBe(true)
      const asked = w.requests.filter((r) => LATER_ROUTES.some(([, path]) => r.path.split('?')[0] === path))
      expect(asked).toEqual([])
      expect(w.errors).toEqual([])
    } finally {
      await w.context.close()
    }
  })

  it('graph (agreed shape): one node per memory, coloured by type, edges by relation; zoom; clicking a node opens it', async () => {
    const w = await openPage(browser)
    try {
      const page = await fx.client.browse(fx.repo, 0, 37)
      const nodes = page.entries.map((e) => ({id: e.id, type: e.type, label: e.oneLiner ?? e.content.slice(0, 80), importance: e.importance, tags: e.tags}))
      const edges = [
        {from: nodes[0].id, to: nodes[1].id, relation: 'derived'},
        {from: nodes[0].id, to: nodes[2].id, relation: 'derived'},
        {from: nodes[3].id, to: nodes[4].id, relation: 'supersedes'},
        {from: nodes[5].id, to: nodes[6].id, relation: 'relates-to'},
        {from: nodes[7].id, to: 'memories/elsewhere/insight/000000000000', relation: 'derived'},
      ]
      await announceRoutes(w.page, [['GET', '/api/mem/graph']])
      let asked = ''
      await w.page.route(/\/api\/mem\/graph\?/, (route) => {
        asked = route.request().url()
        return route.fulfill({json: {repo: fx.repoId, nodes, edges}})
      })
      await visit(w, 'graph')
      const svg = w.page.getByTestId('graph')
      await svg.waitFor()
      expect(new URL(asked).searchParams.get('limit')).toBe('200')
      expect(new URL(asked).searchParams.get('repo')).toBe(fx.repoId)
      expect(await svg.getAttribute('data-node-count')).toBe('37')
      expect(await svg.locator('g.node').count()).toBe(37)
      // an edge to a node outside the set is not drawn
      expect(await svg.getAttribute('data-edge-count')).toBe('4')
      expect(await svg.locator('line.edge.derived').count()).toBe(2)
      expect(await svg.locator('line.edge.supersedes').count()).toBe(1)
      expect(await svg.locator('line.edge.link').count()).toBe(1)
      for (const type of ['observation', 'insight', 'procedure', 'heuristic']) {
        expect(await svg.locator(`g.node.type-${type}`).count(), type).toBe(nodes.filter((n) => n.type === type).length)
      }
      // size by importance
      const radius = async (id: string) => Number(await svg.locator(`g.node[data-id="${id}"] circle`).getAttribute('r'))
      const sorted = [...nodes].sort((a, b) => a.importance - b.importance)
      expect(await radius(sorted[0].id)).toBeLessThan(await radius(sorted.at(-1)!.id))
      await svg.locator('[data-settled="true"]').or(w.page.locator('[data-testid="graph"][data-settled="true"]')).first().waitFor()
      // every node was laid out inside the drawing
      const positions = await svg.locator('g.node').evaluateAll((gs) => gs.map((g) => g.getAttribute('transform')))
      expect(positions.every((t) => /^translate\(-?\d+(\.\d+)?,-?\d+(\.\d+)?\)$/.test(t ?? ''))).toBe(true)
      // the view fits every node; zoom changes it, reset fits again
      const view = svg.locator(':scope > g')
      const fitted = (await view.getAttribute('transform'))!
      const box = await svg.boundingBox()
      for (const b of await svg.locator('g.node circle').evaluateAll((cs) => cs.map((c) => c.getBoundingClientRect().toJSON()))) {
        expect(b.left).toBeGreaterThanOrEqual(box!.x - 1)
        expect(b.right).toBeLessThanOrEqual(box!.x + box!.width + 1)
        expect(b.top).toBeGreaterThanOrEqual(box!.y - 1)
        expect(b.bottom).toBeLessThanOrEqual(box!.y + box!.height + 1)
      }
      const scale = (t: string) => Number(/scale\(([\d.]+)\)/.exec(t)![1])
      await w.page.getByRole('button', {name: 'Zoom in'}).click()
      expect(scale((await view.getAttribute('transform'))!)).toBeCloseTo(scale(fitted) * 1.25, 5)
      await w.page.getByRole('button', {name: 'Reset view'}).click()
      expect(await view.getAttribute('transform')).toBe(fitted)
      expect(await seriousViolations(w.page)).toEqual([])
      await screenshot(w.page, 'graph-standin-light')
      // Enter on a focused node opens it; so does a click
      await svg.locator(`g.node[data-id="${nodes[3].id}"]`).focus()
      await w.page.keyboard.press('Enter')
      await expect.poll(() => w.page.getByTestId('memory-detail').getAttribute('data-id')).toBe(nodes[3].id)
      await w.page.goBack()
      await svg.waitFor()
      await w.page.locator('[data-testid="graph"][data-settled="true"]').waitFor()
      await svg.locator(`g.node[data-id="${nodes[10].id}"]`).click()
      await expect.poll(() => w.page.getByTestId('memory-detail').getAttribute('data-id')).toBe(nodes[10].id)
      expect(w.errors).toEqual([])
    } finally {
      await w.context.close()
    }
  })

  it('dashboard (agreed portal shape): quality score, usage chart and tasks from one portal request', async () => {
    const w = await openPage(browser)
    try {
      const recent = (await fx.client.browse(fx.repo, 0, 10)).entries
      const s = await stats()
      const days = Array.from({length: 30}, (_, i) => ({date: `2026-02-${String(i + 1).padStart(2, '0')}`.replace('2026-02-29', '2026-03-01').replace('2026-02-30', '2026-03-02'), count: i % 5, byOperation: {recall: i % 5}}))
      const portal = {
        repo: fx.repoId,
        repoId: fx.repoId,
        generatedAt: '2026-03-11T12:00:00.000Z',
        counts: s.counts,
        total: s.total,
        recent,
        quality: {repo: fx.repoId, totalMemories: s.total, recalled: 12, echoRatio: 0.5, fizzleRatio: 0.25, staleCount: 3, deadCount: 1, issues: [{kind: 'stale', severity: 'warning', count: 3, exampleIds: [recent[0].id], advice: 'Review or forget memories not recalled in 30 days.'}], score: 72},
        usage: {days: 30, total: 60, operations: [{operation: 'recall', count: 60, avgDurationMs: 1.2, p95DurationMs: 3.4, avgResults: 5}], timeseries: days},
        tasks: [{id: 'maintenance:app', type: 'maintenance', repo: fx.repoId, intervalHours: 24, lastRunAt: null, nextRunAt: '2026-03-12T00:00:00.000Z', status: 'idle', lastError: null}],
      }
      await announceRoutes(w.page, [['GET', '/api/mem/portal']])
      await w.page.route(/\/api\/mem\/portal\?/, (route) => route.fulfill({json: portal}))
      await visit(w, 'dashboard')
      await expect.poll(() => w.page.getByTestId('counts').getAttribute('data-total')).toBe(String(s.total))
      await expect(w.page.locator('[data-testid="quality"] .score-value').textContent()).resolves.toBe('72')
      await expect(w.page.locator('[data-testid="quality"] .issues').textContent()).resolves.toContain('Review or forget')
      expect(await w.page.locator('[data-testid="usage"] svg.sparkline rect').count()).toBe(30)
      await expect(w.page.getByTestId('tasks').textContent()).resolves.toContain('maintenance')
      // the task names its repository by folder name, its path and id on hover
      const repoCell = w.page.getByTestId('tasks').locator(`[data-repo="${fx.repoId}"]`)
      await expect.poll(() => repoCell.textContent()).toContain(`· ${basename(fx.repo)}`)
      expect(await repoCell.getAttribute('title')).toContain(fx.repoId)
      // one request answered the whole dashboard
      expect(w.requests.filter((r) => /^\/api\/mem\/(stats|browse|quality|usage)/.test(r.path))).toEqual([])
      expect(await seriousViolations(w.page)).toEqual([])
      await screenshot(w.page, 'dashboard-portal-light')
      expect(w.errors).toEqual([])
    } finally {
      await w.context.close()
    }
  })

  it('export and import (real routes): downloads equal the API answer, a pack imports, intake runs', async () => {
    const w = await openPage(browser)
    try {
      await visit(w, 'settings')
      await w.page.getByTestId('status').waitFor()
      const transfer = w.page.locator('[data-section="transfer"]')
      const [markdown] = await Promise.all([w.page.waitForEvent('download'), w.page.getByRole('button', {name: 'Download markdown export'}).click()])
      const expected = await (await fetch(`${fx.url}/api/mem/export?repo=${encodeURIComponent(fx.repoId)}`)).text()
      expect(expected).toMatch(/^# Memories of /)
      const {readFileSync} = await import('node:fs')
      expect(readFileSync((await markdown.path())!, 'utf8')).toBe(expected)

      const [download] = await Promise.all([w.page.waitForEvent('download'), w.page.getByRole('button', {name: 'Download pack (.mem)'}).click()])
      expect(download.suggestedFilename()).toBe('app.mem') // the folder's name, not the repo id
      const file = (await download.path())!
      const before = (await stats(fx.otherRepo)).total
      await w.page.getByLabel('Repository').selectOption((await fx.client.browse(fx.otherRepo, 0, 1)).repo)
      await w.page.getByLabel('Import a pack (.mem)').setInputFiles(file)
      await w.page.getByRole('button', {name: 'Import pack'}).click()
      await expect.poll(() => transfer.textContent()).toMatch(/Imported \d+ memories/)
      const imported = Number(/Imported (\d+) memories/.exec((await transfer.textContent())!)![1])
      expect(imported).toBeGreaterThan(0)
      expect((await stats(fx.otherRepo)).total).toBe(before + imported)

      const intake = w.page.locator('[data-section="intake"]')
      await w.page.getByRole('button', {name: 'Run intake'}).click()
      await expect.poll(() => intake.textContent()).toMatch(/\d+ new, \d+ skipped/)
      expect(w.errors).toEqual([])
    } finally {
      await w.context.close()
    }
  })

  it('export and import (agreed shapes): markdown and pack downloads, pack upload as base64, intake counts', async () => {
    const w = await openPage(browser)
    try {
      const markdown = `# Memories of ${fx.repoId}\n\n## Procedures\n\n- Run the linters with npm run lint:all\n`
      const packBytes = Buffer.from(Array.from({length: 70_000}, (_, i) => (i * 31 + 7) % 256))
      let imported: {repo?: string; data?: string} | undefined
      await announceRoutes(w.page, [
        ['GET', '/api/mem/export'],
        ['POST', '/api/mem/packs/export'],
        ['POST', '/api/mem/packs/import'],
        ['POST', '/api/mem/intake'],
      ])
      await w.page.route(/\/api\/mem\/export\?/, (route) => route.fulfill({status: 200, contentType: 'text/markdown; charset=utf-8', body: markdown}))
      await w.page.route(/\/api\/mem\/packs\/export\?/, (route) =>
        route.fulfill({status: 200, contentType: 'application/octet-stream', headers: {'content-disposition': `attachment; filename="${fx.repoId}.mem"`}, body: packBytes}),
      )
      await w.page.route(/\/api\/mem\/packs\/import$/, (route) => {
        imported = route.request().postDataJSON()
        return route.fulfill({json: {imported: 3, skipped: 1, packId: 'p-1', name: 'team-pack', version: '1.0.0'}})
      })
      await w.page.route(/\/api\/mem\/intake\?/, (route) => route.fulfill({json: {newCount: 4, skippedCount: 2}}))
      await visit(w, 'settings')
      await w.page.getByTestId('status').waitFor()

      const [md] = await Promise.all([w.page.waitForEvent('download'), w.page.getByRole('button', {name: 'Download markdown export'}).click()])
      expect(md.suggestedFilename()).toBe(`${fx.repoId}.md`)
      const {readFileSync} = await import('node:fs')
      expect(readFileSync((await md.path())!, 'utf8')).toBe(markdown)

      const [pack] = await Promise.all([w.page.waitForEvent('download'), w.page.getByRole('button', {name: 'Download pack (.mem)'}).click()])
      expect(pack.suggestedFilename()).toBe(`${fx.repoId}.mem`)
      expect(readFileSync((await pack.path())!).equals(packBytes)).toBe(true)

      await w.page.getByLabel('Import a pack (.mem)').setInputFiles({name: 'team.mem', mimeType: 'application/octet-stream', buffer: packBytes})
      await w.page.getByRole('button', {name: 'Import pack'}).click()
      await w.page.getByText('Imported 3 memories from team-pack 1.0.0 (1 skipped as duplicates).').waitFor()
      expect(imported?.repo).toBe(fx.repoId)
      expect(Buffer.from(imported!.data!, 'base64').equals(packBytes)).toBe(true)

      await w.page.getByRole('button', {name: 'Run intake'}).click()
      await w.page.getByText('4 new, 2 skipped.').waitFor()
      expect(w.errors).toEqual([])
    } finally {
      await w.context.close()
    }
  })
})

describe('web UI with API keys on', {timeout: 120_000}, () => {
  it('asks for a key once, shows 401 and 403 as such, keeps the key for the session', async () => {
    const keyed = await startFixture({withKeys: true})
    const w = await openPage(browser)
    try {
      await w.page.goto(`${keyed.url}/ui/#/dashboard`)
      const dialog = w.page.getByRole('dialog', {name: 'API key'})
      await dialog.waitFor()
      await expect(dialog.textContent()).resolves.toContain('Authentication required')
      // behind the dialog the page says what happened, not a blank page
      await expect(w.page.locator('main [data-status="401"]').textContent()).resolves.toContain('401 Unauthorized')

      await dialog.getByLabel('Key').fill('mem_not-a-real-key')
      await dialog.getByRole('button', {name: 'Use key'}).click()
      await expect.poll(() => dialog.textContent()).toContain('The key was refused: Invalid API key')

      await dialog.getByLabel('Key').fill(keyed.keys!.read)
      await dialog.getByRole('button', {name: 'Use key'}).click()
      await dialog.waitFor({state: 'detached'})
      const reader = new MemClient(keyed.url, keyed.keys!.read)
      const total = (await reader.stats(keyed.repo)).total
      reader.close()
      expect(total).toBeGreaterThan(0)
      await expect.poll(() => w.page.getByTestId('counts').getAttribute('data-total')).toBe(String(total))

      // a read key cannot run maintenance: 403 named, with the scope it needs
      await w.page.getByRole('navigation', {name: 'Pages'}).getByRole('link', {name: 'Settings'}).click()
      await w.page.getByRole('button', {name: 'Run maintenance'}).click()
      const forbidden = w.page.locator('[data-testid="maintenance"] [data-status="403"]')
      await forbidden.waitFor()
      await expect(forbidden.textContent()).resolves.toMatch(/403 Forbidden.*needs admin/)

      // another key, then the run goes through; the key survives a reload (same session)
      await forbidden.getByRole('button', {name: 'Use another key'}).click()
      await dialog.getByLabel('Key').fill(keyed.keys!.admin)
      await dialog.getByRole('button', {name: 'Use key'}).click()
      await w.page.getByRole('button', {name: 'Run maintenance'}).click()
      await expect.poll(() => w.page.getByTestId('maintenance').getAttribute('data-status'), {timeout: 60_000}).toBe('completed')
      await w.page.reload()
      await w.page.getByTestId('status').waitFor()
      expect(await dialog.count()).toBe(0)
      expect(await w.page.evaluate(() => sessionStorage.getItem('mem.apiKey'))).toBe(keyed.keys!.admin)
      // the only console errors are the refused requests themselves
      expect(w.errors.filter((e) => !/status of 40[13]/.test(e))).toEqual([])
    } finally {
      await w.context.close()
      await keyed.close()
    }
  })
})
