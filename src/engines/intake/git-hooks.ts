/**
 * Git hooks that run `mem intake` in the background after a commit, a merge and a branch
 * checkout. Git is asked (through execa) where hooks live, so `core.hooksPath` (husky and
 * friends) is respected. Existing hooks keep working:
 * - a shell hook gets our marked block right after its shebang line (before anything that could
 *   `exit`), and uninstall cuts exactly that block out, giving back the original bytes;
 * - a hook in another language (or a symlink) is moved aside to `<hook>.mem-chained` and our hook
 *   runs its block, then `exec`s the original with the same arguments; uninstall moves it back;
 * - a hook file that is not executable is left alone (git does not run it; we do not switch it on).
 */
import {chmodSync, existsSync, lstatSync, mkdirSync, readFileSync, realpathSync, renameSync, rmSync, statSync, writeFileSync} from 'node:fs'
import {isAbsolute, join, relative, resolve} from 'node:path'
import {MemError} from '../../model/errors.js'
import {makeMemDir, readInMem, writeInMem} from '../../storage/mem-dir.js'
import {realPathIn} from '../../config/paths.js'

export const HOOK_NAMES = ['post-commit', 'post-merge', 'post-checkout'] as const
export type HookName = (typeof HOOK_NAMES)[number]

export const CHAINED_SUFFIX = '.mem-chained'
export const DEFAULT_TIME_LIMIT_S = 120

export type InstallAction = 'created' | 'chained' | 'wrapped' | 'updated' | 'unchanged' | 'skipped'
export type UninstallAction = 'removed' | 'restored' | 'absent'

export interface HookRunner {
  /** Absolute path of the node binary the hook runs. */
  node: string
  /** Absolute path of mem's bin/run.js. */
  bin: string
}

export interface HooksInstallResult {
  repo: string
  hooksPath: string
  hooks: Array<{name: HookName; action: InstallAction; reason?: string}>
}

export interface HooksUninstallResult {
  repo: string
  hooksPath: string
  hooks: Array<{name: HookName; action: UninstallAction}>
}

const begin = (name: string) => `# >>> mem hooks: ${name} >>>`
const end = (name: string) => `# <<< mem hooks: ${name} <<<`

/** The repository's top level and the folder git runs its hooks from (core.hooksPath respected). */
export async function gitHooksDir(root: string): Promise<{top: string; hooksPath: string}> {
  const {execa} = await import('execa')
  const git = (args: string[]) => execa('git', args, {cwd: root, reject: false, stdin: 'ignore'})
  let top
  try {
    top = await git(['rev-parse', '--show-toplevel'])
  } catch (err) {
    throw new MemError('unavailable', 'git is not available on this machine.', {hint: 'Install git and make sure it is on PATH.', cause: err})
  }
  if (top.failed || top.exitCode !== 0 || !String(top.stdout).trim()) {
    throw new MemError('invalid_input', `${root} is not inside a git repository (or is a bare one): there are no hooks to install.`, {
      hint: 'Run it in a git working tree (git init first), or pass --repo PATH.',
    })
  }
  const hooks = await git(['rev-parse', '--git-path', 'hooks'])
  const rel = String(hooks.stdout).trim()
  if (hooks.exitCode !== 0 || !rel) throw new MemError('unavailable', `git could not tell where the hooks of ${root} live.`, {hint: 'Check `git rev-parse --git-path hooks` in the repository.'})
  return {top: String(top.stdout).trim(), hooksPath: isAbsolute(rel) ? rel : resolve(root, rel)}
}

