/**
 * The recall index (storage/recall-index.ts) is rebuilt out of the way of the command that found it
 * behind: a recall answers from the store as before, and on its way out starts
 * `mem __recall-index <root>` detached (stdio ignored, its own process group), which rebuilds the
 * index (seconds at 100k memories) while the agent goes on. One rebuild runs at a time per store.
 */
import {spawn} from 'node:child_process'
import {existsSync, readFileSync} from 'node:fs'
import {dirname, join} from 'node:path'
import {fileURLToPath} from 'node:url'

/** The hidden command bin/run.js hands to runIndexRefresh. */
export const INDEX_REFRESH_COMMAND = '__recall-index'

/** Collects the repos whose index a command's recalls found behind; `start()` rebuilds them. */
export class IndexRefresher {
  private readonly roots = new Set<string>()

  /** For openMem's onRecallIndexBehind. */
  readonly note = (root: string): void => {
    this.roots.add(root)
  }

  /** Starts one detached rebuild per repo noted; never fails the command. */
  start(): void {
    if (this.roots.size === 0) return
    const bin = binPath()
    if (!bin) return
    for (const root of this.roots) {
      try {
        const child = spawn(process.execPath, [bin, INDEX_REFRESH_COMMAND, root], {detached: true, stdio: 'ignore', env: process.env})
        child.on('error', () => undefined)
        child.unref()
      } catch {
        // the next recall answers from the store and tries again
      }
    }
    this.roots.clear()
  }
}

/** mem's bin/run.js, found by walking up from this module (src/, dist/src/ and the CLI bundle alike). */
function binPath(): string | null {
  let dir = dirname(fileURLToPath(import.meta.url))
  for (;;) {
    const bin = join(dir, 'bin', 'run.js')
    try {
      const pkg = JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as {bin?: unknown}
      if (pkg.bin && typeof pkg.bin === 'object' && 'mem' in pkg.bin && existsSync(bin)) return bin
    } catch {
      // not here: keep walking up
    }
    const parent = dirname(dir)
    if (parent === dir) return null
    dir = parent
  }
}

/** `mem __recall-index <root>`: rebuilds that repo's recall index unless it is current or being rebuilt. */
export async function runIndexRefresh(root: string | undefined): Promise<void> {
  if (!root) return
  const [{openMem}, {refreshRecallIndex}] = await Promise.all([import('../../runtime/open-mem.js'), import('../../operations/recall.js')])
  const mem = openMem({env: process.env, cwd: root, usage: false})
  try {
    await refreshRecallIndex(mem, {repo: root})
  } catch {
    // nothing to report to: the next recall answers from the store and tries again
  } finally {
    await mem.close().catch(() => undefined)
  }
}
