// Headless Chromium (Debian's `chromium`, driven by playwright-core) for the web UI tests, with
// the page's console errors collected, axe-core run inside the page, and screenshots saved when
// asked for (MEM_UI_SCREENSHOTS=1).
import {execFileSync} from 'node:child_process'
import {mkdirSync, readFileSync} from 'node:fs'
import {createRequire} from 'node:module'
import {dirname, join} from 'node:path'
import {type Browser, type BrowserContext, chromium, type Page} from 'playwright-core'

const require = createRequire(import.meta.url)
export const SCREENSHOTS = join(import.meta.dirname, 'screenshots')

/** The chromium binary: CHROMIUM_PATH, else the first of chromium / chromium-browser on PATH. */
export function chromiumPath(): string {
  if (process.env.CHROMIUM_PATH) return process.env.CHROMIUM_PATH
  for (const name of ['chromium', 'chromium-browser', 'google-chrome']) {
    try {
      return execFileSync('which', [name], {encoding: 'utf8'}).trim()
    } catch {
      // next
    }
  }
  throw new Error('No chromium found: install it (apt-get install -y chromium) or set CHROMIUM_PATH.')
}

/**
 * The features Playwright turns off in every Chromium it launches (its chromiumSwitches list), as
 * the installed playwright-core holds them. Chromium reads one --disable-features switch, the last
 * given: a list of our own replaces Playwright's unless it carries Playwright's too.
 */
function playwrightDisabledFeatures(): string[] {
  const bundle = join(dirname(require.resolve('playwright-core/package.json')), 'lib', 'coreBundle.js')
  const list = /disabledFeatures = \[([\s\S]*?)\]\.filter\(Boolean\)/.exec(readFileSync(bundle, 'utf8'))?.[1]
  const features = [...(list ?? '').matchAll(/^\s*"(\w+)",?$/gm)].map((m) => m[1])
  if (features.length === 0) throw new Error(`Playwright's list of disabled Chromium features is no longer where test/faces/ui/browser.ts reads it (${bundle}): read it again for this playwright-core.`)
  return features
}

/**
 * Chromium's own address-bar popups (chrome://omnibox-popup.top-chrome, plain and AI mode): a
 * WebUI renderer of each for every window, that is every browser context a test opens, though a
 * headless window never shows its address bar. They took 10.3 s of the file's ~30 s of Chromium
 * CPU (18 renderers); the pages under test render as before.
 */
const OWN_DISABLED_FEATURES = ['WebUIOmniboxPopup', 'WebUIOmniboxAimPopup']

export async function launch(): Promise<Browser> {
  return chromium.launch({
    executablePath: chromiumPath(),
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-dev-shm-usage',
      `--disable-features=${[...playwrightDisabledFeatures(), ...OWN_DISABLED_FEATURES].join(',')}`,
    ],
  })
}

export interface WatchedPage {
  page: Page
  context: BrowserContext
  /** Console errors and uncaught exceptions seen so far (CSP violations show up here too). */
  errors: string[]
  /** Every /api request the page made: method, path and the status it got. */
  requests: Array<{method: string; path: string; status: number}>
}

export async function openPage(browser: Browser, options: {colorScheme?: 'light' | 'dark'} = {}): Promise<WatchedPage> {
  const context = await browser.newContext({viewport: {width: 1280, height: 900}, acceptDownloads: true, colorScheme: options.colorScheme ?? 'light', reducedMotion: 'reduce'})
  const page = await context.newPage()
  const errors: string[] = []
  const requests: WatchedPage['requests'] = []
  page.on('console', (msg) => {
    if (msg.type() === 'error') errors.push(msg.text())
  })
  page.on('pageerror', (err) => errors.push(`uncaught: ${err.message}`))
  page.on('response', (res) => {
    const url = new URL(res.url())
    if (url.pathname.startsWith('/api/')) requests.push({method: res.request().method(), path: url.pathname + url.search, status: res.status()})
  })
  return {page, context, errors, requests}
}

const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8')

export interface AxeViolation {
  id: string
  impact: string | null
  help: string
  nodes: string[]
}

/**
 * Runs axe-core in the page (evaluated through the devtools protocol, so the page's CSP, which
 * forbids inline script, does not block it) and returns the serious and critical violations.
 */
export async function seriousViolations(page: Page): Promise<AxeViolation[]> {
  await page.evaluate(AXE_SOURCE)
  const result = (await page.evaluate(async () => {
    const axe = (window as unknown as {axe: {run: (ctx: Document, opts: unknown) => Promise<{violations: Array<{id: string; impact: string | null; help: string; nodes: Array<{target: string[]}>}>}>}}).axe
    const r = await axe.run(document, {resultTypes: ['violations']})
    return r.violations.map((v) => ({id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 5).map((n) => n.target.join(' '))}))
  })) as AxeViolation[]
  return result.filter((v) => v.impact === 'serious' || v.impact === 'critical')
}

/**
 * Saves a full-page screenshot to SCREENSHOTS/<name>.png when MEM_UI_SCREENSHOTS=1, for a person to
 * look at; no test asserts on them, so a plain run skips them (Chromium encoding every page's full
 * PNG took ~2.5 s of the UI test's ~23 s of CPU).
 */
export async function screenshot(page: Page, name: string): Promise<string | undefined> {
  if (process.env.MEM_UI_SCREENSHOTS !== '1') return undefined
  mkdirSync(SCREENSHOTS, {recursive: true})
  const path = join(SCREENSHOTS, `${name}.png`)
  await page.screenshot({path, fullPage: true})
  return path
}
