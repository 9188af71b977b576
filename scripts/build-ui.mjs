// The web UI (src/faces/ui, React) → dist/ui: one minified ES module and one stylesheet with content
// hashes in their names (served immutable), and an index.html that names them (served no-cache).
// Type-checked first with its own tsconfig (DOM, bundler resolution); src/faces/ui imports nothing from src but types
// and the plain input bounds of src/model/inputs.ts and memory.ts (test/architecture).
import {execFileSync} from 'node:child_process'
import {createHash} from 'node:crypto'
import {mkdirSync, readFileSync, rmSync, writeFileSync} from 'node:fs'
import {createRequire} from 'node:module'
import {basename, join} from 'node:path'
import * as esbuild from 'esbuild'

const require = createRequire(import.meta.url)
const OUT = 'dist/ui'
const PREFIX = '/ui/assets/'

export async function buildUi({typecheck = true} = {}) {
  if (typecheck) execFileSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', 'src/faces/ui/tsconfig.json'], {stdio: 'inherit'})
  rmSync(OUT, {recursive: true, force: true})
  const result = await esbuild.build({
    entryPoints: {app: 'src/faces/ui/main.tsx'},
    outdir: join(OUT, 'assets'),
    entryNames: '[name]-[hash]',
    assetNames: '[name]-[hash]',
    bundle: true,
    format: 'esm',
    platform: 'browser',
    target: ['chrome111', 'firefox115', 'safari16.4'],
    jsx: 'automatic',
    // the npm package's name, for the settings page's upgrade command (package.json's `name`)
    define: {'process.env.NODE_ENV': '"production"', __MEM_PACKAGE__: JSON.stringify(JSON.parse(readFileSync('package.json', 'utf8')).name)},
    minify: true,
    legalComments: 'eof',
    metafile: true,
    logLevel: 'warning',
  })
  const outputs = Object.entries(result.metafile.outputs)
  const js = outputs.find(([, o]) => o.entryPoint === 'src/faces/ui/main.tsx')
  if (!js) throw new Error('build-ui: no output for src/faces/ui/main.tsx')
  const css = js[1].cssBundle
  const icon = readFileSync('src/faces/ui/favicon.svg')
  const iconName = `favicon-${createHash('sha256').update(icon).digest('hex').slice(0, 8)}.svg`
  mkdirSync(join(OUT, 'assets'), {recursive: true})
  writeFileSync(join(OUT, 'assets', iconName), icon)
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light dark">
<title>mem</title>
<link rel="icon" type="image/svg+xml" href="${PREFIX}${iconName}">
${css ? `<link rel="stylesheet" href="${PREFIX}${basename(css)}">\n` : ''}<script type="module" src="${PREFIX}${basename(js[0])}"></script>
</head>
<body>
<noscript>The mem web UI needs JavaScript. The HTTP API is described at /api/openapi.json.</noscript>
<div id="root"></div>
</body>
</html>
`
  writeFileSync(join(OUT, 'index.html'), html)
  return {js: js[0], css: css ?? null}
}

if (import.meta.url === `file://${process.argv[1]}`) await buildUi()
