import {render} from 'ink-testing-library'
import {describe, expect, it, onTestFinished} from 'vitest'
import {browse} from '../../../src/operations/browse.js'
import {forget} from '../../../src/operations/forget.js'
import {get} from '../../../src/operations/get.js'
import {store} from '../../../src/operations/store.js'
import type {MemContext} from '../../../src/engines/context.js'
import {openMem} from '../../../src/runtime/open-mem.js'
import {Browser, type BrowserProps} from '../../../src/faces/tui/app.js'
import {fixedClock, memRepo} from '../../helpers/mem.js'
import {testMemory} from '../../helpers/memory.js'

const KEY = {
  up: '\u001b[A',
  down: '\u001b[B',
  right: '\u001b[C',
  left: '\u001b[D',
  pageDown: '\u001b[6~',
  pageUp: '\u001b[5~',
  enter: '\r',
  escape: '\u001b',
  backspace: '\u007f',
  ctrlU: '\u0015',
}

const TOPICS = [
  'integration tests need docker running before npm run test:int',
  'the kafka consumer lag alert fires when the partition rebalances',
  'release builds are signed with the key in the vault, never the local one',
  'postgres migrations run in a transaction except for concurrent index builds',
  'the flaky login e2e test waits on a websocket that reconnects slowly',
  'eslint flat config lives in eslint.config.mjs since the upgrade',
]
const WORDS = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel', 'india', 'juliet', 'kilo', 'lima', 'mike', 'november', 'oscar']
const TYPES = ['observation', 'insight', 'procedure', 'heuristic'] as const

/** A repo with `n` distinct memories stored one minute apart (the last one is the newest). */
async function seeded(n: number) {
  const clock = fixedClock()
  const {root, home} = memRepo({}, {clock})
  const ctx = openMem({meaning: {model: 'off'}, home, cwd: root, now: clock, longLived: true})
  onTestFinished(() => ctx.close())
  const ids: string[] = []
  for (let i = 0; i < n; i++) {
    clock.advance(60_000)
    const base = i < TOPICS.length ? TOPICS[i] : `note ${WORDS[i % WORDS.length]} ${WORDS[Math.floor(i / WORDS.length) % WORDS.length]} about module ${i}`
    const r = await store(ctx, {repo: root, content: base, type: TYPES[i % 4], tags: i < TOPICS.length ? [`topic${i}`] : ['misc']})
    if (!r.success) throw new Error(JSON.stringify(r))
    ids.push(r.id)
  }
  return {ctx, root, home, clock, ids}
}

function mount(ctx: MemContext, repo: string, props: Partial<BrowserProps> = {}) {
  const app = render(<Browser ctx={ctx} repo={repo} columns={80} rows={24} refreshMs={0} debounceMs={10} {...props} />)
  onTestFinished(() => app.unmount())
  const frame = () => app.lastFrame() ?? ''
  async function until(check: (f: string) => boolean, what: string): Promise<string> {
    const deadline = Date.now() + 5_000
    while (Date.now() < deadline) {
      if (check(frame())) return frame()
      await new Promise((r) => setTimeout(r, 10))
    }
    throw new Error(`timed out waiting for ${what}; last frame:\n${frame()}`)
  }
  const waitFor = (text: string | RegExp) =>
    until((f) => (typeof text === 'string' ? f.includes(text) : text.test(f)), String(text))
  /** Sends keys one event at a time, letting the app render after each. */
  async function press(...keys: string[]) {
    for (const k of keys) {
      app.stdin.write(k)
      await new Promise((r) => setTimeout(r, 15))
    }
  }
  return {app, frame, waitFor, until, press}
}

const lines = (f: string) => f.split('\n')

