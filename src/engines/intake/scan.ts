/**
 * Finds the project files intake reads and turns each into seeds. Reads only the files it knows
 * (never `.env` files or anything else), skips files over MAX_FILE_BYTES and binary ones, and
 * walks the tree only for nested agent instruction files (monorepo packages), skipping
 * dependency, build and hidden folders.
 */
import {readdirSync, readFileSync, realpathSync, statSync} from 'node:fs'
import {admitText} from '../../text/admit.js'
import {join} from 'node:path'
import {realPathIn} from '../../config/paths.js'
import {
  cargoToml,
  contributing,
  editorconfig,
  type ExtractContext,
  type Extractor,
  goMod,
  instructionFile,
  stripEnvLines,
  maxSeedsOf,
  packageJson,
  pyproject,
  readme,
  type Seed,
  targetsExtractor,
  toolVersions,
  tsconfig,
  versionFile,
} from './extract.js'

export const MAX_FILE_BYTES = 256 * 1024
/** Folders walked at most this deep for nested instruction files. */
const MAX_DEPTH = 6
/** Directory entries looked at, at most: a huge tree must not make a hook slow. */
const MAX_ENTRIES = 50_000

/** Files read at the repository root, in this order, with their extractor. */
export const ROOT_FILES: Array<[string, Extractor]> = [
  ['AGENTS.md', instructionFile],
  ['CLAUDE.md', instructionFile],
  ['GEMINI.md', instructionFile],
  ['.github/copilot-instructions.md', instructionFile],
  ['.cursorrules', instructionFile],
  ['.windsurfrules', instructionFile],
  ['.clinerules', instructionFile],
  ['README.md', readme],
  ['CONTRIBUTING.md', contributing],
  ['.github/CONTRIBUTING.md', contributing],
  ['docs/CONTRIBUTING.md', contributing],
  ['.editorconfig', editorconfig],
  ['package.json', packageJson],
  ['tsconfig.json', tsconfig],
  ['Makefile', targetsExtractor('make')],
  ['GNUmakefile', targetsExtractor('make')],
  ['justfile', targetsExtractor('just')],
  ['Justfile', targetsExtractor('just')],
  ['pyproject.toml', pyproject],
  ['Cargo.toml', cargoToml],
  ['go.mod', goMod],
  ['.nvmrc', versionFile('Node')],
  ['.node-version', versionFile('Node')],
  ['.python-version', versionFile('Python')],
  ['rust-toolchain.toml', versionFile('Rust')],
  ['rust-toolchain', versionFile('Rust')],
  ['.tool-versions', toolVersions],
]

/** Extractors of prose (markdown, rules files, Makefiles): `.env`-style lines are taken out first. */
const TEXT_FILES = new Set<Extractor>([instructionFile, readme, contributing])

/** Instruction files also read in sub-folders (a monorepo's packages). */
const NESTED = new Set(['AGENTS.md', 'CLAUDE.md'])
/** Lock files and markers extractors ask about; they are looked up, never read. */
const MARKERS = ['pnpm-lock.yaml', 'yarn.lock', 'bun.lockb', 'bun.lock', 'package-lock.json', 'uv.lock', 'poetry.lock']
const SKIP_DIRS = new Set(['node_modules', 'dist', 'build', 'out', 'target', 'vendor', 'coverage', 'venv', '__pycache__', 'bower_components', 'tmp', 'temp'])

export interface ScannedFile {
  /** Repo-relative path with `/` separators. */
  path: string
  seeds: Seed[]
  /** Seeds past the most a file gives (maxSeedsOf), not read: present only when some were. */
  leftOut?: number
}

/** A project file intake would read but refused to (docs/security.md): never read. */
export interface RefusedFile {
  path: string
  reason: string
}

/** Where the kernel shows other things than files: never read, whatever the link says. */
const SYSTEM_TREES = ['/proc', '/sys', '/dev']

/**
 * Why the file at `abs` (a known name under the repo) may not be read: its real path leaves the
 * repository (a committed link to `/etc/passwd`, `~/.ssh/config`, another repo's file) or lies in
 * a system tree. Undefined when it may be read, or when it is not there.
 */
