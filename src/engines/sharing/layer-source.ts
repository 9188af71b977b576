import {existsSync, lstatSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync} from 'node:fs'
import {dirname, isAbsolute, join, relative} from 'node:path'
import {MemError} from '../../model/errors.js'
import {tryNamedLock} from '../../storage/lock.js'
import {MAX_PACK_BYTES} from '../../storage/pack-file.js'
import {makeMemDir, writeInMem} from '../../storage/mem-dir.js'

/**
 * Where a layer's packs come from and how they get here: a directory read in place, or a git
 * remote (a URL or a local repository) cloned into the layer's cache and pulled on each sync.
 * Git runs through execa with prompts off and a time limit, so a sync never hangs on a password.
 */

export type SourceKind = 'git' | 'dir'

const GIT_TIMEOUT_MS = 120_000
const MAX_PACKS = 200
/** All packs of one layer together: they are read into memory and checked before anything is written. */
export const MAX_LAYER_BYTES = 256 * 1024 * 1024
const MAX_DEPTH = 4

export function looksLikeRemote(source: string): boolean {
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(source) || /^[^/\\\s@]+@[^:/\\\s]+:/.test(source)
}

async function git(args: string[], cwd?: string): Promise<{ok: boolean; stderr: string}> {
  const {execa} = await import('execa')
  const r = await execa('git', args, {
    cwd,
    reject: false,
    timeout: GIT_TIMEOUT_MS,
    stdin: 'ignore',
    env: {GIT_TERMINAL_PROMPT: '0', GIT_ASKPASS: 'echo', SSH_ASKPASS: 'echo', GCM_INTERACTIVE: 'never', LC_ALL: 'C'},
  })
  return {ok: r.exitCode === 0 && !r.timedOut, stderr: String(r.stderr ?? '').trim()}
}

function firstLine(text: string): string {
  const line = text.split('\n').find((l) => l.trim() && !/^(hint|warning):/i.test(l.trim())) ?? ''
  return line.replace(/^fatal:\s*/i, '').slice(0, 300)
}

/**
 * Checks a source at mount time and says what it is: a git remote (`git ls-remote` answers) or a
 * directory holding packs. A missing path, a URL carrying credentials, a remote git cannot read,
 * or a directory with neither git nor packs is a 400 naming the fix.
 */
export async function classifySource(source: string): Promise<SourceKind> {
  if (looksLikeRemote(source)) {
    // a user part holding a colon (user:password@); read as the user part, then its colon: a pattern
    // with the colon inside split a run of colons every way there is
    if (/^[a-z][a-z0-9+.-]*:\/\/([^/@]*)@/i.exec(source)?.[1].includes(':')) {
      throw new MemError('invalid_input', 'The layer source URL carries a password or token; it would be stored in plain text.', {
        hint: 'Give the URL without credentials and let git supply them (a credential helper or an SSH key).',
      })
    }
    const r = await git(['ls-remote', '--', source, 'HEAD'])
    if (!r.ok) {
      throw new MemError('invalid_input', `The layer source ${source} is not a git repository git can read: ${firstLine(r.stderr) || 'git ls-remote failed'}.`, {
        hint: 'Check the URL and your access (`git ls-remote URL`).',
      })
    }
    return 'git'
  }
  if (!isAbsolute(source)) throw new MemError('invalid_input', `The layer source ${source} must be an absolute path or a git URL.`)
  if (!existsSync(source)) {
    throw new MemError('invalid_input', `The layer source ${source} does not exist.`, {hint: 'Give a directory holding .mem packs, or a git repository (path or URL).'})
  }
  if (!statSync(source).isDirectory()) {
    throw new MemError('invalid_input', `The layer source ${source} is a file, not a directory or git repository.`, {
      hint: 'Put the pack in a directory (or a git repository) and mount that; or import the file once with `mem pack import`.',
    })
  }
  if ((await git(['ls-remote', '--', source, 'HEAD'])).ok) {
    // a local repository can be looked into now: it must have packs committed
    const {execa} = await import('execa')
    const tree = await execa('git', ['-C', source, 'ls-tree', '-r', '--name-only', 'HEAD'], {reject: false, timeout: GIT_TIMEOUT_MS, stdin: 'ignore'})
    const committed = tree.exitCode === 0 ? String(tree.stdout).split('\n').filter(isPackPath) : []
    if (committed.length === 0) {
      throw new MemError('invalid_input', `The git repository ${source} has no .mem packs committed${tree.exitCode === 0 ? '' : ' (it has no commits)'}.`, {
        hint: 'Export a pack into it (`mem pack export --out REPO/packs/name.mem`), commit it, then mount again.',
      })
    }
    return 'git'
  }
  if (findPacks(source).length > 0) return 'dir'
  throw new MemError('invalid_input', `The layer source ${source} is neither a git repository nor a directory holding .mem packs.`, {
    hint: 'Export a pack into it (`mem pack export --out DIR/name.mem`), or give a git repository that holds packs.',
  })
}