describe('terminal browser: first screen and layout', () => {
  it('shows the newest page, a selection, the keys bar, and fits 80×24', async () => {
    const {ctx, root, ids} = await seeded(8)
    const ui = mount(ctx, root)
    const f = await ui.waitFor('1–8 of 8')
    const rows = lines(f)
    expect(rows.length).toBeLessThanOrEqual(23)
    for (const row of rows) expect([...row].length).toBeLessThanOrEqual(80)
    expect(rows[0]).toContain('mem browse')
    expect(rows[0]).toContain('type: all')
    // newest first: the last stored memory is on top, selected
    expect(rows[2]).toMatch(/^> [OIPH] \d{4}-\d\d-\d\d 0\.50 /)
    expect(f.indexOf('module 7')).toBeLessThan(f.indexOf('module 6'))
    expect(rows.at(-1)).toContain('/ search')
    expect(rows.at(-1)).toContain('? keys')
    expect(rows.at(-1)).toContain('q quit')
    expect(ids).toHaveLength(8)
  })

  it('says how to start when the store is empty', async () => {
    const {ctx, root} = await seeded(0)
    const ui = mount(ctx, root)
    await ui.waitFor('No memories yet')
    await ui.waitFor('0 memories')
  })

  it('shows the first page the command loaded while ink loaded, when it fits the screen', async () => {
    const {ctx, root} = await seeded(0)
    const entry = testMemory({id: 'memories/app/insight/0123456789ab', type: 'insight', content: 'preloaded page entry', source: 's'})
    const page = Promise.resolve({repo: 'app', skip: 0, take: 19, count: 1, entries: [entry]})
    const used = mount(ctx, root, {firstPage: {take: 19, page}})
    await used.waitFor('preloaded page entry')
    used.app.unmount()
    // a page of another size is not the screen's: the browser reads its own
    const ignored = mount(ctx, root, {firstPage: {take: 10, page}})
    await ignored.waitFor('No memories yet')
    expect(ignored.frame()).not.toContain('preloaded')
  })

  it('redraws for a new terminal size', async () => {
    const {ctx, root} = await seeded(30)
    const app = render(<Browser ctx={ctx} repo={root} refreshMs={0} />)
    onTestFinished(() => app.unmount())
    const out = app.stdout as unknown as NodeJS.EventEmitter & {columns: number; rows?: number}
    Object.defineProperty(out, 'columns', {value: 80, configurable: true})
    Object.defineProperty(out, 'rows', {value: 24, configurable: true, writable: true})
    app.stdout.emit('resize')
    const deadline = Date.now() + 5_000
    while (!(app.lastFrame() ?? '').includes('1–19 of 30') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10))
    expect(app.lastFrame()).toContain('1–19 of 30')
    Object.defineProperty(out, 'columns', {value: 50, configurable: true})
    Object.defineProperty(out, 'rows', {value: 12, configurable: true, writable: true})
    app.stdout.emit('resize')
    while (!(app.lastFrame() ?? '').includes('1–7 of 30') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10))
    const f = app.lastFrame() ?? ''
    expect(f).toContain('1–7 of 30') // 12 rows: 7 list lines
    expect(lines(f).length).toBeLessThanOrEqual(11)
    for (const row of lines(f)) expect([...row].length).toBeLessThanOrEqual(50)
  })
})

