import {defineConfig} from 'vitest/config'

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts', 'test/**/*.test.tsx'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // the built CLI that test/helpers/cli.ts runs in process loads as node loads it, untransformed
    server: {deps: {external: [/\/dist\/cli\//]}},
  },
})
