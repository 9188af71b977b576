import {createRequire} from 'node:module'
import {readFileSync} from 'node:fs'
import type {SqlJsStatic} from 'sql.js'

let loading: Promise<SqlJsStatic> | undefined

/** Loads the sql.js WebAssembly build once per process (~25 ms), reading the .wasm from disk. */
export function loadSqlJs(): Promise<SqlJsStatic> {
  loading ??= (async () => {
    const require = createRequire(import.meta.url)
    // require, not import: an ESM import of this CommonJS file first runs the CJS export lexer over
    // its ~100 kB of emscripten glue (~9 ms of every cold command)
    const initSqlJs = require('sql.js') as (config?: {wasmBinary?: ArrayBuffer}) => Promise<SqlJsStatic>
    const wasmBinary = readFileSync(require.resolve('sql.js/dist/sql-wasm.wasm'))
    return initSqlJs({wasmBinary: wasmBinary.buffer.slice(wasmBinary.byteOffset, wasmBinary.byteOffset + wasmBinary.byteLength) as ArrayBuffer})
  })()
  return loading
}
