// Update pairs replayed as a rules file's history through `mem intake` (issue 30: "real value
// edits found as updates", "update links that join versions of one rule"), where the pair sets
// (run.mjs) compare texts alone. Each blind pair set becomes a few AGENTS.md files (partN/, 32
// bullets each: intake reads 60 seeds a file at most): every update's older text and every
// side-by-side pair's first text, as bullets in sections of eight (a seeded shuffle); then one commit at a time, in a seeded order, edits an update's line in place (older →
// newer) or adds a side-by-side pair's second text under its first, and intake runs after each.
// At the end:
// - found: the newer's memory supersedes the older's (intake matched the edited line), or links it
//   as its update;
// - wrong: a supersede or update link between any two texts that are not one update pair's;
// - hidden: a side-by-side pair with a text no longer live (a valid rule off the context).
// MEM_BENCH_PACKAGE=1 adds a package.json with the usual scripts at the root (intake seeds a
// procedure a script from it, "To run the tests, run `pnpm test`"), so that links between the rules
// and those are counted too (wrong, across files: no update pair is one of them).
// MEM_BENCH_MAINTAIN=1 runs `mem maintain` after the last commit; SHOW=N prints the first N wrong
// links (their texts: a set whose links are read is no longer held out).
// Asserts nothing. Run: npm run build, then
//   node test/bench/currency/intake-replay.mjs [sets…]   (default 25 26 27 28; ROOT=<worktree> for another build)
import {mkdirSync, mkdtempSync, rmSync, writeFileSync} from 'node:fs'
import os from 'node:os'
import {join} from 'node:path'

const ROOT = process.env.ROOT ?? join(import.meta.dirname, '..', '..', '..')
const direct = import.meta.url === `file://${process.argv[1]}`
const sets = direct && process.argv.slice(2).length > 0 ? process.argv.slice(2) : ['25', '26', '27', '28']
/** At most this many changes a commit (MEM_BENCH_CHANGES; 1: one line a commit). */
const CHANGES = Number(process.env.MEM_BENCH_CHANGES ?? 4)
/** Every this many side-by-side pairs is instead a rule deleted and an unrelated one written in its place (MEM_BENCH_REPLACED, 3; 0: none). */
const REPLACED = Number(process.env.MEM_BENCH_REPLACED ?? 3)
const {openMem} = await import(join(ROOT, 'dist', 'src', 'runtime', 'open-mem.js'))
const {intake} = await import(join(ROOT, 'dist', 'src', 'operations', 'intake.js'))
const {browse} = await import(join(ROOT, 'dist', 'src', 'operations', 'browse.js'))
const {getMemory} = await import(join(ROOT, 'dist', 'src', 'storage', 'memories.js'))

/** Names of the files' folders and sections: words, no numbers (a number in the label would read as a value each seed states). */
const FOLDERS = ['web', 'api', 'worker', 'mobile', 'infra', 'docs', 'tools', 'shared']
const SECTIONS = ['Setup', 'Code style', 'Testing', 'Git workflow']
/** MEM_BENCH_PACKAGE=1: a project's package.json, its scripts as many projects name them. */
const PACKAGE = {
  name: 'app',
  private: true,
  packageManager: 'pnpm@9.12.0',
  scripts: {dev: 'vite', build: 'tsc -b && vite build', test: 'vitest run', lint: 'eslint .', format: 'prettier --write .', typecheck: 'tsc --noEmit', e2e: 'playwright test'},
}

/** A seeded shuffle (mulberry32), so that every build replays the same history. */
function shuffled(items, seed) {
  let s = seed >>> 0
  const rand = () => {
    s = (s + 0x6d2b79f5) >>> 0
    let t = s
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
  const out = [...items]
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1))
    ;[out[i], out[j]] = [out[j], out[i]]
  }
  return out
}

/** A bullet's text as a file holds it: one line, no trailing full stop doubled. */
const line = (text) => text.replace(/\s+/g, ' ').trim()

