// Builds everything a fresh clone needs:
//   1. tsc → dist/ (the library, its type declarations, and the modules tests import);
//   2. esbuild → dist/cli/ (the CLI as one entry plus lazily loaded chunks: a command starts
//      without resolving hundreds of modules);
//   3. the oclif manifest;
//   4. esbuild → dist/ui/ (the web UI served by `mem serve` under /ui; see scripts/build-ui.mjs).
import {execFileSync} from 'node:child_process'
import {rmSync, writeFileSync} from 'node:fs'
import {createRequire} from 'node:module'
import * as esbuild from 'esbuild'
import {buildUi} from './build-ui.mjs'

const require = createRequire(import.meta.url)
const run = (file, args) => execFileSync(process.execPath, [file, ...args], {stdio: 'inherit'})

rmSync('dist', {recursive: true, force: true})
run(require.resolve('typescript/bin/tsc'), ['-p', 'tsconfig.json'])
const shared = {
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  // sql.js finds its .wasm beside itself; typescript is an optional peer oclif never needs here.
  // pg (the team store's driver) loads from node_modules when a command opens a team store.
  // the meaning model's packages find their weights and WebAssembly beside themselves in node_modules
  // (onnxruntime-web, for an ONNX model a user brings, is not a dependency: resolved at run time, engines/meaning/onnx.ts)
  external: ['sql.js', 'typescript', '@energetic-ai/*', 'pg', 'onnxruntime-web',
    // ink imports React's devtools only when DEV=true (not a dependency of mem)
    'react-devtools-core'],
  // jsonc-parser's `main` is a UMD build whose requires esbuild cannot follow: bundle its ES modules
  alias: {'jsonc-parser': './node_modules/jsonc-parser/lib/esm/main.js'},
  metafile: true,
  banner: {js: "import {createRequire as __memCreateRequire} from 'node:module'; const require = __memCreateRequire(import.meta.url);"},
  // MEM_BUILD_MINIFY=0 keeps readable function names for CPU profiles
  minify: process.env.MEM_BUILD_MINIFY !== '0',
  // no keepNames: it wraps every function created at run time (closures in hot loops too) in a __name() call
  keepNames: false,
  sourcemap: 'linked',
  logLevel: 'warning',
}
const bundle = await esbuild.build({
  ...shared,
  entryPoints: ['src/faces/cli/main.ts'],
  outdir: 'dist/cli',
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
})
// A plain `mem recall` (src/faces/cli/fast.ts, see bin/run.js) loads one file: no oclif, no zod and no
// chunk graph to resolve. What it imports only on a cold path (zod schemas for an invalid input's
// message, the user config, the secret scanner, the YAML parser) stays out of it and loads from
// tsc's output (or node_modules). Only modules that throw no MemError of their own to this bundle
// belong here: an error class from another copy of errors.ts is not `instanceof` this one's.
const COLD_ONLY = /src\/(model\/schemas|config\/user-config|engines\/gates\/secrets)\.ts$/
const coldOnlyPlugins = [
    {
      name: 'cold-only-from-tsc-output',
      setup(build) {
        // the YAML parser (registry lookups by id, linked repos) loads from node_modules when needed
        build.onResolve({filter: /^yaml$/}, (args) => (args.kind === 'dynamic-import' ? {path: 'yaml', external: true} : undefined))
        build.onResolve({filter: /\.js$/}, async (args) => {
          if (args.kind !== 'dynamic-import' || args.pluginData === 'resolving') return undefined
          const found = await build.resolve(args.path, {kind: args.kind, importer: args.importer, resolveDir: args.resolveDir, pluginData: 'resolving'})
          if (!COLD_ONLY.test(found.path)) return undefined
          const target = found.path.replace(/.*\/src\//, '../src/').replace(/\.ts$/, '.js')
          return {path: target, external: true}
        })
      },
    },
]
const fast = await esbuild.build({...shared, entryPoints: ['src/faces/cli/fast.ts'], outfile: 'dist/cli/fast.js', plugins: coldOnlyPlugins})
writeFileSync('dist/cli/fast-meta.json', JSON.stringify(fast.metafile))
// `mem hook` (src/faces/cli/hook.ts): the agent hosts' hooks, built the same way as `mem recall`
// in chunks: the session-start hook served from its cache loads only what that needs, not the store,
// the tokenizer and zod (chunks beside the entry, so the cold-only paths above resolve from them too)
const hook = await esbuild.build({
  ...shared,
  entryPoints: {hook: 'src/faces/cli/hook.ts'},
  outdir: 'dist/cli',
  splitting: true,
  chunkNames: 'hook-chunk-[hash]',
  plugins: coldOnlyPlugins,
})
writeFileSync('dist/cli/hook-meta.json', JSON.stringify(hook.metafile))
// the meaning model's worker thread (`mem serve`, `mem mcp`: src/engines/meaning/in-worker.ts
// looks for it beside the chunk that starts it, or one folder up), one file
await esbuild.build({...shared, entryPoints: {'model-worker': 'src/engines/meaning/model-worker.ts'}, outdir: 'dist/cli'})
// which chunks each command loads (test/faces/cli/bundle.test.ts checks ink stays out of the others)
writeFileSync('dist/cli/meta.json', JSON.stringify(bundle.metafile))
run(require.resolve('oclif/bin/run.js'), ['manifest'])
await buildUi()
