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
const bundle = await esbuild.build({
  // commands.ts: every command through oclif; fast.ts: plain `mem recall` without oclif (see bin/run.js)
  entryPoints: ['src/cli/commands.ts', 'src/cli/fast.ts'],
  outdir: 'dist/cli',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  chunkNames: 'chunks/[name]-[hash]',
  // sql.js finds its .wasm beside itself; typescript is an optional peer oclif never needs here.
  external: ['sql.js', 'typescript',
    // ink imports React's devtools only when DEV=true (not a dependency of mem)
    'react-devtools-core'],
  metafile: true,
  banner: {js: "import {createRequire as __memCreateRequire} from 'node:module'; const require = __memCreateRequire(import.meta.url);"},
  // MEM_BUILD_MINIFY=0 keeps readable function names for CPU profiles
  minify: process.env.MEM_BUILD_MINIFY !== '0',
  keepNames: true,
  sourcemap: 'linked',
  logLevel: 'warning',
})
// which chunks each command loads (test/integration/bundle.test.ts checks ink stays out of the others)
writeFileSync('dist/cli/meta.json', JSON.stringify(bundle.metafile))
run(require.resolve('oclif/bin/run.js'), ['manifest'])
await buildUi()