describe('terminal browser: paging and type filter', () => {
  it('pages with n/p and PgDn/PgUp through the whole store, and stops at the ends', async () => {
    const {ctx, root} = await seeded(45)
    const ui = mount(ctx, root)
    await ui.waitFor('1–19 of 45')
    await ui.press('n')
    await ui.waitFor('20–38 of 45')
    await ui.press(KEY.pageDown)
    let f = await ui.waitFor('39–45 of 45')
    expect(f).toContain('integration tests need docker') // the oldest is on the last page
    await ui.press('n')
    await ui.waitFor('Last page.')
    expect(ui.frame()).toContain('39–45 of 45')
    await ui.press(KEY.pageUp)
    await ui.waitFor('20–38 of 45')
    await ui.press('p', 'p')
    await ui.waitFor('First page.')
    await ui.waitFor('1–19 of 45 · type')
  })

  it('moves the selection with arrows and j/k, clamped to the page', async () => {
    const {ctx, root} = await seeded(3)
    const ui = mount(ctx, root)
    await ui.waitFor('1–3 of 3')
    const selected = () => lines(ui.frame()).findIndex((l) => l.startsWith('> '))
    expect(selected()).toBe(2)
    await ui.press(KEY.down, 'j', 'j', 'j')
    expect(selected()).toBe(4)
    await ui.press(KEY.up, 'k', 'k')
    expect(selected()).toBe(2)
  })

  it('cycles the type filter with t and counts only that type', async () => {
    const {ctx, root} = await seeded(10) // types cycle: 3 observations, 3 insights, 2 procedures, 2 heuristics
    const ui = mount(ctx, root)
    await ui.waitFor('1–10 of 10')
    await ui.press('t')
    let f = await ui.waitFor('1–3 of 3 · type: observation')
    expect(lines(f).slice(2, 5).every((l) => /^[> ] O /.test(l))).toBe(true)
    await ui.press('t')
    await ui.waitFor('1–3 of 3 · type: insight')
    await ui.press('t')
    f = await ui.waitFor('1–2 of 2 · type: procedure')
    expect(f).toMatch(/ P /)
    await ui.press('t', 't')
    await ui.waitFor('1–10 of 10 · type: all')
  })
})

describe('terminal browser: search and filter', () => {
  it('searches the whole store as you type through recall, and Esc returns to browsing', async () => {
    const {ctx, root} = await seeded(40)
    const ui = mount(ctx, root)
    await ui.waitFor('1–19 of 40')
    await ui.press('/')
    await ui.waitFor('/ █')
    await ui.press('d', 'o', 'c', 'k', 'e', 'r')
    const f = await ui.waitFor(/search "docker": \d+ results?/)
    // the docker memory is the oldest one: it was not on the first page, the search found it
    expect(lines(f)[2]).toContain('integration tests need docker')
    expect(f).toContain('/ docker█')
    await ui.press(KEY.backspace, KEY.backspace, KEY.backspace, KEY.backspace, KEY.backspace, KEY.backspace)
    await ui.waitFor('1–19 of 40')
    await ui.press('k', 'a', 'f', 'k', 'a')
    await ui.waitFor('kafka consumer lag')
    await ui.press(KEY.enter) // keep the results, back to keys
    await ui.waitFor('/ kafka\n')
    await ui.press(KEY.enter) // open the selected result
    await ui.waitFor('── content ──')
    await ui.press(KEY.escape)
    await ui.waitFor('search "kafka"')
    await ui.press('/', KEY.escape)
    await ui.waitFor('1–19 of 40')
    expect(ui.frame()).not.toContain('kafka consumer lag')
  })

  it('Esc in the list clears a kept filter, then a kept search, and quits only after that', async () => {
    const {ctx, root} = await seeded(40)
    const ui = mount(ctx, root)
    await ui.waitFor('1–19 of 40')
    await ui.press('/', 'k', 'a', 'f', 'k', 'a')
    await ui.waitFor(/search "kafka": \d+ results?/)
    await ui.press(KEY.enter, 'f', 'l', 'a', 'g', KEY.enter) // keep both, back to the list keys
    await ui.waitFor('filter "lag": 1 shown')
    await ui.press(KEY.escape)
    let f = await ui.until((fr) => !fr.includes('filter "lag"'), 'the filter to clear')
    expect(f).toMatch(/search "kafka": \d+ results?/)
    await ui.press(KEY.escape)
    f = await ui.waitFor('1–19 of 40 · type')
    expect(f).toContain('/ to search · f to filter')
    expect(ui.app.stdin.listenerCount('readable')).toBeGreaterThan(0) // still running
    await ui.press(KEY.escape)
    await ui.until(() => ui.app.stdin.listenerCount('readable') === 0, 'the app to stop reading keys')
  })

  it('says so when nothing matches a search', async () => {
    const {ctx, root} = await seeded(5)
    const ui = mount(ctx, root)
    await ui.waitFor('1–5 of 5')
    await ui.press('/', 'z', 'y', 'x', 'w', 'v')
    await ui.waitFor('No memories match "zyxwv"')
  })

  it('filters what is on screen instantly (typo-tolerant), and Esc clears the filter', async () => {
    const {ctx, root} = await seeded(6)
    const ui = mount(ctx, root)
    await ui.waitFor('1–6 of 6')
    await ui.press('f', 'p', 'o', 's', 't', 'g', 'r', 'e', 's')
    let f = await ui.waitFor('filter "postgres": 1 shown')
    expect(f).toContain('postgres migrations')
    expect(f).not.toContain('kafka')
    await ui.press(KEY.ctrlU, 'k', 'a', 'f', 'k', 'q') // a typo still finds it
    f = await ui.waitFor('filter "kafkq": 1 shown')
    expect(f).toContain('kafka consumer lag')
    await ui.press(KEY.ctrlU, 'q', 'q', 'q', 'q', 'q', 'q', 'q')
    await ui.waitFor('Nothing on screen matches')
    await ui.press(KEY.escape)
    f = await ui.waitFor('1–6 of 6 · type')
    expect(f).toContain('kafka consumer lag')
    expect(f).toContain('postgres migrations')
  })
})