/** A path in a git tree that findPacks would read (a .mem file outside dot-folders and node_modules). */
function isPackPath(path: string): boolean {
  const parts = path.split('/')
  return path.endsWith('.mem') && parts.length <= MAX_DEPTH + 1 && !parts.some((p) => p.startsWith('.') || p === 'node_modules')
}

/** The `.mem` pack files under `dir` (dot-folders and node_modules skipped), sorted by path. */
export function findPacks(dir: string): string[] {
  const out: string[] = []
  const walk = (d: string, depth: number) => {
    let names: string[]
    try {
      names = readdirSync(d).sort()
    } catch {
      return
    }
    for (const name of names) {
      if (name.startsWith('.') || name === 'node_modules') continue
      const full = join(d, name)
      let st
      try {
        st = lstatSync(full) // a link in a layer's source is not followed out of it
      } catch {
        continue
      }
      if (st.isDirectory()) {
        if (depth < MAX_DEPTH) walk(full, depth + 1)
      } else if (st.isFile() && name.endsWith('.mem')) out.push(full)
    }
  }
  walk(dir, 0)
  return out
}

/**
 * Brings the layer's packs here and reads them: clones the git source into `cacheDir` (first
 * sync) or fetches and resets it to the remote's HEAD; a directory source is read in place.
 * Returns each pack's path (relative to the source) and bytes. Nothing is imported here.
 */
export async function fetchPacks(source: string, cacheDir: string): Promise<Array<{path: string; bytes: Uint8Array}>> {
  const kind = await classifySource(source)
  let dir = source
  if (kind === 'git') {
    const checkout = join(cacheDir, 'checkout')
    mkdirSync(cacheDir, {recursive: true})
    if (existsSync(join(checkout, '.git'))) {
      const fetched = await git(['-C', checkout, 'fetch', '--quiet', '--depth', '1', '--', source, 'HEAD'])
      if (!fetched.ok) throw syncFailed(source, fetched.stderr)
      const reset = await git(['-C', checkout, 'reset', '--quiet', '--hard', 'FETCH_HEAD'])
      if (!reset.ok) throw syncFailed(source, reset.stderr)
    } else {
      rmSync(checkout, {recursive: true, force: true})
      const cloned = await git(['clone', '--quiet', '--depth', '1', '--no-tags', '--', source, checkout])
      if (!cloned.ok) {
        rmSync(checkout, {recursive: true, force: true})
        throw syncFailed(source, cloned.stderr)
      }
    }
    dir = checkout
  }
  const packs = findPacks(dir)
  if (packs.length === 0) {
    throw new MemError('invalid_input', `The layer source ${source} holds no .mem packs.`, {
      hint: 'Export one into it (`mem pack export --out DIR/name.mem`) and commit it; the layer was left as it was.',
    })
  }
  if (packs.length > MAX_PACKS) throw new MemError('payload_too_large', `The layer source ${source} holds ${packs.length} packs; the limit is ${MAX_PACKS}.`)
  let total = 0
  for (const p of packs) {
    const size = statSync(p).size
    if (size > MAX_PACK_BYTES) {
      throw new MemError('payload_too_large', `The pack ${relative(dir, p)} is ${size.toLocaleString('en-US')} bytes; the limit is ${MAX_PACK_BYTES.toLocaleString('en-US')}.`)
    }
    total += size
  }
  if (total > MAX_LAYER_BYTES) {
    throw new MemError('payload_too_large', `The packs of ${source} add up to ${total.toLocaleString('en-US')} bytes; a layer holds at most ${MAX_LAYER_BYTES.toLocaleString('en-US')}.`, {
      hint: 'Split them into several layers (one source each).',
    })
  }
  // a Buffer is a Uint8Array: no copy of up to 256 MB of packs
  return packs.map((p) => ({path: relative(dir, p), bytes: readFileSync(p)}))
}

function syncFailed(source: string, stderr: string): MemError {
  return new MemError('unavailable', `git could not fetch the layer source ${source}: ${firstLine(stderr) || 'unknown error'}.`, {
    hint: 'Check the source and your access (`git ls-remote SOURCE`), then sync again; the layer was left as it was.',
  })
}

/** Creates the layers cache folder with a .gitignore that keeps it out of the repo. */
export function prepareLayersDir(dir: string): void {
  mkdirSync(dirname(dir), {recursive: true})
  makeMemDir(dir)
  const ignore = join(dir, '.gitignore')
  if (!existsSync(ignore)) writeInMem(ignore, '# mem: caches of mounted layers (clones and stores); never commit them.\n*\n')
}

export function removeLayerCache(dir: string): void {
  rmSync(dir, {recursive: true, force: true})
}

/**
 * One sync per layer at a time, across processes (a hook, the CLI, the server): `sync.lock` in the
 * layer's cache folder, refreshed while held; a holder that died loses it after 60 s.
 */
export async function acquireSyncLock(layerDir: string, layerId: string): Promise<() => Promise<void>> {
  const release = await tryNamedLock(layerDir, 'sync', 60_000, 'syncing')
  if (!release) {
    throw new MemError('conflict', `Layer ${layerId} is being synced already (by this or another mem process).`, {hint: 'Wait for that sync to finish; it reports what changed.'})
  }
  return release
}
