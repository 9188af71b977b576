import {availableParallelism} from 'node:os'
import {relative} from 'node:path'
import {defineConfig} from 'vitest/config'
import {BaseSequencer, type TestSpecification} from 'vitest/node'

/**
 * The slow part of the suite: tests that drive real processes at length (the agent hosts, npm
 * install, Chromium, tmux, git hooks, writers killed mid-stream, `mem serve` and the built CLI in
 * processes of their own) or grind through every byte of a pack. `npm run test:fast` (the `fast`
 * project) leaves them out for quick feedback; `npm test` and CI run both projects: every test
 * file is in exactly one (test/architecture/test-split.test.ts holds that).
 * Measured in one run of the whole suite (load ~12 on 2 cores): these files took 1,012 s of its
 * 1,213 s of test time.
 */
export const SLOW_TESTS = [
  'test/hosts/**', // real agent hosts (Claude Code, Codex, Gemini CLI, OpenCode) against a fake model
  'test/integration/**', // npm pack + install, the TUI under tmux, git hooks in hostile repos
  'test/faces/ui/ui.test.ts', // the web UI in Chromium
  'test/storage/durability.test.ts', // writer processes, one killed with SIGKILL
  'test/faces/cli/agent-hooks.test.ts', // the hook process per host event
  'test/faces/cli/hooks.test.ts', // real git commits running intake
  'test/faces/cli/in-process.test.ts', // every kind of command against bin/run.js in its own process
  'test/faces/server/serve-cli.test.ts', // mem serve processes
  'test/faces/cli/setup.test.ts', // the hosts' own config validators
  'test/faces/cli/bundle.test.ts', // what a cold command loads, in processes of their own
  'test/faces/server/sharing.test.ts', // packs over HTTP, git layers
  'test/faces/cli/recall-index.test.ts', // a large store, the detached index rebuild
  'test/engines/sharing/layers-git.test.ts', // git remotes
  'test/engines/sharing/packs.test.ts', // every single flipped byte of a pack
  'test/faces/server/team-replicas.test.ts', // two mem serve --store processes on one Postgres, one killed mid-burst
  'test/faces/mcp/stdio.test.ts', // `mem mcp` processes over stdio
  // the team store's tests: a Postgres cluster of this machine's packages (started for the run when
  // a test first asks, test/helpers/pg.ts; a fast-part file that asks for it fails, naming this list)
  'test/storage/postgres/**',
  'test/storage/contract/**', // the storage contract and recall identity, through both stores
  'test/operations/team.test.ts',
  'test/runtime/team-hot-repos.test.ts',
  'test/faces/cli/team.test.ts',
  'test/faces/cli/remote-mode.test.ts', // the CLI, hooks and mem mcp against a team server
  'test/faces/server/team-serve.test.ts',
  'test/faces/server/team-audit.test.ts',
  'test/faces/server/team-round-trips.test.ts',
  'test/faces/server/remote-request-ids.test.ts',
  'test/faces/server/team-batch.test.ts',
  'test/faces/server/team-meaning.test.ts', // the meaning model in replicas
  'test/faces/server/team-usage.test.ts', // usage statistics through the log
]

const ALL_TESTS = ['test/**/*.test.ts', 'test/**/*.test.tsx']

/**
 * The longest files start first, whichever project they are in: vitest's own order runs the
 * projects one after the other (every `fast` file before any `slow` one), so the longest files of
 * the suite (the agent hosts, 40–120 s each) started only after the whole fast part; a long file
 * that starts last keeps one worker busy after the other has run out of files.
 * A file's duration is the one vitest recorded in its last run (node_modules/.vite/vitest); a file
 * without one (a first run, a new file) counts as long in the slow project and short in the fast.
 */
class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const root = this.ctx.config.root
    const expected = (f: TestSpecification) =>
      this.ctx.cache.getFileTestResults(`${f.project.name}:${relative(root, f.moduleId)}`)?.duration ?? (f.project.name === 'slow' ? 30_000 : 1_000)
    const time = new Map(files.map((f) => [f, expected(f)]))
    return [...files].sort((a, b) => time.get(b)! - time.get(a)!)
  }
}

export default defineConfig({
  test: {
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // the Postgres of the team-store tests: MEM_TEST_PG_URL, else one started when a test first asks (not under CI)
    globalSetup: ['test/helpers/pg-global-setup.ts'],
    // MEM_TEST_CPU_LOG=<file>: the CPU of each test file and test, written there (test/helpers/cpu-probe.ts)
    setupFiles: process.env.MEM_TEST_CPU_LOG ? ['test/helpers/cpu-probe.ts'] : [],
    // Child processes, not worker threads: test/helpers/cli.ts (the CLI in process) and the server
    // fuzz test change the working directory, which a worker thread cannot.
    pool: 'forks',
    // One worker per core: vitest's default leaves one core idle (1 worker on a 2-core machine), and
    // much of the suite waits on processes it starts (git, chromium, mem serve, tmux).
    maxWorkers: availableParallelism(),
    // Test files share their worker's modules: src/ is transformed and imported once per worker
    // instead of once per file, and sql.js's WebAssembly and the built CLI load once. No test
    // relies on fresh module state; temp folders, contexts and servers are per test.
    isolate: false,
    // the built CLI that test/helpers/cli.ts runs in process loads as node loads it, untransformed
    server: {deps: {external: [/\/dist\/cli\//]}},
    // The meaning model (engines/meaning) is off unless a user turns it on (docs/meaning.md); the suite
    // pins it off, whatever the machine's MEM_MEANING says, unless a test turns it on
    // (test/engines/meaning, the CLI meaning tests): the ranking tests pin the lexical answers.
    env: {MEM_MEANING: 'off'},
    sequence: {sequencer: LongestFirst},
    projects: [
      {extends: true, test: {name: 'fast', include: ALL_TESTS, exclude: SLOW_TESTS, provide: {suitePart: 'fast'}}},
      {extends: true, test: {name: 'slow', include: SLOW_TESTS.map((p) => (p.endsWith('/**') ? `${p}/*.test.{ts,tsx}` : p)), provide: {suitePart: 'slow'}}},
    ],
  },
})