describe('terminal browser: detail pane', () => {
  it('shows every field, links, and the version history; scrolls and goes back', async () => {
    const {ctx, root, ids} = await seeded(3)
    // a link as the links branch records it on the memory entry
    const handle = await ctx.repo(root, 'write')
    await handle.store.write(() => ({ops: [{op: 'update', id: ids[2], set: {links: [{targetId: ids[0], relation: 'relates-to'}]}}], result: null}))
    const ui = mount(ctx, root)
    await ui.waitFor('1–3 of 3')
    await ui.press(KEY.enter)
    let f = await ui.waitFor('── content ──')
    for (const field of ['type', 'importance', 'tags', 'created', 'updated', 'source', 'recalled', 'feedback', 'one-liner']) {
      expect(f).toMatch(new RegExp(`^${field} +\\S`, 'm'))
    }
    expect(f).toContain(ids[2])
    expect(f).toContain(`relates-to → ${ids[0]}`)
    expect(f).toContain('release builds are signed with the key in the vault')
    await ui.press(KEY.escape)
    await ui.waitFor('1–3 of 3')
    expect(ui.frame()).not.toContain('── content ──')
  })

  it('edits the content in the editor as a new version and shows its history', async () => {
    const {ctx, root, ids} = await seeded(3)
    const seen: string[] = []
    const ui = mount(ctx, root, {
      editText: (text) => {
        seen.push(text)
        return `${text} (checked again after the v2 upgrade)\n`
      },
    })
    await ui.waitFor('1–3 of 3')
    await ui.press(KEY.enter)
    await ui.waitFor('── content ──')
    await ui.press('e')
    const f = await ui.waitFor('Saved a new version')
    expect(seen).toEqual(['release builds are signed with the key in the vault, never the local one'])
    const newId = /Saved a new version (\S+)\./.exec(f)![1]
    expect(newId).not.toBe(ids[2])
    await ui.waitFor('history (2 versions')
    expect(ui.frame()).toContain(`supersedes   ${ids[2]}`)
    expect((await get(ctx, {id: ids[2]})).supersededBy).toBe(newId)
    expect((await get(ctx, {id: newId})).content).toBe('release builds are signed with the key in the vault, never the local one (checked again after the v2 upgrade)')
  })

  it('saves nothing when the editor leaves the text as it was, or gives up', async () => {
    const {ctx, root, ids} = await seeded(2)
    let answer: string | null = null
    const ui = mount(ctx, root, {editText: (text) => answer ?? text})
    await ui.waitFor('1–2 of 2')
    await ui.press('e')
    await ui.waitFor('No change: nothing saved.')
    answer = '   \n'
    await ui.press('e')
    await ui.waitFor('Empty text: nothing saved.')
    expect((await browse(ctx, {repo: root})).entries.map((m) => m.id).sort()).toEqual([...ids].sort())
  })

  it('refuses an edit that holds a secret or duplicates another memory, and says why', async () => {
    const {ctx, root, ids} = await seeded(2)
    const secret = 'AKIA' + 'IOSFODNN7EXAMPLQ'
    let next = `deploy key for staging is ${secret}`
    const ui = mount(ctx, root, {editText: () => next})
    await ui.waitFor('1–2 of 2')
    await ui.press('e')
    let f = await ui.waitFor('! Not saved:')
    expect(f).not.toContain(secret)
    next = 'integration tests need docker running before npm run test:int' // the other memory, word for word
    await ui.press('e')
    f = await ui.waitFor('! Not saved: it duplicates')
    expect(f.replace(/\n/g, ' ')).toContain(`it duplicates ${ids[0]}.`) // the whole id, on two lines if need be
    for (const line of lines(f)) expect([...line].length).toBeLessThanOrEqual(80)
    expect(lines(f).length).toBeLessThanOrEqual(23)
    expect((await get(ctx, {id: ids[1]})).supersededBy).toBeNull()
  })

  it('scrolls a long memory', async () => {
    const {ctx, root} = await seeded(0)
    const long = Array.from({length: 60}, (_, i) => `line ${i} of the runbook for the deploy of service ${WORDS[i % WORDS.length]}`).join('\n')
    await store(ctx, {repo: root, content: long, type: 'procedure'})
    const ui = mount(ctx, root)
    await ui.waitFor('1–1 of 1')
    await ui.press(KEY.enter)
    await ui.waitFor('── content ──')
    expect(ui.frame()).not.toContain('line 30 of')
    await ui.press(' ', ' ')
    await ui.waitFor('line 30 of')
    expect(ui.frame()).not.toContain('type         procedure')
    await ui.press(KEY.pageUp, KEY.pageUp, KEY.pageUp)
    await ui.waitFor('type         procedure')
  })
})

