import {createRequire} from 'node:module'
import {readFileSync} from 'node:fs'
import type {SqlJsStatic} from 'sql.js'

let loading: Promise<SqlJsStatic> | undefined

/** Loads the sql.js WebAssembly build once per process (~25 ms), reading the .wasm from disk. */
export function loadSqlJs(): Promise<SqlJsStatic> {
  loading ??= (async () => {
    const require = createRequire(import.meta.url)
    const {default: initSqlJs} = await import('sql.js')
    const wasmBinary = readFileSync(require.resolve('sql.js/dist/sql-wasm.wasm'))
    return initSqlJs({wasmBinary: wasmBinary.buffer.slice(wasmBinary.byteOffset, wasmBinary.byteOffset + wasmBinary.byteLength) as ArrayBuffer})
  })()
  return loading
}