async function replay(set) {
  const file = set === '1' ? 'blind-pairs.mjs' : `blind-pairs${set}.mjs`
  const m = await import(join(import.meta.dirname, file))
  const updates = m[`BLIND${set === '1' ? '' : set}_UPDATES`]
  const others = m[`BLIND${set === '1' ? '' : set}_OTHERS`]
  // the file: sections of eight bullets; a bullet is a slot whose text changes (an update) or a slot after which a second text comes (a pair)
  // with MEM_BENCH_REPLACED=n, every nth pair instead has its first rule deleted and an unrelated rule
  // (an older text of blind set 1's updates) written in its place, in one commit
  const unrelated = REPLACED > 0 ? (await import(join(import.meta.dirname, 'blind-pairs.mjs'))).BLIND_UPDATES.map(([older]) => older) : []
  const slots = shuffled(
    [
      ...updates.map(([older, newer]) => ({kind: 'update', older, newer, now: older})),
      ...others.map(([a, b], i) => (REPLACED > 0 && i % REPLACED === 0 ? {kind: 'replaced', a, b: unrelated[i % unrelated.length], now: a} : {kind: 'pair', a, b, now: a, added: false})),
    ],
    Number(set) * 7919,
  )
  // files of 32 slots (intake reads at most 60 seeds a file: 32 bullets and up to 32 added), in folders of their own
  const files = []
  for (let i = 0; i < slots.length; i += 32) {
    const sections = []
    const mine = slots.slice(i, i + 32)
    for (let j = 0; j < mine.length; j += 8) sections.push(mine.slice(j, j + 8))
    files.push(sections)
  }
  const render = (sections) =>
    `# Agent guide\n\n${sections
      .map((s, i) => `## ${SECTIONS[i]}\n\n${s.flatMap((slot) => [`- ${line(slot.now)}`, ...(slot.kind === 'pair' && slot.added ? [`- ${line(slot.b)}`] : [])]).join('\n')}\n`)
      .join('\n')}`
  const write = () => {
    if (process.env.MEM_BENCH_PACKAGE === '1') writeFileSync(join(root, 'package.json'), JSON.stringify(PACKAGE, null, 2))
    for (const [i, sections] of files.entries()) {
      mkdirSync(join(root, FOLDERS[i]), {recursive: true})
      writeFileSync(join(root, FOLDERS[i], 'AGENTS.md'), render(sections))
    }
  }
  const base = mkdtempSync(join(os.tmpdir(), 'mem-intake-replay-'))
  const root = join(base, 'repo')
  mkdirSync(join(root, '.git'), {recursive: true})
  let t = Date.parse('2026-01-01T00:00:00Z')
  const ctx = openMem({home: join(base, 'home'), cwd: root, now: () => new Date(t), meaning: {model: 'off'}})
  const seen = new Set()
  const collect = async () => {
    for (let skip = 0; ; skip += 500) {
      const page = await browse(ctx, {repo: root, skip, take: 500})
      for (const e of page.entries) seen.add(e.id)
      if (page.entries.length < 500) break
    }
  }
  try {
    write()
    await intake(ctx, {repo: root})
    await collect()
    const t0 = performance.now()
    // commits of 1 to CHANGES changes, in a seeded order (a commit that edits a line and adds one beside it is where line matching can pair the wrong two)
    const order = shuffled(slots, Number(set) * 104729)
    let commits = 0
    for (let i = 0; i < order.length; commits++) {
      const n = 1 + ((i * 7 + Number(set)) % CHANGES)
      for (const slot of order.slice(i, i + n)) {
        if (slot.kind === 'update') slot.now = slot.newer
        else if (slot.kind === 'replaced') slot.now = slot.b
        else slot.added = true
      }
      i += n
      t += 3_600_000
      write()
      await intake(ctx, {repo: root})
      await collect()
    }
    const ms = performance.now() - t0
    if (process.env.MEM_BENCH_MAINTAIN === '1') {
      const {maintain} = await import(join(ROOT, 'dist', 'src', 'operations', 'maintain.js'))
      t += 3_600_000
      await maintain(ctx, {repo: root})
    }
    const handle = await ctx.repo(root, 'read')
    const memories = handle.store.read((db) => [...seen].map((id) => getMemory(db, id)).filter(Boolean))
    // a memory's text without intake's "<folder>/AGENTS.md › Agent guide › <section>: " label
    const textOf = (mem) => mem.content.replace(/^[a-z]+\/AGENTS\.md › Agent guide › [A-Za-z ]+: /, '')
    // texts compared without what intake's markdown reading may change (`<…>` inside code spans before
    // 2026-11-28, an autolink's brackets), so that every build's memories are matched to their texts
    const norm = (s) => line(s.replace(/<[^<>\s]*>/g, '').replace(/https?:\/\/\S+/g, '')).replace(/[.。]$/, '').toLowerCase()
    const byId = new Map(memories.map((mem) => [mem.id, mem]))
    const updateOf = new Map(updates.map(([older, newer]) => [`${norm(newer)}\u0000${norm(older)}`, true]))
    const joined = [] // [newer memory, older memory, how]
    for (const mem of memories) {
      if (mem.supersedes && byId.has(mem.supersedes)) joined.push([mem, byId.get(mem.supersedes), 'supersedes'])
      for (const l of mem.links) if (l.relation === 'updates' && byId.has(l.targetId)) joined.push([mem, byId.get(l.targetId), 'updates'])
    }
    const isUpdate = ([newer, older]) => updateOf.has(`${norm(textOf(newer))}\u0000${norm(textOf(older))}`)
    const right = joined.filter(isUpdate)
    const wrong = joined.filter((j) => !isUpdate(j))
    const found = updates.filter(([older, newer]) => right.some(([n, o]) => norm(textOf(n)) === norm(newer) && norm(textOf(o)) === norm(older))).length
    const live = new Set(memories.filter((mem) => !mem.forgottenAt && !mem.supersededBy).map((mem) => norm(textOf(mem))))
    const kept = slots.filter((sl) => sl.kind === 'pair').map((sl) => [sl.a, sl.b])
    const hiddenPairs = kept.filter(([a, b]) => !live.has(norm(a)) || !live.has(norm(b)))
    const hidden = hiddenPairs.length
    if (process.env.SHOW) for (const [a, b, how] of wrong.slice(0, Number(process.env.SHOW))) console.log('WRONG', how, JSON.stringify(a.content), '→', JSON.stringify(b.content))
    const fileOf = (mem) => (mem.source === 'intake:package.json' ? 'package.json' : mem.content.slice(0, mem.content.indexOf('/')))
    const across = wrong.filter(([a, b]) => fileOf(a) !== fileOf(b)).length
    return {set, updates: updates.length, pairs: kept.length, found, right: right.length, wrong: wrong.length, across, wrongBy: wrong.map((w) => w[2]), hidden, commits, ms}
  } finally {
    await ctx.close()
    rmSync(base, {recursive: true, force: true})
  }
}

export async function benchIntakeReplay() {
  console.log(`## Pair sets replayed as AGENTS.md histories through mem intake, 1 to ${CHANGES} changes a commit (${ROOT})`)
  const all = {updates: 0, pairs: 0, found: 0, right: 0, wrong: 0, hidden: 0}
  for (const set of sets) {
    const r = await replay(set)
    for (const k of Object.keys(all)) all[k] += r[k]
    const by = (how) => r.wrongBy.filter((w) => w === how).length
    console.log(
      `set ${set}: ${r.found} / ${r.updates} edits found; links ${r.right} right, ${r.wrong} wrong (${by('supersedes')} by line matching, ${by('updates')} by the update rules; ${r.across} of them across files); ${r.hidden} / ${r.pairs} side-by-side pairs with a rule hidden; ${r.commits} commits, ${(r.ms / r.commits).toFixed(0)} ms an intake`,
    )
  }
  console.log(`all: ${all.found} / ${all.updates} edits found (${((100 * all.found) / all.updates).toFixed(1)}%); links right ${((100 * all.right) / Math.max(1, all.right + all.wrong)).toFixed(1)}% (${all.right} / ${all.right + all.wrong}); ${all.hidden} / ${all.pairs} pairs with a rule hidden`)
  return all
}

if (direct) await benchIntakeReplay()