describe('terminal browser: actions', () => {
  it('forgets only after a reason prompt and a y', async () => {
    const {ctx, root, ids} = await seeded(4)
    const ui = mount(ctx, root)
    await ui.waitFor('1–4 of 4')
    await ui.press('d')
    await ui.waitFor('Forget: reason (optional): █')
    await ui.press('o', 'b', 's', 'o', 'l', 'e', 't', 'e')
    await ui.press(KEY.enter)
    const f = await ui.waitFor('? y/N')
    expect(f).toContain('Forget "postgres migrations run in a')
    expect(f).toContain('(obsolete)')
    expect((await get(ctx, {id: ids[3]})).forgottenAt).toBeNull() // nothing yet
    await ui.press('y')
    await ui.waitFor(`Forgot ${ids[3]}.`)
    await ui.waitFor('1–3 of 3')
    const m = await get(ctx, {id: ids[3]})
    expect(m.forgottenAt).not.toBeNull()
    expect(m.forgetReason).toBe('obsolete')
  })

  it('keeps the memory on every cancel path of forget', async () => {
    const {ctx, root, ids} = await seeded(2)
    const ui = mount(ctx, root)
    await ui.waitFor('1–2 of 2')
    // Esc at the reason prompt
    await ui.press('d', 'x', KEY.escape)
    await ui.waitFor('Cancelled: nothing changed.')
    // any key but y at the confirmation
    await ui.press('d', KEY.enter)
    await ui.waitFor('? y/N')
    await ui.press('n')
    await ui.waitFor('Forget cancelled: nothing changed.')
    await ui.press('d', KEY.enter, KEY.escape)
    await ui.waitFor('Forget cancelled: nothing changed.')
    expect(ui.frame()).toContain('1–2 of 2')
    for (const id of ids) expect((await get(ctx, {id})).forgottenAt).toBeNull()
  })

  it('forgets from the detail pane and returns to the list', async () => {
    const {ctx, root, ids} = await seeded(2)
    const ui = mount(ctx, root)
    await ui.waitFor('1–2 of 2')
    await ui.press(KEY.enter)
    await ui.waitFor('── content ──')
    await ui.press('d', KEY.enter, 'y')
    await ui.waitFor(`Forgot ${ids[1]}.`)
    const f = await ui.waitFor('1–1 of 1')
    expect(f).not.toContain('── content ──')
    expect((await get(ctx, {id: ids[1]})).forgetReason).toBe('forgotten by request')
  })

  it('counts the results again after a forget during a search, and what a filter shows', async () => {
    const {ctx, root} = await seeded(0)
    for (const content of ['deploy runs the migration before the rollout', 'the deploy pipeline waits for the canary', 'a failed deploy rolls back by itself', 'grafana dashboards come from the ops repo']) {
      await store(ctx, {repo: root, content, type: 'observation'})
    }
    const ui = mount(ctx, root, {searchLimit: 3})
    await ui.waitFor('1–4 of 4')
    // pasted, so one recall: a search typed letter by letter also recalls "dep", "depl"…, and
    // recall's fuzzy fill then keeps returning a forgotten memory for a while (see the report on
    // issue 20); what this checks is that the browser asks again and shows the new count
    await ui.press('/', 'deploy')
    await ui.waitFor('search "deploy": 3 results')
    await ui.press(KEY.enter, 'd', KEY.enter, 'y')
    await ui.waitFor('Forgot ')
    await ui.waitFor('search "deploy": 2 results')
    await ui.press(KEY.escape)
    await ui.waitFor('1–3 of 3 · type')
    await ui.press('f', 'd', 'e', 'p', 'l', 'o', 'y', KEY.enter)
    await ui.waitFor('1–3 of 3 · filter "deploy": 2 shown')
    await ui.press('d', KEY.enter, 'y')
    await ui.waitFor('1–2 of 2 · filter "deploy": 1 shown')
  })

  it('reads the list again when a change is refused because the store changed under it', async () => {
    const {ctx, root, home, clock, ids} = await seeded(3)
    const ui = mount(ctx, root)
    await ui.waitFor('1–3 of 3')
    // another process forgets the selected memory; refreshMs 0: the browser does not know yet
    const other = openMem({meaning: {model: 'off'}, home, cwd: root, now: clock})
    await forget(other, {id: ids[2], repo: root})
    await other.close()
    await ui.press('#', KEY.enter)
    // the error is long: it wraps over the status lines
    const refused = (fr: string) => fr.replace(/\n/g, ' ').includes(`! ${ids[2]} was forgotten; it cannot be edited.`)
    await ui.until(refused, 'the refusal')
    const f = await ui.waitFor('1–2 of 2')
    expect(refused(f)).toBe(true)
    expect(ui.frame()).not.toContain('release builds are signed')
  })

  it('edits tags and importance, refusing bad values without leaving the prompt', async () => {
    const {ctx, root, ids} = await seeded(1)
    const ui = mount(ctx, root)
    await ui.waitFor('1–1 of 1')
    await ui.press('#')
    await ui.waitFor('Tags (comma separated): topic0█')
    await ui.press(KEY.ctrlU, ...'docker, ci testing'.split(''), KEY.enter)
    await ui.waitFor('Tags: docker, ci, testing.')
    expect((await get(ctx, {id: ids[0]})).tags).toEqual(['docker', 'ci', 'testing'])

    await ui.press('i')
    await ui.waitFor('Importance (0.0 to 1.0): 0.5█')
    await ui.press(KEY.backspace, KEY.backspace, KEY.backspace, '2', KEY.enter)
    await ui.waitFor('! Importance is a number from 0.0 to 1.0.')
    expect(ui.frame()).toContain('Importance (0.0 to 1.0): 2█') // still asking
    await ui.press(KEY.backspace, 'x', KEY.enter)
    await ui.waitFor('! Importance is a number from 0.0 to 1.0.')
    await ui.press(KEY.ctrlU, '0', '.', '9', KEY.enter)
    await ui.waitFor('Importance: 0.9.')
    await ui.waitFor(' 0.90 ')
    expect((await get(ctx, {id: ids[0]})).importance).toBe(0.9)

    await ui.press('i', KEY.escape)
    await ui.waitFor('Cancelled: nothing changed.')
    expect((await get(ctx, {id: ids[0]})).importance).toBe(0.9)
  })

  it('records feedback used and not used, and copies the id', async () => {
    const {ctx, root, ids} = await seeded(1)
    const copied: string[] = []
    const ui = mount(ctx, root, {copy: (t) => copied.push(t)})
    await ui.waitFor('1–1 of 1')
    await ui.press('+')
    await ui.waitFor('Recorded: used.')
    await ui.press('-')
    await ui.waitFor('Recorded: not used.')
    const m = await get(ctx, {id: ids[0]})
    expect([m.usedCount, m.unusedCount]).toEqual([1, 1])
    await ui.press('y')
    await ui.waitFor(`Copied ${ids[0]}`)
    expect(copied).toEqual([ids[0]])
  })

  it('shows the id when there is no clipboard, and says when there is no editor', async () => {
    const {ctx, root, ids} = await seeded(1)
    const ui = mount(ctx, root)
    await ui.waitFor('1–1 of 1')
    await ui.press('y')
    await ui.waitFor(`Id: ${ids[0]}`)
    await ui.press('e')
    await ui.waitFor('No editor: set $VISUAL or $EDITOR.')
  })
})

