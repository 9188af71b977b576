// `npm run bench`: every benchmark, printing figures. Nothing here asserts a timing.
import {benchStorage} from './storage.mjs'
import {benchRecallLatency, benchRecallQuality} from './recall.mjs'
import {benchServer} from './server.mjs'

const started = performance.now()
console.log(`mem benchmarks — node ${process.version}, ${(await import('node:os')).cpus().length} cores`)
await benchRecallQuality()
await benchStorage()
await benchRecallLatency()
await benchServer()
console.log(`\ndone in ${((performance.now() - started) / 1000).toFixed(0)} s`)
