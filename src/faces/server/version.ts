import {readFileSync} from 'node:fs'
import {dirname, join} from 'node:path'
import {fileURLToPath} from 'node:url'
import {PACKAGE_NAME} from '../../model/package-name.js'

let cached: {name: string; version: string} | undefined

/**
 * mem's own package name and version, read once from its package.json. The file is found by
 * walking up from this module, which works from src/ (tests), dist/src/ and the CLI bundle alike.
 */
export function packageInfo(): {name: string; version: string} {
  if (cached) return cached
  let dir = dirname(fileURLToPath(import.meta.url))
  for (;;) {
    try {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {name?: string; version?: string; bin?: unknown}
      if (pkg.name && pkg.version && pkg.bin && typeof pkg.bin === 'object' && 'mem' in pkg.bin) {
        cached = {name: pkg.name, version: pkg.version}
        return cached
      }
    } catch {
      // not here: keep walking up
    }
    const parent = dirname(dir)
    if (parent === dir) return (cached = {name: PACKAGE_NAME, version: '0.0.0'})
    dir = parent
  }
}
