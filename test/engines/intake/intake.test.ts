import {rmSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {MemError} from '../../../src/model/errors.js'
import {browse} from '../../../src/operations/browse.js'
import {edit} from '../../../src/operations/edit.js'
import {forget} from '../../../src/operations/forget.js'
import {get} from '../../../src/operations/get.js'
import {history} from '../../../src/operations/history.js'
import {intake} from '../../../src/operations/intake.js'
import {formatIntake} from '../../../src/faces/cli/format-intake.js'
import {store} from '../../../src/operations/store.js'
import {maintain} from '../../../src/operations/maintain.js'
import {context} from '../../../src/operations/session-context.js'
import {parseMarkdown, commandsIn} from '../../../src/engines/intake/markdown.js'
import {editorconfig, hasSecretAssignment, packageJson, pyproject, stripEnvLines, targetsExtractor, tsconfig, cargoToml, goMod, instructionFile, readme} from '../../../src/engines/intake/extract.js'
import {memRepo, tempDir, writeTree} from '../../helpers/mem.js'

const AGENTS = `# Agent guide

## Testing

- Always run \`npm test\` before pushing.
- Never commit directly to main.
- The CI matrix covers Node 20 and 22.

## Style

- Prefer small pure functions over classes.
`

const PKG = JSON.stringify({
  name: 'shop',
  version: '1.2.0',
  type: 'module',
  engines: {node: '>=20'},
  scripts: {build: 'tsc -p .', test: 'vitest run', pretest: 'npm run build', lint: 'eslint .', prepare: 'husky'},
})

const PROJECT = {
  'AGENTS.md': AGENTS,
  'package.json': PKG,
  'README.md': '# Shop\n\nA small web shop used to demo the checkout flow end to end.\n\n## Development\n\n```sh\nnpm install\nnpm run dev # starts vite\n```\n',
  '.editorconfig': 'root = true\n\n[*]\nindent_style = space\nindent_size = 2\nend_of_line = lf\ninsert_final_newline = true\n',
  Makefile: '.PHONY: test\ntest: ## Run every test\n\tgo test ./...\n\nbuild:\n\t@go build -o bin/app ./cmd/app\n',
}

async function all(ctx: Parameters<typeof browse>[0], repo: string) {
  return (await browse(ctx, {repo, take: 500})).entries
}

describe('intake extractors', () => {
  it('reads markdown sections, bullets and shell commands', () => {
    const sections = parseMarkdown(AGENTS + '\n```bash\n$ make test # all of them\nsome output\n```\n')
    expect(sections.map((s) => s.path)).toEqual(['Agent guide', 'Agent guide › Testing', 'Agent guide › Style'])
    const style = sections[2]
    expect(style.blocks.filter((b) => b.kind === 'bullet').map((b) => b.text)).toEqual(['Prefer small pure functions over classes.'])
    expect(commandsIn(style.blocks.find((b) => b.kind === 'code')!)).toEqual(['make test'])
  })

  it('keeps code spans as written and an autolink\'s address; tags and emphasis outside code go', () => {
    const bullets = (md: string) => parseMarkdown(md).flatMap((s) => s.blocks.filter((b) => b.kind === 'bullet').map((b) => b.text))
    expect(
      bullets(
        '# Rules\n\n- Name feature branches `feature/<ticket>-<slug>`.\n- Types are ``Map<string, `number`>`` here, **always**.\n- Press <kbd>Ctrl</kbd>+C; docs at <https://example.com/x>, questions to <team@example.com>.\n- An unclosed `run <cmd> stays <b>bold</b>.\n',
      ),
    ).toEqual([
      'Name feature branches `feature/<ticket>-<slug>`.',
      'Types are ``Map<string, `number`>`` here, always.',
      'Press Ctrl+C; docs at https://example.com/x, questions to team@example.com.',
      'An unclosed `run stays bold.',
    ])
  })

  it('rules files that are not markdown: one rule per line', () => {
    const seeds = instructionFile('.cursorrules', 'You are an expert in TypeScript and React.\nAlways use functional components.\nNever use any.\n', {has: () => false})
    expect(seeds.map((s) => [s.type, s.content])).toEqual([
      ['observation', '.cursorrules: You are an expert in TypeScript and React.'],
      ['heuristic', '.cursorrules: Always use functional components.'],
      ['heuristic', '.cursorrules: Never use any.'],
    ])
  })

  it('README: badges are not the project description', () => {
    const text = '# Shop\n\n[![CI](https://ci.example.com/badge.svg)](https://ci.example.com) [![npm](https://img.shields.io/npm/v/shop.svg)](https://npm.im/shop)\n\nShop is a small web shop that demos the checkout flow.\n'
    expect(readme('README.md', text, {has: () => false})[0].content).toBe('Shop: Shop is a small web shop that demos the checkout flow. (README.md)')
  })

  it('types seeds: commands → procedure, rules → heuristic, facts → observation', () => {
    const seeds = instructionFile('AGENTS.md', AGENTS, {has: () => false})
    const byText = (t: string) => seeds.find((s) => s.content.includes(t))!
    expect(byText('npm test').type).toBe('procedure')
    expect(byText('Never commit').type).toBe('heuristic')
    expect(byText('CI matrix').type).toBe('observation')
    expect(byText('Prefer small').type).toBe('heuristic')
    expect(byText('Never commit').content).toBe('AGENTS.md › Agent guide › Testing: Never commit directly to main.')
  })

  it('package.json: a procedure per script with the package manager, engines as a rule; lifecycle scripts left out', () => {
    const seeds = packageJson('package.json', PKG, {has: (p) => p === 'pnpm-lock.yaml'})
    const scripts = seeds.filter((s) => s.key.startsWith('script:')).map((s) => s.key)
    expect(scripts).toEqual(['script:build', 'script:test', 'script:lint'])
    expect(seeds.find((s) => s.key === 'script:test')!.content).toBe('To run the tests, run `pnpm test` (package.json script "test": vitest run; runs pretest first: npm run build).')
    expect(seeds.find((s) => s.key === 'engines')).toMatchObject({type: 'heuristic', content: 'Use Node >=20 (package.json engines).'})
    expect(packageJson('package.json', '{not json', {has: () => false})).toEqual([])
  })

  it('package.json: names the package manager on evidence only (packageManager, a lock file), never npm as a guess', () => {
    const fact = (text: string, has: (p: string) => boolean) => packageJson('package.json', text, {has}).find((s) => s.key === 'package')?.content
    expect(fact(PKG, (p) => p === 'pnpm-lock.yaml')).toMatch(/package manager pnpm/)
    expect(fact(PKG, (p) => p === 'package-lock.json')).toMatch(/package manager npm/)
    expect(fact('{"name":"shop","packageManager":"yarn@4.1.0"}', () => false)).toMatch(/package manager yarn@4\.1\.0/)
    expect(fact(PKG, () => false)).not.toMatch(/package manager/)
    // the commands still fall back to npm: npm runs a package.json script whatever installed it
    expect(packageJson('package.json', PKG, {has: () => false}).find((s) => s.key === 'script:lint')!.content).toMatch(/`npm run lint`/)
  })

  it('config files: editorconfig, tsconfig with comments, Makefile targets, pyproject, Cargo, go.mod', () => {
    expect(editorconfig('.editorconfig', PROJECT['.editorconfig'], {has: () => false})[0].content).toBe(
      'Formatting for * files (.editorconfig): indent with 2 spaces, LF line endings, end files with a newline.',
    )
    const ts = tsconfig('tsconfig.json', '{\n // comment\n "compilerOptions": {"strict": true, "module": "NodeNext",},\n}', {has: () => false})
    expect(ts.map((s) => s.type)).toEqual(['observation', 'heuristic'])
    expect(ts[1].content).toMatch(/explicit \.js extensions/)
    const make = targetsExtractor('make')('Makefile', PROJECT.Makefile, {has: () => false})
    expect(make.map((s) => s.content)).toEqual([
      'Run `make test` (Makefile target: Run every test; runs `go test ./...`).',
      'Run `make build` (Makefile target: runs `go build -o bin/app ./cmd/app`).',
    ])
    const py = pyproject('pyproject.toml', '[project]\nname = "svc"\nrequires-python = ">=3.11"\n\n[tool.pytest.ini_options]\naddopts = "-q"\n', {has: (p) => p === 'uv.lock'})
    expect(py.find((s) => s.key === 'pytest')!.content).toBe('Run the Python tests with `uv run pytest` (pytest is configured in pyproject.toml).')
    expect(py.find((s) => s.key === 'project')!.content).toMatch(/Python project svc, requires Python >=3\.11/)
    expect(cargoToml('Cargo.toml', '[package]\nname = "cli"\nedition = "2021"\n', {has: () => false})[0].content).toBe('Rust crate cli, edition 2021 (Cargo.toml).')
    expect(goMod('go.mod', 'module example.com/app\n\ngo 1.22\n', {has: () => false})[0].content).toBe('Go module example.com/app, Go 1.22 (go.mod).')
  })

  it('reads files of 200 kB shaped to make a pattern backtrack (a repository anyone wrote), and answers', () => {
    // Each line below held one of intake's patterns for 12–15 s, and the TOML header for longer than
    // anyone waits (cubic: 5,000 blanks took 14 s, 10,000 took 109 s), before they were made linear
    // (~40 ms for all of them now): on such patterns this test does not finish. The linter's regexp
    // rules (eslint.config.js) refuse them first. What is asserted: these lines are not rules,
    // targets or tables, and the well-formed lines beside them are still read.
    const blanks = ' '.repeat(200_000)
    const has = {has: () => false}
    const agents = ['# Rules', '', `- ${blanks}x\u2028y`, `a = ${blanks}x\ry`, '- Run `make check` before committing.'].join('\n')
    expect(instructionFile('AGENTS.md', agents, has).map((s) => s.content)).toEqual(['AGENTS.md › Rules: Run `make check` before committing.'])
    const just = [`a${blanks}!`, 'test: # runs the tests', '    cargo test'].join('\n')
    expect(targetsExtractor('just')('justfile', just, has).map((s) => s.content)).toEqual(['Run `just test` (justfile target: runs the tests; runs `cargo test`).'])
    const py = pyproject('pyproject.toml', `[ ${blanks}x\n[project]\nname = "svc"\n`, has)
    expect(py.map((s) => s.key)).toEqual(['project'])
    expect(editorconfig('.editorconfig', `[*]\nindent_style = ${blanks}x\r\n`, has)).toEqual([])
    // code spans: 100,000 lone backticks, and runs of three lengths with tags between, on one bullet
    const ticks = ['# Rules', '', `- ${'` '.repeat(100_000)}`, `- ${'`` <a> ` ``` '.repeat(15_000)}`, '- Run `make lint` too.'].join('\n')
    expect(instructionFile('AGENTS.md', ticks, has).map((s) => s.content).at(-1)).toBe('AGENTS.md › Rules: Run `make lint` too.')
  })

  it('.env-style lines are taken out and secret assignments detected', () => {
    expect(stripEnvLines('Intro\nAWS_SECRET_ACCESS_KEY=abc\nexport TOKEN="x y"\nNODE_ENV=production npm start\n')).toBe('Intro\nNODE_ENV=production npm start\n')
    expect(hasSecretAssignment('run `API_TOKEN=s3cr3tvalue99 npm run deploy`')).toBe(true)
    expect(hasSecretAssignment('set API_TOKEN=$API_TOKEN first')).toBe(false)
    expect(hasSecretAssignment('password == other')).toBe(false)
  })
})

describe('intake', () => {
  it('writes typed seeds tagged with their source; a second run writes nothing', async () => {
    const {ctx, repo} = memRepo(PROJECT)
    const first = await intake(ctx, {repo})
    expect(first.newCount).toBeGreaterThanOrEqual(12)
    expect(first.skippedCount).toBe(0)
    expect(first.files.map((f) => f.path)).toEqual(['AGENTS.md', 'README.md', '.editorconfig', 'package.json', 'Makefile'])
    const entries = await all(ctx, repo)
    expect(entries).toHaveLength(first.newCount)
    for (const m of entries) {
      expect(m.tags).toContain('intake')
      expect(m.source).toMatch(/^intake:/)
      expect(m.tags).toContain(`source:${m.source.slice('intake:'.length).toLowerCase()}`)
      expect(m.content.length).toBeLessThanOrEqual(600)
    }
    const test = entries.find((m) => m.content.includes('`npm test`') && m.source === 'intake:package.json')!
    expect(test.type).toBe('procedure')
    expect(entries.find((m) => m.source === 'intake:.editorconfig')!.type).toBe('heuristic')
    expect(entries.find((m) => m.source === 'intake:README.md' && m.content.startsWith('Shop:'))!.type).toBe('observation')

    const second = await intake(ctx, {repo})
    expect(second).toMatchObject({newCount: 0, skippedCount: first.newCount, replacedCount: 0})
    expect(await all(ctx, repo)).toHaveLength(first.newCount)
  })

  it("a seed's line is the rule, after its section's short heading, not the file and the headings above it", async () => {
    const deep = '# Guide for AI Agents Working with the Shop Monorepo\n\n## Quick Start Commands\n\n### Pull Requests and Commit Messages in the Whole Monorepo\n\n- Commit messages and PR titles must start with `[AI]`.\n\n## Testing\n\n- Always run `npm test` before pushing.\n\n## Setup\n\n```sh\nnpm ci\nnpm run dev\n```\n'
    const {ctx, repo} = memRepo({'AGENTS.md': deep, 'package.json': PKG})
    await intake(ctx, {repo})
    const entries = await all(ctx, repo)
    const line = (start: string) => entries.find((m) => m.oneLiner?.includes(start))
    // the content keeps where it came from (recall reads it); the line leads with the rule
    expect(line('Commit messages and PR titles')).toMatchObject({
      content: 'AGENTS.md › Guide for AI Agents Working with the Shop Monorepo › Quick Start Commands › Pull Requests and Commit Messages in the Whole Monorepo: Commit messages and PR titles must start with `[AI]`.',
      oneLiner: 'Commit messages and PR titles must start with `[AI]`',
    })
    expect(line('Always run')?.oneLiner).toBe('Testing: Always run `npm test` before pushing')
    // a section's commands: its heading and the commands, not the label
    expect(entries.find((m) => m.content.startsWith('Setup (AGENTS.md ›'))?.oneLiner).toBe('Setup: `npm ci`, then `npm run dev`')
    const text = (await context(ctx, {repo})).context
    expect(text).toContain('[H] Commit messages and PR titles must start with `[AI]` (from AGENTS.md)')
  })

  it('takes at most 200 seeds of an instruction file and 60 of another, and says how many more it did not read', async () => {
    const rules = (n: number) => Array.from({length: n}, (_, i) => `- Rule number ${i + 1}: keep module m${i + 1} free of side effects.`).join('\n')
    const scripts = Object.fromEntries(Array.from({length: 64}, (_, i) => [`task${i + 1}`, `node scripts/task${i + 1}.mjs`]))
    const {ctx, repo} = memRepo({'AGENTS.md': `# Rules\n\n${rules(210)}\n`, 'CLAUDE.md': `# Rules\n\n${rules(75).replaceAll('Rule number', 'Claude rule')}\n`, 'package.json': JSON.stringify({name: 'big', scripts})})
    const r = await intake(ctx, {repo})
    // a real instruction file is long: 75 items are all read
    expect(r.files.find((f) => f.path === 'CLAUDE.md')).toEqual(expect.objectContaining({seeds: 75}))
    expect(r.files.find((f) => f.path === 'CLAUDE.md')).not.toHaveProperty('leftOut')
    expect(r.files.find((f) => f.path === 'AGENTS.md')).toMatchObject({seeds: 200, leftOut: 10})
    expect(r.files.find((f) => f.path === 'package.json')).toMatchObject({seeds: 60, leftOut: 4})
    const text = formatIntake(repo, r)
    expect(text).toContain('10 more not read: intake takes at most 200 seeds of this file')
    expect(text).toContain('4 more not read: intake takes at most 60 seeds of this file')
    // a file within its bound says nothing of it
    const small = memRepo(PROJECT)
    expect((await intake(small.ctx, {repo: small.repo})).files.every((f) => f.leftOut === undefined)).toBe(true)
  })

  it('a changed file supersedes its old seeds through the version chain; removed lines are forgotten', async () => {
    const {ctx, repo, root, clock} = memRepo(PROJECT)
    await intake(ctx, {repo})
    const before = await all(ctx, repo)
    const oldTest = before.find((m) => m.source === 'intake:package.json' && m.content.includes('"test"'))!
    const oldLint = before.find((m) => m.source === 'intake:package.json' && m.content.includes('"lint"'))!

    clock.advance(60_000)
    const pkg = JSON.parse(PKG)
    pkg.scripts.test = 'vitest run --coverage'
    delete pkg.scripts.lint
    writeFileSync(join(root, 'package.json'), JSON.stringify(pkg))
    const r = await intake(ctx, {repo})
    expect(r).toMatchObject({newCount: 1, replacedCount: 1})
    expect(r.files.find((f) => f.path === 'package.json')).toMatchObject({newCount: 1, replacedCount: 1, removedCount: 1})

    const old = await get(ctx, {id: oldTest.id})
    expect(old.supersededBy).not.toBeNull()
    const newer = await get(ctx, {id: old.supersededBy!})
    expect(newer.content).toContain('vitest run --coverage')
    expect(newer.supersedes).toBe(oldTest.id)
    expect((await history(ctx, {id: newer.id})).chain.map((c) => c.id)).toEqual([newer.id, oldTest.id])
    const lint = await get(ctx, {id: oldLint.id})
    expect(lint.forgottenAt).not.toBeNull()
    expect(lint.forgetReason).toBe('intake: no longer in package.json')

    expect(await intake(ctx, {repo})).toMatchObject({newCount: 0, replacedCount: 0})
  })

  it('a line added beside another does not outdate it, whatever the words say; a memory no file states any more is updated', async () => {
    const rules = (...lines: string[]) => `# Rules\n\n${lines.map((l) => `- ${l}`).join('\n')}\n`
    const {ctx, repo, root, clock} = memRepo({'AGENTS.md': rules('Name React component files in PascalCase.')})
    // an agent's note, in no file: the file's rule is its newer version
    const noted = await store(ctx, {repo, content: 'Name React component files in kebab-case.', type: 'heuristic'})
    clock.advance(60_000)
    expect(await intake(ctx, {repo})).toMatchObject({newCount: 1})
    const components = (await all(ctx, repo)).find((m) => m.content.includes('PascalCase'))!
    expect(components.links).toEqual([{targetId: (noted as {id: string}).id, relation: 'updates'}])

    // a second rule beside it, which the words alone read as an update of the first (same-choice)
    clock.advance(60_000)
    writeFileSync(join(root, 'AGENTS.md'), rules('Name React component files in PascalCase.', 'Name React hook files in camelCase starting with `use`.'))
    expect(await intake(ctx, {repo})).toMatchObject({newCount: 1, skippedCount: 1})
    const hooks = (await all(ctx, repo)).find((m) => m.content.includes('hook files'))!
    expect(hooks.links).toEqual([])
    expect((await get(ctx, {id: components.id})).links.filter((l) => l.relation === 'updated-by')).toEqual([])
    const text = (await context(ctx, {repo})).context
    expect(text).toContain('component files in PascalCase')
    expect(text).toContain('hook files in camelCase')
  })

  it('a rule deleted and an unrelated one written in its place is not a new version of it; a rule reworded is', async () => {
    const rules = (...lines: string[]) => `# Rules\n\n## Style\n\n${lines.map((l) => `- ${l}`).join('\n')}\n`
    const {ctx, repo, root, clock} = memRepo({'AGENTS.md': rules('Prefer small pure functions over classes.', 'Use Moment.js for all date formatting.')})
    await intake(ctx, {repo})
    const before = await all(ctx, repo)
    const functions = before.find((m) => m.content.includes('pure functions'))!
    // one line went and another came, in one commit, saying nothing of the same thing
    clock.advance(60_000)
    writeFileSync(join(root, 'AGENTS.md'), rules('Log in JSON to stdout.', 'Use Moment.js for all date formatting.'))
    expect((await intake(ctx, {repo})).files[0]).toMatchObject({newCount: 1, replacedCount: 0, removedCount: 1})
    expect(await get(ctx, {id: functions.id})).toMatchObject({supersededBy: null, forgetReason: 'intake: no longer in AGENTS.md'})
    // one rule said again in other words, sharing one word of substance ("date")
    clock.advance(60_000)
    const moment = (await all(ctx, repo)).find((m) => m.content.includes('Moment.js'))!
    writeFileSync(join(root, 'AGENTS.md'), rules('Log in JSON to stdout.', 'Every date is formatted with Luxon.'))
    expect((await intake(ctx, {repo})).files[0]).toMatchObject({newCount: 1, replacedCount: 1, removedCount: 0})
    expect((await get(ctx, {id: moment.id})).supersededBy).not.toBeNull()
  })

  it('maintenance links no two seeds whose lines the files hold, and the rules read a seed without its label', async () => {
    const {ctx, repo} = memRepo({
      'AGENTS.md': '# Rules\n\n## Naming\n\n- Name React component files in PascalCase.\n- Name React hook files in camelCase starting with `use`.\n\n## Testing\n\n- Run the Go tests with `go test ./...`.\n- Autoscaling keeps at least 2 replicas of the API running.\n',
    })
    expect(await intake(ctx, {repo})).toMatchObject({newCount: 4})
    await maintain(ctx, {repo})
    for (const m of await all(ctx, repo)) expect([m.content, m.links, m.supersededBy]).toEqual([m.content, [], null])
    // the same words as an agent's notes, not seeds: maintenance links the two naming rules (same-choice)
    const {ctx: notes, repo: other} = memRepo()
    await store(notes, {repo: other, content: 'Name React component files in PascalCase.', type: 'heuristic'})
    await store(notes, {repo: other, content: 'Name React hook files in camelCase starting with `use`.', type: 'heuristic'})
    expect((await all(notes, other)).flatMap((m) => m.links.map((l) => l.relation)).sort()).toEqual(['updated-by', 'updates'])
  })

  it('maintenance takes off update links between two lines the files hold (made by meaning before 2026-11-28), and keeps a note\'s link to a seed', async () => {
    const {ctx, repo, clock} = memRepo(PROJECT)
    await intake(ctx, {repo})
    const entries = await all(ctx, repo)
    const seed = (part: string, path: string) => entries.find((m) => m.content.includes(part) && m.source === `intake:${path}`)!.id
    const [rule, script, other, build] = [seed('Always run `npm test` before pushing', 'AGENTS.md'), seed('`npm test`', 'package.json'), seed('`npm run lint`', 'package.json'), seed('`npm run build`', 'package.json')]
    clock.advance(60_000)
    const note = (await store(ctx, {repo, content: 'Lint with Biome now: `npx biome lint .` replaced `npm run lint`.', type: 'procedure'})) as {id: string}
    // the links an older build's meaning drain made: the script outdated the rule, one script the other; and a note updating a seed
    const handle = await ctx.repo(repo, 'write')
    const link = (id: string, links: Array<{targetId: string; relation: string}>) => ({op: 'update' as const, id, set: {links}})
    await handle.store.write(() => ({
      ops: [
        link(rule, [{targetId: script, relation: 'updated-by'}]),
        link(script, [{targetId: rule, relation: 'updates'}, {targetId: other, relation: 'updated-by'}]),
        link(other, [{targetId: script, relation: 'updates'}, {targetId: note.id, relation: 'updated-by'}]),
        link(note.id, [{targetId: other, relation: 'updates'}]),
        // a link kept on one side only, from each end to another seed
        link(build, [{targetId: rule, relation: 'updates'}, {targetId: script, relation: 'updated-by'}]),
      ],
      result: null,
    }))
    const dry = await maintain(ctx, {repo, stages: ['dedup'], dryRun: true})
    expect(dry.stages[0]).toMatchObject({name: 'dedup', affected: 4})
    expect((await get(ctx, {id: rule})).links).toEqual([{targetId: script, relation: 'updated-by'}])
    expect((await maintain(ctx, {repo, stages: ['dedup']})).stages[0]).toMatchObject({name: 'dedup', affected: 4})
    expect((await get(ctx, {id: rule})).links).toEqual([])
    expect((await get(ctx, {id: script})).links).toEqual([])
    expect((await get(ctx, {id: build})).links).toEqual([])
    expect((await get(ctx, {id: other})).links).toEqual([{targetId: note.id, relation: 'updated-by'}])
    expect((await get(ctx, {id: note.id})).links).toEqual([{targetId: other, relation: 'updates'}])
    expect((await context(ctx, {repo})).context).toContain('Always run `npm test` before pushing')
    // a second pass finds nothing more
    expect((await maintain(ctx, {repo, stages: ['dedup']})).stages[0]).toMatchObject({affected: 0})
  })

  it("a person's edit stands while the file is unchanged; a forgotten seed is not brought back; a removed file's seeds go", async () => {
    const {ctx, repo, root} = memRepo(PROJECT)
    await intake(ctx, {repo})
    const entries = await all(ctx, repo)
    const rule = entries.find((m) => m.content.includes('Never commit directly'))!
    const fact = entries.find((m) => m.content.includes('CI matrix'))!
    const edited = await edit(ctx, {id: rule.id, content: 'Never commit to main: open a pull request, even for typos.'})
    expect(edited.success).toBe(true)
    await forget(ctx, {id: fact.id, reason: 'wrong'})

    const again = await intake(ctx, {repo})
    expect(again.newCount).toBe(0)
    const now = await all(ctx, repo)
    expect(now.some((m) => m.content.includes('open a pull request'))).toBe(true)
    expect(now.some((m) => m.content.includes('CI matrix'))).toBe(false)

    rmSync(join(root, 'Makefile'))
    const gone = await intake(ctx, {repo})
    expect(gone.files.find((f) => f.path === 'Makefile')).toMatchObject({seeds: 0, removedCount: 2})
    expect((await all(ctx, repo)).some((m) => m.source === 'intake:Makefile')).toBe(false)
    // and when AGENTS.md goes too, the person's edit stays: it is theirs now
    rmSync(join(root, 'AGENTS.md'))
    await intake(ctx, {repo})
    expect((await all(ctx, repo)).some((m) => m.content.includes('open a pull request'))).toBe(true)
  })

  it('secrets never become memories: .env-style lines, secret assignments and what the scanner flags', async () => {
    const token = 'ghp_' + 'x7Kq2Lm9Vb3Nc8Zt1Rw6Yp4Hs5Jd0Fg2Ae7'
    const {ctx, repo} = memRepo({
      'AGENTS.md': `# Setup\n\nAWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYzEXAMPLEKEY\n\n- Deploy with \`DEPLOY_TOKEN=q8Zt3Lm7Pw2x npm run deploy\`.\n- The bot authenticates with ${token} on CI.\n- Run \`npm test\` before pushing.\n`,
      '.env': 'DATABASE_PASSWORD=hunter2hunter2\n',
    })
    const r = await intake(ctx, {repo})
    expect(r.newCount).toBe(1)
    expect(r.files).toEqual([{path: 'AGENTS.md', seeds: 3, newCount: 1, skippedCount: 2, replacedCount: 0, removedCount: 0, rejectedCount: 2}])
    const text = JSON.stringify(await all(ctx, repo))
    expect(text).not.toContain('wJalrXUtnFEMI')
    expect(text).not.toContain('q8Zt3Lm7Pw2x')
    expect(text).not.toContain(token)
    expect(text).not.toContain('hunter2')
  })

  it('a duplicate of a live memory is skipped, every run', async () => {
    const {ctx, repo} = memRepo({'AGENTS.md': '- Run `make lint` before every commit.\n- Keep commits small.\n'})
    // someone stored that lesson already, in other words of the same text
    const mine = await store(ctx, {repo, content: 'agents.md: run `make lint` before every commit', type: 'procedure'})
    expect(await intake(ctx, {repo})).toMatchObject({newCount: 1, skippedCount: 1})
    expect(await intake(ctx, {repo})).toMatchObject({newCount: 0, skippedCount: 2})
    expect((await all(ctx, repo)).filter((m) => m.content.toLowerCase().includes('make lint')).map((m) => m.id)).toEqual([(mine as {id: string}).id])
  })

  it('nested instruction files of a monorepo are read; dependency folders are not', async () => {
    const {ctx, repo} = memRepo({
      'packages/api/AGENTS.md': '- Use `pnpm --filter api test` to test the API only.\n',
      'node_modules/lib/AGENTS.md': '- Never read me.\n',
    })
    const r = await intake(ctx, {repo})
    expect(r.files.map((f) => f.path)).toEqual(['packages/api/AGENTS.md'])
    expect(r.newCount).toBe(1)
  })

  it('bad inputs: missing repo, an unknown repo id, a folder with no project', async () => {
    const {ctx} = memRepo()
    await expect(intake(ctx, {repo: ''})).rejects.toMatchObject({code: 'invalid_input', message: 'Invalid repo: repo is required'})
    const unknown = await intake(ctx, {repo: 'no-such-repo'}).catch((e: unknown) => e)
    expect(unknown).toBeInstanceOf(MemError)
    expect(unknown).toMatchObject({code: 'not_found'})
    expect((unknown as MemError).hint).toMatch(/by its path/)
    const empty = tempDir()
    writeTree(empty, {'notes.txt': 'hello'})
    // a folder that is not a git work tree and holds no .mem/ is not a repository at all
    await expect(intake(ctx, {repo: empty})).rejects.toMatchObject({code: 'invalid_input', message: expect.stringMatching(/is not a repository/)})
    expect((await ctx.listRepos()).map((r) => r.repoId)).toEqual([])
  })

  it('stops at its signal and keeps what it wrote', async () => {
    const {ctx, repo} = memRepo(PROJECT)
    const controller = new AbortController()
    controller.abort()
    await expect(intake(ctx, {repo}, {signal: controller.signal})).rejects.toMatchObject({code: 'unavailable'})
  })
})
