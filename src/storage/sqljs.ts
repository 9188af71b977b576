import {createRequire} from 'node:module'
import {readFileSync} from 'node:fs'
import type {SqlJsStatic} from 'sql.js'

let loading: Promise<SqlJsStatic> | undefined
let compiling: Promise<WebAssembly.Module> | undefined

function wasmPath(): string {
  return createRequire(import.meta.url).resolve('sql.js/dist/sql-wasm.wasm')
}

/**
 * Starts compiling sqlite's WebAssembly now, off the main thread, for a loadSqlJs() to come: a
 * command that will open a store calls it first thing, so the compile overlaps its other start-up
 * work. (Eager compilation needs V8's --no-wasm-lazy-compilation, which bin/run.js sets for such
 * commands; without it the functions still compile lazily, on first call.)
 */
export function precompileSqlJs(): void {
  if (loading || compiling) return
  try {
    compiling = WebAssembly.compile(readFileSync(wasmPath()))
  } catch {
    return // loadSqlJs reads the file again, and reports what is wrong with it
  }
  compiling.catch(() => undefined)
}

/** Loads the sql.js WebAssembly build once per process (~25 ms), reading the .wasm from disk. */
export function loadSqlJs(): Promise<SqlJsStatic> {
  loading ??= (async () => {
    const require = createRequire(import.meta.url)
    // require, not import: an ESM import of this CommonJS file first runs the CJS export lexer over
    // its ~100 kB of emscripten glue (~9 ms of every cold command)
    const initSqlJs = require('sql.js') as (config?: object) => Promise<SqlJsStatic>
    // after a failed early compile, the plain load below runs and reports the problem
    const module = compiling && (await compiling.catch(() => undefined))
    if (module) {
      // sql.js waits for `receive` without a failure path: a failed instantiation rejects here
      return new Promise<SqlJsStatic>((resolve, reject) => {
        initSqlJs({
          instantiateWasm(imports: WebAssembly.Imports, receive: (instance: WebAssembly.Instance) => void) {
            WebAssembly.instantiate(module, imports).then(receive, reject)
            return {}
          },
        }).then(resolve, reject)
      })
    }
    const wasmBinary = readFileSync(wasmPath())
    return initSqlJs({wasmBinary: wasmBinary.buffer.slice(wasmBinary.byteOffset, wasmBinary.byteOffset + wasmBinary.byteLength) as ArrayBuffer})
  })()
  return loading
}