function shellQuote(value: string): string {
  return value.replace(/'/g, `'\\''`)
}

/** The hook's template with its placeholders filled in. */
export function renderTemplate(templatesDir: string, name: HookName, runner: HookRunner, root: string, timeLimitS: number): string {
  const template = readFileSync(join(templatesDir, name), 'utf8')
  return template
    .replaceAll('{{NODE}}', shellQuote(runner.node))
    .replaceAll('{{BIN}}', shellQuote(runner.bin))
    .replaceAll('{{ROOT}}', shellQuote(root))
    .replaceAll('{{TIME_LIMIT}}', String(Math.max(1, Math.round(timeLimitS))))
}

/** The marked block of a rendered template (begin marker to end marker, with its newline). */
function blockOf(text: string, name: string): string {
  const start = text.indexOf(begin(name))
  const stop = text.indexOf(end(name))
  if (start < 0 || stop < 0) throw new MemError('internal', `The ${name} hook template has no mem block.`)
  return text.slice(start, stop + end(name).length) + '\n'
}

/** Where our block sits in `text` (start and end offsets, end past its newline), if it does. */
function findBlock(text: string, name: string): {start: number; stop: number} | undefined {
  const start = text.indexOf(begin(name))
  if (start < 0) return undefined
  const at = text.indexOf(end(name), start)
  if (at < 0) return undefined
  let stop = at + end(name).length
  if (text[stop] === '\n') stop++
  return {start, stop}
}

function isShell(text: string): boolean {
  const first = text.split('\n', 1)[0]
  if (!first.startsWith('#!')) return true // no shebang: run by the shell
  return /^#!\s*\S*\/(?:env\s+(?:-\S+\s+)*)?(?:sh|bash|dash|zsh|ksh|ash|mksh)\b/.test(first)
}

function isExecutable(path: string): boolean {
  return (statSync(path).mode & 0o111) !== 0
}

/** Our block inserted after the shebang line (or at the top when there is none). */
function insertBlock(text: string, block: string): string {
  if (!text.startsWith('#!')) return block + text
  const nl = text.indexOf('\n')
  if (nl < 0) return `${text}\n${block}`
  return text.slice(0, nl + 1) + block + text.slice(nl + 1)
}

export function installHooks(options: {repo: string; hooksPath: string; root: string; templatesDir: string; runner: HookRunner; timeLimitS?: number}): HooksInstallResult {
  const {hooksPath, templatesDir, runner, root} = options
  const limit = options.timeLimitS ?? DEFAULT_TIME_LIMIT_S
  assertHooksPathInside(root, hooksPath)
  mkdirSync(hooksPath, {recursive: true})
  const hooks: HooksInstallResult['hooks'] = []
  for (const name of HOOK_NAMES) {
    const full = renderTemplate(templatesDir, name, runner, root, limit)
    const block = blockOf(full, name)
    const path = join(hooksPath, name)
    const chained = path + CHAINED_SUFFIX
    let stat
    try {
      stat = lstatSync(path)
    } catch {
      stat = undefined
    }
    if (!stat) {
      writeFileSync(path, full, {mode: 0o755})
      chmodSync(path, 0o755)
      hooks.push({name, action: 'created'})
      continue
    }
    if (!stat.isSymbolicLink()) {
      const text = readFileSync(path, 'utf8')
      const found = findBlock(text, name)
      if (found) {
        const next = text.slice(0, found.start) + block + text.slice(found.stop)
        if (next === text) hooks.push({name, action: 'unchanged'})
        else {
          writeFileSync(path, next)
          hooks.push({name, action: 'updated'})
        }
        continue
      }
      if (!isExecutable(path)) {
        hooks.push({name, action: 'skipped', reason: `${path} exists but is not executable, so git does not run it; mem leaves it alone (make it executable, or remove it, and install again)`})
        continue
      }
      if (isShell(text)) {
        writeFileSync(path, insertBlock(text, block))
        hooks.push({name, action: 'chained'})
        continue
      }
    }
    // another language, or a symlink: move it aside and call it after our block
    if (existsSync(chained)) {
      hooks.push({name, action: 'skipped', reason: `${chained} already exists; remove or rename it and install again`})
      continue
    }
    renameSync(path, chained)
    const wrapper = full.replace(/\nexit 0\n?$/, `\nexec "$(dirname -- "$0")/${name}${CHAINED_SUFFIX}" "$@"\n`)
    writeFileSync(path, wrapper, {mode: 0o755})
    chmodSync(path, 0o755)
    hooks.push({name, action: 'wrapped'})
  }
  ignoreHookLog(root)
  return {repo: options.repo, hooksPath, hooks}
}

/** The hooks' log stays out of git: `.mem/.gitignore` (written by the store) gains its lines. */
function ignoreHookLog(root: string): void {
  const dir = join(root, '.mem')
  const ignore = join(dir, '.gitignore')
  try {
    mkdirSync(root, {recursive: true})
    makeMemDir(dir) // never through a link (storage/mem-dir.ts)
    const text = existsSync(ignore) ? readInMem(ignore, 'utf8') : '# mem keeps its database, journal and locks out of git.\nmem.db\nmem.db.*\njournal\njournal.*\ncounts.json\ncounts.json.*\nwrite.lock\nmaintenance.lock\n*.tmp\n'
    if (/^hooks\.log$/m.test(text)) return
    writeInMem(ignore, `${text}${text.endsWith('\n') || text === '' ? '' : '\n'}hooks.log\nhooks.log.*\n`)
  } catch {
    // a read-only .mem only means the log may show up in `git status`
  }
}

/**
 * A hooks folder inside the repository (`.husky`, a committed `core.hooksPath`) whose real path
 * leaves it is a link a clone shipped: mem does not write hooks through it (docs/security.md).
 * A folder outside the repo named by the user's own git config (a global hooks path) is theirs.
 */
function assertHooksPathInside(root: string, hooksPath: string): void {
  const rel = relative(root, hooksPath)
  if (rel.startsWith('..') || isAbsolute(rel)) return
  let realRoot: string
  try {
    realRoot = realpathSync(root)
  } catch {
    return
  }
  const {real, inside} = realPathIn(realRoot, hooksPath)
  if (real !== null && !inside) {
    throw new MemError('conflict', `The hooks folder ${hooksPath} is a link out of the repository (to ${real}); mem writes no hook through it.`, {
      hint: 'If the repository ships this link, remove it or point core.hooksPath at a folder inside the repo, then run `mem hooks install` again.',
    })
  }
}

export function uninstallHooks(options: {repo: string; hooksPath: string; root?: string}): HooksUninstallResult {
  const {hooksPath} = options
  if (options.root) assertHooksPathInside(options.root, hooksPath)
  const hooks: HooksUninstallResult['hooks'] = []
  for (const name of HOOK_NAMES) {
    const path = join(hooksPath, name)
    const chained = path + CHAINED_SUFFIX
    let text: string | undefined
    try {
      text = lstatSync(path).isSymbolicLink() ? undefined : readFileSync(path, 'utf8')
    } catch {
      text = undefined
    }
    const found = text === undefined ? undefined : findBlock(text, name)
    if (!text || !found) {
      hooks.push({name, action: 'absent'})
      continue
    }
    const rest = text.slice(0, found.start) + text.slice(found.stop)
    if (existsSync(chained)) {
      rmSync(path)
      renameSync(chained, path)
      hooks.push({name, action: 'restored'})
    } else if (/^(#![^\n]*\n)?(exit 0\n?)?$/.test(rest)) {
      rmSync(path) // the whole file was ours
      hooks.push({name, action: 'removed'})
    } else {
      writeFileSync(path, rest)
      hooks.push({name, action: 'restored'})
    }
  }
  return {repo: options.repo, hooksPath, hooks}
}