describe('terminal browser: refresh and quit', () => {
  it('shows writes made by another process on r and on the periodic refresh', async () => {
    const {ctx, root, home, clock} = await seeded(2)
    // another process: its own runtime and store over the same files
    const other = openMem({meaning: {model: 'off'}, home, cwd: root, now: clock})
    onTestFinished(() => other.close())
    const ui = mount(ctx, root)
    await ui.waitFor('1–2 of 2')
    clock.advance(60_000)
    await store(other, {repo: root, content: 'the staging database is reset every sunday night', type: 'observation'})
    await other.close()
    await new Promise((r) => setTimeout(r, 100))
    expect(ui.frame()).toContain('1–2 of 2') // refreshMs 0: nothing until asked
    await ui.press('r')
    await ui.waitFor('1–3 of 3')
    expect(lines(ui.frame())[2]).toContain('staging database is reset')

    const ticking = mount(ctx, root, {refreshMs: 50})
    await ticking.waitFor('1–3 of 3')
    const third = openMem({meaning: {model: 'off'}, home, cwd: root, now: clock})
    clock.advance(60_000)
    await store(third, {repo: root, content: 'grafana dashboards are provisioned from the ops repo', type: 'observation'})
    await third.close()
    await ticking.waitFor('1–4 of 4')
  })

  it('quits on q and on Esc from the list, and stops reading keys', async () => {
    for (const quit of ['q', KEY.escape]) {
      const {ctx, root} = await seeded(1)
      const ui = mount(ctx, root)
      await ui.waitFor('1–1 of 1')
      expect(ui.app.stdin.listenerCount('readable')).toBeGreaterThan(0)
      await ui.press(quit)
      await ui.until(() => ui.app.stdin.listenerCount('readable') === 0, 'the app to stop reading keys')
    }
  })

  it('types q into a prompt instead of quitting; Ctrl-U and backspace edit it', async () => {
    const {ctx, root} = await seeded(1)
    const ui = mount(ctx, root)
    await ui.waitFor('1–1 of 1')
    await ui.press('/', 'q')
    await ui.waitFor('/ q█')
    await ui.press(KEY.backspace)
    await ui.waitFor('/ █')
    expect(ui.app.stdin.listenerCount('readable')).toBeGreaterThan(0)
  })
})
