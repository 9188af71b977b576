import {execFileSync} from 'node:child_process'
import {chmodSync, statSync} from 'node:fs'

/**
 * Makes files and folders read-only for this process, and returns the undo. File modes do not
 * stop root (CI runs as root), so as root the immutable attribute (chattr +i) is used instead.
 */
export function makeReadOnly(paths: string[]): () => void {
  if (process.getuid?.() === 0) {
    execFileSync('chattr', ['+i', ...paths])
    return () => execFileSync('chattr', ['-i', ...paths])
  }
  const modes = paths.map((p) => statSync(p).mode)
  for (const p of paths) chmodSync(p, statSync(p).isDirectory() ? 0o500 : 0o400)
  return () => paths.forEach((p, i) => chmodSync(p, modes[i]))
}
