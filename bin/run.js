#!/usr/bin/env node
import {setFlagsFromString} from 'node:v8'

const command = process.argv[2]
// A CLI command lives for a fraction of a second: optimizing sql.js's WebAssembly in the
// background would only make the process wait for it at exit. Long-running commands keep it.
if (!['serve', 'mcp', 'browse', '__recall-index'].includes(command)) setFlagsFromString('--liftoff-only')
// `mem recall` compiles sqlite's WebAssembly up front, on another thread, while it starts up
// (src/storage/sqljs.ts precompileSqlJs) instead of function by function on first use.
if (command === 'recall') setFlagsFromString('--no-wasm-lazy-compilation')

// `mem recall`, called by agents and hooks one time after another, starts without oclif when its
// arguments are plain (src/faces/cli/fast.ts); anything else goes to oclif below.
const done = command === 'recall' && (await (await import('../dist/cli/fast.js')).runFast(process.argv.slice(2)))
// `mem __recall-index ROOT`, started detached by a recall that found the repo's recall index behind,
// rebuilds it (src/faces/cli/index-refresh.ts)
const refreshed = command === '__recall-index' && (await (await import('../dist/cli/fast.js')).runIndexRefresh(process.argv[3]), true)
// `mem hook`, run by agent hosts at session start and prompt time, never goes through oclif either
// (src/faces/cli/hook.ts); only `mem hook --help` does
const hooked = command === 'hook' && !process.argv.includes('--help') && !process.argv.includes('-h') && (await (await import('../dist/cli/hook.js')).runHook(process.argv.slice(2)), true)
if (!done && !hooked && !refreshed) {
  const {execute} = await import('../dist/cli/main.js')
  await execute({dir: import.meta.url})
}
