#!/usr/bin/env node
import {setFlagsFromString} from 'node:v8'

// A CLI command lives for a fraction of a second: optimizing sql.js's WebAssembly in the
// background would only make the process wait for it at exit. Long-running commands keep it.
if (!['serve', 'mcp', 'browse'].includes(process.argv[2])) setFlagsFromString('--liftoff-only')

const {execute} = await import('../dist/cli/commands.js')
await execute({dir: import.meta.url})
