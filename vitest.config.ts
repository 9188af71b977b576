import {availableParallelism} from 'node:os'
import {defineConfig} from 'vitest/config'

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    // the Postgres of the team-store tests: MEM_TEST_PG_URL, else one started when a test first asks (not under CI)
    globalSetup: ['test/helpers/pg-global-setup.ts'],
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
    // The meaning model (engines/meaning) is on by default for users; the suite runs word-only unless a
    // test turns it on (test/engines/meaning, the CLI meaning tests): loading it in every test file
    // would cost a second a worker, and the ranking tests pin the lexical answers.
    env: {MEM_MEANING: 'off'},
  },
})