function refusal(realRoot: string, abs: string): string | undefined {
  const {real, inside} = realPathIn(realRoot, abs)
  if (real === null) return undefined // missing or unreadable: nothing is read either way
  if (SYSTEM_TREES.some((t) => real === t || real.startsWith(`${t}/`))) return `links to ${real}, a system file; intake reads only the repository's own files`
  if (!inside || real === realRoot) return `links outside the repository (to ${real}); intake reads only the repository's own files`
  return undefined
}

function readText(abs: string): string | undefined {
  try {
    const st = statSync(abs)
    if (!st.isFile() || st.size > MAX_FILE_BYTES) return undefined
    const bytes = readFileSync(abs)
    if (bytes.includes(0)) return undefined // binary
    // admitted before it is parsed (issue 28): a hidden character never splits or joins a word
    return admitText(bytes.toString('utf8'))
  } catch {
    return undefined
  }
}

function exists(abs: string): boolean {
  try {
    statSync(abs)
    return true
  } catch {
    return false
  }
}

/** Nested AGENTS.md / CLAUDE.md below the root (not the root's own), sorted. */
function nestedInstructionFiles(root: string, signal?: AbortSignal): string[] {
  const found: string[] = []
  let seen = 0
  const walk = (dir: string, rel: string, depth: number) => {
    if (depth > MAX_DEPTH || seen > MAX_ENTRIES || signal?.aborted) return
    let entries
    try {
      entries = readdirSync(dir, {withFileTypes: true})
    } catch {
      return
    }
    for (const e of entries) {
      seen++
      if (e.isDirectory()) {
        if (e.name.startsWith('.') || SKIP_DIRS.has(e.name)) continue
        walk(join(dir, e.name), rel ? `${rel}/${e.name}` : e.name, depth + 1)
      } else if (rel && e.isFile() && NESTED.has(e.name)) {
        found.push(`${rel}/${e.name}`)
      }
    }
  }
  walk(root, '', 0)
  return found.sort()
}

/**
 * Every known project file under `root` and its seeds (at most maxSeedsOf its extractor), and the
 * known files that were not read because their real path leaves the repository.
 */
export function scanProject(root: string, signal?: AbortSignal): {files: ScannedFile[]; refused: RefusedFile[]} {
  const markers = new Set(MARKERS.filter((m) => exists(join(root, m))))
  const ctx: ExtractContext = {has: (p) => markers.has(p)}
  const out: ScannedFile[] = []
  const refused: RefusedFile[] = []
  const seen = new Set<string>()
  let realRoot = root
  try {
    realRoot = realpathSync.native(root)
  } catch {
    // keep the path as given
  }
  const take = (path: string, extractor: Extractor) => {
    const abs = join(root, ...path.split('/'))
    const why = refusal(realRoot, abs)
    if (why !== undefined) {
      refused.push({path, reason: why})
      return
    }
    const text = readText(abs)
    if (text === undefined) return
    // one file under two names (justfile and Justfile on a case-insensitive disk) is read once
    let real = abs
    try {
      real = realpathSync.native(abs)
    } catch {
      // keep the path as given
    }
    if (seen.has(real)) return
    seen.add(real)
    let seeds: Seed[]
    try {
      // prose and command files: their `.env`-style lines are dropped before anything is read
      seeds = extractor(path, TEXT_FILES.has(extractor) ? stripEnvLines(text) : text, ctx)
    } catch {
      seeds = [] // a file the extractor cannot read is skipped, never fatal
    }
    const most = maxSeedsOf(extractor)
    out.push({path, seeds: seeds.slice(0, most), ...(seeds.length > most ? {leftOut: seeds.length - most} : {})})
  }
  for (const [path, extractor] of ROOT_FILES) {
    if (signal?.aborted) break
    take(path, extractor)
  }
  for (const path of nestedInstructionFiles(root, signal)) take(path, instructionFile)
  return {files: out, refused}
}
