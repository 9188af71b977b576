/**
 * Extractors: one project file's text → seed memories. Pure functions of (path, text, context);
 * no I/O. Each seed is small and self-contained (it names its file), of the type that fits it:
 * commands that build, test or run become procedures, rules and conventions heuristics, facts
 * about the project observations. `key` groups the seeds of one place in the file (a section,
 * a script, a target) so that a changed file can replace its old seeds one for one.
 */
import type {MemoryType} from '../../model/memory.js'
import {commandsIn, inlineCommands, isCommand, parseMarkdown, type MdSection} from './markdown.js'
import {SECTION_MARK} from '../../text/values.js'
import {heuristicOneLiner} from '../enrichment/heuristic.js'

export interface Seed {
  type: MemoryType
  content: string
  key: string
  tags: string[]
  importance: number
  /**
   * The line the session context and recall show for it, when not the content's first sentence:
   * the rule itself, not the label of where it came from. A label of headings ("AGENTS.md › Guide
   * for AI Agents Working with … › Quick Start Commands: …") filled the line, and the rule was cut.
   */
  oneLiner?: string
}

/** What an extractor may know about the project besides its own file. */
export interface ExtractContext {
  /** Repo-relative paths (posix) of the files intake found, for the package manager and the like. */
  has(path: string): boolean
}

export type Extractor = (path: string, text: string, ctx: ExtractContext) => Seed[]

/** Longest seed text; a longer item is cut at a word boundary. */
export const MAX_SEED_CHARS = 600
/** At most this many seeds per file: a huge file must not flood the store. */
export const MAX_SEEDS_PER_FILE = 60
/**
 * An agent instruction file is written for the agent whole, and real ones are long: of 27 public
 * projects' (2026-11-28), 5 files of 4 projects held more than 60 items (actualbudget/actual's
 * AGENTS.md 195), whose rules past the 60th were never seeded. The most such a file gives.
 */
export const MAX_INSTRUCTION_SEEDS = 200

/** The most seeds a file gives: an instruction file's own bound, else MAX_SEEDS_PER_FILE. */
export function maxSeedsOf(extractor: Extractor): number {
  return extractor === instructionFile ? MAX_INSTRUCTION_SEEDS : MAX_SEEDS_PER_FILE
}

export function clip(text: string, max = MAX_SEED_CHARS): string {
  const t = text.replace(/\s+/g, ' ').trim()
  if (t.length <= max) return t
  const cut = t.slice(0, max - 1)
  const space = cut.lastIndexOf(' ')
  return `${(space > max * 0.6 ? cut.slice(0, space) : cut).replace(/(?<![\s.;:,])[\s.;:,]+$/, '')}…`
}

/** A heading longer than this does not lead a rule's line. */
const HEADING_LEAD_MAX = 32

/**
 * A rule's line: the rule, after the heading of its section when that is short and not the
 * document's title ("Testing: Run `pnpm test` before pushing"), never the file and the headings
 * above it (the line says where it came from: "(from AGENTS.md)").
 */
function ruleLine(section: MdSection, said: string): string {
  const heading = section.heading?.replace(/[:.]$/, '').trim()
  const lead = heading && section.path.includes(SECTION_MARK) && heading.length <= HEADING_LEAD_MAX ? `${heading}: ` : ''
  return heuristicOneLiner(`${lead}${said}`)
}

function sentence(text: string): string {
  const t = text.trim()
  return /[.!?…:]$/.test(t) ? t : `${t}.`
}

const RULE_WORDS = /\b(always|never|don'?t|do not|avoid|prefer|must|should|shall|keep|make sure|ensure|only|instead|required?|forbidden|no\s+\w+\s+(?:in|on|for)|use)\b/i
const PROCEDURE_START = /^(run|to (build|test|run|install|start|lint|format|deploy|release)|build|install|start|execute|invoke|type|launch|deploy|release|publish)\b/i
const TOPICS: Array<[RegExp, string]> = [
  [/\b(tests?|testing|spec|vitest|jest|pytest|e2e|coverage)\b/i, 'test'],
  [/\b(build|compile|bundle|tsc|esbuild|webpack|vite)\b/i, 'build'],
  [/\b(lint|linting|eslint|prettier|format|formatting|ruff|clippy|typecheck)\b/i, 'lint'],
  [/\b(deploy|release|publish|ci)\b/i, 'release'],
  [/\b(commit|branch|pull request|pr|review|changelog)\b/i, 'git'],
  [/\b(style|naming|convention|conventions|indent|comments?)\b/i, 'conventions'],
]

function topics(text: string): string[] {
  return TOPICS.filter(([re]) => re.test(text)).map(([, tag]) => tag)
}

/** How text from an instruction or contributing file reads: a command to run, a rule, or a fact. */
export function classify(text: string): MemoryType {
  if (PROCEDURE_START.test(text) || inlineCommands(text).length > 0) return 'procedure'
  if (RULE_WORDS.test(text)) return 'heuristic'
  return 'observation'
}

function label(path: string, section: MdSection): string {
  return section.path ? `${path}${SECTION_MARK}${section.path}` : path
}

function sectionCommands(section: MdSection): string[] {
  const cmds: string[] = []
  for (const block of section.blocks) for (const c of commandsIn(block)) if (!cmds.includes(c)) cmds.push(c)
  return cmds.slice(0, 8)
}

function commandSeed(path: string, section: MdSection, cmds: string[], importance: number): Seed {
  const what = section.heading ? section.heading.replace(/[:.]$/, '') : 'Commands'
  const list = cmds.map((c) => `\`${c}\``).join(', then ')
  return {
    type: 'procedure',
    content: clip(`${what} (${label(path, section)}): ${list}.`),
    key: `section:${section.path}`,
    tags: ['commands', ...topics(`${what} ${cmds.join(' ')}`)],
    importance,
    oneLiner: heuristicOneLiner(`${what}: ${list}`),
  }
}

/**
 * Agent instruction files (AGENTS.md, CLAUDE.md, copilot instructions, .cursorrules): everything
 * in them is meant for an agent, so every item becomes a seed.
 */
export const instructionFile: Extractor = (path, text) => {
  const seeds: Seed[] = []
  for (const section of parseMarkdown(/\.(md|mdc|markdown)$/i.test(path) ? text : linesAsItems(text))) {
    const cmds = sectionCommands(section)
    if (cmds.length) seeds.push(commandSeed(path, section, cmds, 0.7))
    for (const block of section.blocks) {
      if (block.kind === 'code') continue
      // a short line (a label, a title) says little on its own
      if (block.kind === 'paragraph' && block.text.length < 25) continue
      const type = classify(block.text)
      const said = sentence(block.text)
      seeds.push({
        type,
        content: clip(`${label(path, section)}: ${said}`),
        key: `section:${section.path}`,
        tags: ['instructions', ...topics(`${section.heading} ${block.text}`)],
        importance: type === 'observation' ? 0.55 : 0.7,
        oneLiner: ruleLine(section, said),
      })
    }
  }
  return seeds
}

/**
 * Rules files that are not markdown (.cursorrules, .windsurfrules, .clinerules) often hold one
 * rule per line with no blank lines between: each such line becomes an item of its own.
 */
function linesAsItems(text: string): string {
  let fenced = false
  return text
    .split(/\r?\n/)
    .map((line) => {
      if (/^\s{0,3}(`{3,}|~{3,})/.test(line)) fenced = !fenced
      if (fenced || !line.trim() || /^\s*([-*+>#|]|\d{1,3}[.)]\s|`{3,}|~{3,})/.test(line)) return line
      return `- ${line.trim()}`
    })
    .join('\n')
}

const COMMAND_SECTION = /\b(install|installation|build|building|test|tests|testing|develop|development|usage|getting started|quick ?start|run|running|setup|set up|lint|deploy|release|contribut\w*|commands?|scripts?|local)\b/i
const CONVENTION_SECTION = /\b(conventions?|style|guidelines?|rules?|coding standards?|best practices?|code of conduct|commit messages?|pull requests?|workflow)\b/i

/** README.md: what the project is, and the commands of its build, test and usage sections. */
export const readme: Extractor = (path, text) => {
  const sections = parseMarkdown(text)
  const seeds: Seed[] = []
  const intro = sections
    .flatMap((s) => (s.level <= 1 ? s.blocks.filter((b) => b.kind === 'paragraph') : []))
    .find((b) => b.text.length >= 20 && /[a-z]{3}/i.test(b.text))
  const title = sections.find((s) => s.level === 1)?.heading
  if (intro) {
    seeds.push({
      type: 'observation',
      content: clip(`${title ? `${title}: ` : ''}${sentence(intro.text)} (${path})`, 400),
      key: 'about',
      tags: ['project'],
      importance: 0.6,
    })
  }
  for (const section of sections) {
    if (COMMAND_SECTION.test(section.heading)) {
      const cmds = sectionCommands(section)
      if (cmds.length) seeds.push(commandSeed(path, section, cmds, 0.6))
    }
    if (CONVENTION_SECTION.test(section.heading)) {
      for (const block of section.blocks) {
        if (block.kind !== 'bullet' || !RULE_WORDS.test(block.text)) continue
        seeds.push({type: 'heuristic', content: clip(`${label(path, section)}: ${sentence(block.text)}`), key: `section:${section.path}`, tags: ['conventions', ...topics(block.text)], importance: 0.6})
      }
    }
  }
  return seeds
}

/** CONTRIBUTING.md and similar: the commands of each section, and the rules in its lists. */
export const contributing: Extractor = (path, text) => {
  const seeds: Seed[] = []
  for (const section of parseMarkdown(text)) {
    const cmds = sectionCommands(section)
    if (cmds.length) seeds.push(commandSeed(path, section, cmds, 0.6))
    for (const block of section.blocks) {
      if (block.kind !== 'bullet') continue
      const inline = inlineCommands(block.text)
      if (inline.length || PROCEDURE_START.test(block.text)) {
        seeds.push({type: 'procedure', content: clip(`${label(path, section)}: ${sentence(block.text)}`), key: `section:${section.path}`, tags: ['contributing', ...topics(block.text)], importance: 0.6})
      } else if (RULE_WORDS.test(block.text)) {
        seeds.push({type: 'heuristic', content: clip(`${label(path, section)}: ${sentence(block.text)}`), key: `section:${section.path}`, tags: ['contributing', 'conventions', ...topics(block.text)], importance: 0.6})
      }
    }
  }
  return seeds
}

// ---- config files --------------------------------------------------------------------------------

/** .editorconfig: one formatting rule per section. */
export const editorconfig: Extractor = (path, text) => {
  const seeds: Seed[] = []
  let glob: string | undefined
  let props: Record<string, string> = {}
  const emit = () => {
    if (!glob) return
    const parts: string[] = []
    const style = props.indent_style
    const size = props.indent_size ?? props.tab_width
    if (style === 'space') parts.push(`indent with ${size ?? 'some'} spaces`)
    else if (style === 'tab') parts.push(`indent with tabs${size ? ` (width ${size})` : ''}`)
    else if (size) parts.push(`indent size ${size}`)
    if (props.end_of_line) parts.push(`${props.end_of_line.toUpperCase()} line endings`)
    if (props.charset) parts.push(`charset ${props.charset}`)
    if (props.insert_final_newline === 'true') parts.push('end files with a newline')
    if (props.insert_final_newline === 'false') parts.push('no final newline')
    if (props.trim_trailing_whitespace === 'true') parts.push('trim trailing whitespace')
    if (props.trim_trailing_whitespace === 'false') parts.push('keep trailing whitespace')
    if (props.max_line_length && props.max_line_length !== 'off') parts.push(`lines at most ${props.max_line_length} characters`)
    if (parts.length) {
      seeds.push({type: 'heuristic', content: clip(`Formatting for ${glob} files (${path}): ${parts.join(', ')}.`), key: `section:${glob}`, tags: ['conventions', 'formatting'], importance: 0.5})
    }
  }
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim()
    if (!line || line.startsWith('#') || line.startsWith(';')) continue
    const head = /^\[(.+)\]$/.exec(line)
    if (head) {
      emit()
      glob = head[1]
      props = {}
      continue
    }
    const kv = /^([\w-]+)\s*[=:]\s*(?!\s)(.*)$/.exec(line)
    if (kv && glob) props[kv[1].toLowerCase()] = kv[2].trim().toLowerCase()
  }
  emit()
  return seeds
}

type PackageManager = 'npm' | 'pnpm' | 'yarn' | 'bun'

/** The package manager named by `packageManager`, else by the lock file it wrote, else npm (the commands' guess). */
function packageManager(ctx: ExtractContext, declared?: string): PackageManager {
  const named = declared?.split('@')[0]
  if (named === 'pnpm' || named === 'yarn' || named === 'bun' || named === 'npm') return named
  return lockedManager(ctx) ?? 'npm'
}

/** The package manager whose lock file the repository holds (scan.ts MARKERS), if any. */
function lockedManager(ctx: ExtractContext): PackageManager | undefined {
  if (ctx.has('pnpm-lock.yaml')) return 'pnpm'
  if (ctx.has('yarn.lock')) return 'yarn'
  if (ctx.has('bun.lockb') || ctx.has('bun.lock')) return 'bun'
  if (ctx.has('package-lock.json')) return 'npm'
  return undefined
}

const LIFECYCLE = new Set([
  'prepare', 'prepublish', 'prepublishOnly', 'prepack', 'postpack', 'preinstall', 'install', 'postinstall',
  'preuninstall', 'uninstall', 'postuninstall', 'preversion', 'version', 'postversion', 'dependencies',
])

function scriptPurpose(name: string): string {
  if (/^test$|^test:|:test$|spec|e2e/.test(name)) return 'run the tests'
  if (/build|compile|bundle/.test(name)) return 'build'
  if (/typecheck|tsc|types/.test(name)) return 'type-check'
  if (/lint/.test(name)) return 'lint'
  if (/format|prettier|fmt/.test(name)) return 'format the code'
  if (/^dev|watch/.test(name)) return 'start the development mode'
  if (/^start|serve/.test(name)) return 'start it'
  if (/bench/.test(name)) return 'run the benchmarks'
  if (/clean/.test(name)) return 'clean build output'
  if (/release|publish|deploy/.test(name)) return 'release'
  return ''
}

function runCommand(pm: string, name: string): string {
  if (name === 'test' || name === 'start') return pm === 'bun' ? `bun run ${name}` : `${pm} ${name}`
  if (pm === 'npm') return `npm run ${name}`
  if (pm === 'bun') return `bun run ${name}`
  return `${pm} ${name}`
}

/** package.json: each script as a procedure, engines as a rule, the package itself as a fact. */
export const packageJson: Extractor = (path, text, ctx) => {
  let pkg: Record<string, unknown>
  try {
    pkg = JSON.parse(text) as Record<string, unknown>
  } catch {
    return []
  }
  if (!pkg || typeof pkg !== 'object' || Array.isArray(pkg)) return []
  const seeds: Seed[] = []
  const declaredPm = typeof pkg.packageManager === 'string' ? pkg.packageManager : undefined
  const pm = packageManager(ctx, declaredPm)
  const facts: string[] = []
  if (typeof pkg.name === 'string') facts.push(`package ${pkg.name}${typeof pkg.version === 'string' ? ` ${pkg.version}` : ''}`)
  if (pkg.type === 'module') facts.push('ES modules ("type": "module")')
  if (pkg.workspaces) facts.push(`workspaces ${JSON.stringify(pkg.workspaces)}`)
  // said only on evidence (packageManager, or the manager's lock file): npm is only the guess the
  // script commands below fall back to, not a fact of the project ("package manager npm" in a repo
  // whose lock file is not committed contradicts a user's "Use bun, never npm")
  if (declaredPm || lockedManager(ctx)) facts.push(`package manager ${declaredPm ?? pm}`)
  if (facts.length > 1) seeds.push({type: 'observation', content: clip(`${path}: ${facts.join(', ')}.`, 300), key: 'package', tags: ['project', 'node'], importance: 0.5})

  if (pkg.engines && typeof pkg.engines === 'object') {
    const engines = Object.entries(pkg.engines as Record<string, unknown>).filter(([, v]) => typeof v === 'string')
    if (engines.length) {
      const list = engines.map(([k, v]) => `${k === 'node' ? 'Node' : k} ${v}`).join(' and ')
      seeds.push({type: 'heuristic', content: clip(`Use ${list} (${path} engines).`, 300), key: 'engines', tags: ['node', 'toolchain'], importance: 0.6})
    }
  }

  const scripts = pkg.scripts && typeof pkg.scripts === 'object' ? (pkg.scripts as Record<string, unknown>) : {}
  for (const [name, cmd] of Object.entries(scripts)) {
    if (typeof cmd !== 'string' || !cmd.trim() || LIFECYCLE.has(name)) continue
    if (/^(pre|post)/.test(name) && typeof scripts[name.replace(/^(pre|post)/, '')] === 'string') continue
    const extras: string[] = []
    if (typeof scripts[`pre${name}`] === 'string') extras.push(`runs pre${name} first: ${clip(scripts[`pre${name}`] as string, 120)}`)
    if (typeof scripts[`post${name}`] === 'string') extras.push(`then post${name}: ${clip(scripts[`post${name}`] as string, 120)}`)
    const purpose = scriptPurpose(name)
    seeds.push({
      type: 'procedure',
      content: clip(`${purpose ? `To ${purpose}, run` : 'Run'} \`${runCommand(pm, name)}\` (${path} script "${name}": ${clip(cmd, 240)}${extras.length ? `; ${extras.join('; ')}` : ''}).`),
      key: `script:${name}`,
      tags: ['scripts', ...topics(`${name} ${purpose}`)],
      importance: /^(test|build|lint|typecheck|start|dev)$/.test(name) ? 0.65 : 0.55,
    })
  }
  return seeds
}

/** JSON with comments and trailing commas (tsconfig, jsconfig). */
export function parseJsonc(text: string): unknown {
  let out = ''
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const c = text[i]
    if (inString) {
      out += c
      if (c === '\\') out += text[++i] ?? ''
      else if (c === '"') inString = false
    } else if (c === '"') {
      inString = true
      out += c
    } else if (c === '/' && text[i + 1] === '/') {
      while (i < text.length && text[i] !== '\n') i++
      out += '\n'
    } else if (c === '/' && text[i + 1] === '*') {
      i += 2
      while (i < text.length && !(text[i] === '*' && text[i + 1] === '/')) i++
      i++
    } else out += c
  }
  return JSON.parse(out.replace(/,(\s*[}\]])/g, '$1'))
}

/** tsconfig.json: the compiler setup as a fact, and the ESM import rule it implies. */
export const tsconfig: Extractor = (path, text) => {
  let config: {compilerOptions?: Record<string, unknown>; include?: unknown; extends?: unknown}
  try {
    config = parseJsonc(text) as typeof config
  } catch {
    return []
  }
  if (!config || typeof config !== 'object') return []
  const o = config.compilerOptions ?? {}
  const parts: string[] = []
  if (o.strict === true) parts.push('strict mode')
  for (const k of ['target', 'module', 'moduleResolution', 'jsx', 'outDir', 'rootDir']) if (typeof o[k] === 'string') parts.push(`${k} ${o[k]}`)
  if (o.noEmit === true) parts.push('noEmit (type-check only)')
  if (o.noUncheckedIndexedAccess === true) parts.push('noUncheckedIndexedAccess')
  if (typeof config.extends === 'string') parts.push(`extends ${config.extends}`)
  if (Array.isArray(config.include)) parts.push(`includes ${config.include.filter((x) => typeof x === 'string').join(', ')}`)
  const seeds: Seed[] = []
  if (parts.length) seeds.push({type: 'observation', content: clip(`TypeScript setup (${path}): ${parts.join(', ')}.`, 400), key: 'compiler', tags: ['typescript', 'build'], importance: 0.5})
  const mod = `${o.module ?? ''} ${o.moduleResolution ?? ''}`.toLowerCase()
  if (/node16|nodenext/.test(mod)) {
    seeds.push({
      type: 'heuristic',
      content: `Relative imports in TypeScript source need explicit .js extensions (${path}: module ${String(o.module ?? o.moduleResolution)}).`,
      key: 'esm-imports',
      tags: ['typescript', 'conventions'],
      importance: 0.6,
    })
  }
  return seeds
}

/** Makefile and justfile: each target as a procedure, with its help comment or first recipe line. */
export function targetsExtractor(tool: 'make' | 'just'): Extractor {
  return (path, text) => {
    const seeds: Seed[] = []
    const lines = text.split(/\r?\n/)
    let comment = ''
    for (let i = 0; i < lines.length; i++) {
      const line = lines[i]
      if (/^#/.test(line)) {
        comment = line.replace(/^#+\s*/, '').trim()
        continue
      }
      // one blank after a just recipe's name, then anything: `\s+[^:=]*` split a run of blanks
      // with no colon after it every way there is (200 kB of them: 15 s)
      const m = tool === 'make'
        ? /^([A-Za-z0-9][\w.-]*(?:\s+[A-Za-z0-9][\w.-]*)*)\s*:(?![:=])([^#]*?)(?:##\s*(?!\s)(.*))?$/.exec(line)
        : /^@?([A-Za-z0-9][\w-]*)(?:\s[^:=]*)?:(?!=)([^#]*?)(?:#\s*(?!\s)(.*))?$/.exec(line)
      if (!m || line.includes('%') || /^\s/.test(line)) {
        if (line.trim() !== '') comment = ''
        continue
      }
      const help = (m[3] ?? '').trim() || comment
      comment = ''
      let recipe = ''
      for (let j = i + 1; j < lines.length && /^(\t| {2,})/.test(lines[j]); j++) {
        const r = lines[j].trim().replace(/^[@-]+/, '')
        if (r && !r.startsWith('#')) {
          recipe = r
          break
        }
      }
      for (const target of m[1].split(/\s+/)) {
        const what = [help && sentence(help).replace(/\.$/, ''), recipe && `runs \`${clip(recipe, 200)}\``].filter(Boolean).join('; ')
        seeds.push({
          type: 'procedure',
          content: clip(`Run \`${tool} ${target}\` (${path} target${what ? `: ${what}` : ''}).`),
          key: `target:${target}`,
          tags: [tool, ...topics(`${target} ${help}`)],
          importance: /^(test|build|lint|check|all|install|dev|run)$/.test(target) ? 0.6 : 0.5,
        })
      }
    }
    return seeds
  }
}

/**
 * The name of a `[table]` or `[[array.table]]` header line: what stands between the bracket and
 * the first `]`, trimmed. Read without a pattern: `^\[\[?\s*([^\]]+?)\s*\]` backtracked over every
 * split of a run of blanks with no `]` after it, and a 250 kB line of them held `mem intake` for
 * more than ten minutes.
 */
function tableHeader(line: string): string | undefined {
  if (!line.startsWith('[')) return undefined
  const start = line.startsWith('[[') ? 2 : 1
  const end = line.indexOf(']', start)
  const name = end < 0 ? '' : line.slice(start, end).trim()
  return name === '' ? undefined : name
}

/** A minimal TOML reader: `[table]` headers and `key = value` lines (strings, numbers, one-line arrays). */
export function readToml(text: string): Map<string, Record<string, string>> {
  const tables = new Map<string, Record<string, string>>()
  let table = ''
  tables.set('', {})
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim()
    if (!line || line.startsWith('#')) continue
    const head = tableHeader(line)
    if (head !== undefined) {
      table = head.replace(/["']/g, '')
      if (!tables.has(table)) tables.set(table, {})
      continue
    }
    const kv = /^("?[\w.-]+"?)\s*=\s*(?!\s)(.+)$/.exec(line)
    if (!kv) continue
    let value = kv[2].trim()
    const str = /^"((?:[^"\\]|\\.)*)"|^'([^']*)'/.exec(value)
    if (str) value = str[1] ?? str[2]
    else value = value.replace(/(?<!\s)\s+#.*$/, '')
    tables.get(table)![kv[1].replace(/"/g, '')] = value
  }
  return tables
}

/** pyproject.toml: the project as a fact, its tools' commands as procedures. */
export const pyproject: Extractor = (path, text, ctx) => {
  const t = readToml(text)
  const project = t.get('project') ?? t.get('tool.poetry') ?? {}
  const seeds: Seed[] = []
  const facts: string[] = []
  if (project.name) facts.push(`Python project ${project.name}`)
  if (project['requires-python']) facts.push(`requires Python ${project['requires-python']}`)
  const backend = t.get('build-system')?.['build-backend']
  if (backend) facts.push(`build backend ${backend}`)
  const tools = [...t.keys()].filter((k) => k.startsWith('tool.')).map((k) => k.split('.')[1])
  const toolSet = [...new Set(tools)]
  if (toolSet.length) facts.push(`tools configured: ${toolSet.join(', ')}`)
  if (facts.length) seeds.push({type: 'observation', content: clip(`${facts.join(', ')} (${path}).`, 400), key: 'project', tags: ['python', 'project'], importance: 0.5})
  const scripts = {...(t.get('project.scripts') ?? {}), ...(t.get('tool.poetry.scripts') ?? {})}
  const names = Object.keys(scripts)
  if (names.length) seeds.push({type: 'observation', content: clip(`Console entry points (${path}): ${names.map((n) => `${n} → ${scripts[n]}`).join(', ')}.`, 400), key: 'scripts', tags: ['python'], importance: 0.5})
  const runner = ctx.has('uv.lock') ? 'uv run ' : t.has('tool.poetry') ? 'poetry run ' : ''
  if (t.has('tool.pytest.ini_options') || t.has('tool.pytest')) {
    seeds.push({type: 'procedure', content: `Run the Python tests with \`${runner}pytest\` (pytest is configured in ${path}).`, key: 'pytest', tags: ['python', 'test'], importance: 0.6})
  }
  if (t.has('tool.ruff') || tools.includes('ruff')) {
    seeds.push({type: 'procedure', content: `Lint Python with \`${runner}ruff check .\` and format with \`${runner}ruff format .\` (ruff is configured in ${path}).`, key: 'ruff', tags: ['python', 'lint'], importance: 0.55})
  }
  if (t.has('tool.mypy') || tools.includes('mypy')) {
    seeds.push({type: 'procedure', content: `Type-check Python with \`${runner}mypy\` (mypy is configured in ${path}).`, key: 'mypy', tags: ['python', 'lint'], importance: 0.55})
  }
  if (ctx.has('uv.lock')) seeds.push({type: 'procedure', content: `Install the Python environment with \`uv sync\` (uv.lock beside ${path}).`, key: 'install', tags: ['python', 'build'], importance: 0.6})
  else if (t.has('tool.poetry')) seeds.push({type: 'procedure', content: `Install the Python environment with \`poetry install\` (${path} uses Poetry).`, key: 'install', tags: ['python', 'build'], importance: 0.6})
  return seeds
}

/** Cargo.toml: the crate or workspace as a fact, cargo's build and test as a procedure. */
export const cargoToml: Extractor = (path, text) => {
  const t = readToml(text)
  const pkg = t.get('package') ?? {}
  const ws = t.get('workspace')
  const facts: string[] = []
  if (pkg.name) facts.push(`Rust crate ${pkg.name}`)
  if (ws) facts.push(`Cargo workspace${ws.members ? ` with members ${ws.members}` : ''}`)
  if (pkg.edition) facts.push(`edition ${pkg.edition}`)
  if (pkg['rust-version']) facts.push(`minimum Rust ${pkg['rust-version']}`)
  if (facts.length === 0) return []
  return [
    {type: 'observation', content: clip(`${facts.join(', ')} (${path}).`, 400), key: 'crate', tags: ['rust', 'project'], importance: 0.5},
    {type: 'procedure', content: `Build with \`cargo build\`, run the tests with \`cargo test\`${ws ? ' (add --workspace for every member)' : ''} (${path}).`, key: 'cargo', tags: ['rust', 'build', 'test'], importance: 0.6},
  ]
}

/** go.mod: the module and Go version as a fact, go build and test as a procedure. */
export const goMod: Extractor = (path, text) => {
  const module = /^module\s+(\S+)/m.exec(text)?.[1]
  if (!module) return []
  const go = /^go\s+(\S+)/m.exec(text)?.[1]
  const toolchain = /^toolchain\s+(\S+)/m.exec(text)?.[1]
  return [
    {type: 'observation', content: `Go module ${module}${go ? `, Go ${go}` : ''}${toolchain ? `, toolchain ${toolchain}` : ''} (${path}).`, key: 'module', tags: ['go', 'project'], importance: 0.5},
    {type: 'procedure', content: `Build with \`go build ./...\` and run the tests with \`go test ./...\` (${path}).`, key: 'go', tags: ['go', 'build', 'test'], importance: 0.6},
  ]
}

/** .nvmrc, .node-version, .python-version, rust-toolchain: the version to use. */
export function versionFile(tool: string): Extractor {
  return (path, text) => {
    let version = text.split(/\r?\n/).map((l) => l.trim()).find((l) => l && !l.startsWith('#'))
    const channel = /channel\s*=\s*"([^"]+)"/.exec(text)?.[1]
    if (channel) version = channel
    if (!version || version.length > 60 || !/^[\w.+\-/*~^<>=| ]+$/.test(version)) return []
    return [{type: 'heuristic', content: `Use ${tool} ${version} (${path}).`, key: 'version', tags: ['toolchain'], importance: 0.55}]
  }
}

/** A line without its `# comment` (none is cut when a line break stands after the `#`, as `/#.*$/` left it). */
function withoutComment(line: string): string {
  const hash = line.indexOf('#')
  return hash < 0 || /[\r\u2028\u2029]/.test(line.slice(hash)) ? line : line.slice(0, hash)
}

/** .tool-versions (asdf, mise): the pinned tool versions. */
export const toolVersions: Extractor = (path, text) => {
  const pins = text
    .split(/\r?\n/)
    .map((l) => withoutComment(l).trim())
    .filter((l) => /^[\w.-]+\s+\S+/.test(l))
    .map((l) => l.split(/\s+/).slice(0, 2).join(' '))
  if (pins.length === 0) return []
  return [{type: 'heuristic', content: clip(`Use these tool versions (${path}, asdf/mise): ${pins.join(', ')}.`, 400), key: 'versions', tags: ['toolchain'], importance: 0.55}]
}

export {isCommand}

/** A line that is only an environment assignment, `.env` style: `NAME=value` or `export NAME=value`. */
const ENV_LINE = /^\s*(?:export\s+|set\s+|\$env:)?[A-Za-z_][A-Za-z0-9_]*\s*=\s*(?!\s)\S*\s*$|^\s*(?:export\s+)?[A-Z][A-Z0-9_]*\s*=\s*(["']).*\1\s*$/
/** A secret-named variable given a literal value (not `$VAR`, `<placeholder>`, `{{template}}`). */
const SECRET_ASSIGNMENT = /(?:^|[\s;&|(`'"])(?:export\s+)?[A-Za-z0-9_]*(?:KEY|SECRET|TOKEN|PASSWORD|PASSWD|PWD|CREDENTIALS?|AUTH|PRIVATE|DSN)[A-Za-z0-9_]*\s*=(?!=)\s*['"]?(?![\s'"$<{%*.]|x{3}|\.\.\.)[^\s'"]{6,}/i

/** Text with its `.env`-style lines taken out: such a line never becomes (part of) a memory. */
export function stripEnvLines(text: string): string {
  return text
    .split('\n')
    .filter((line) => !ENV_LINE.test(line.replace(/\r$/, '')))
    .join('\n')
}

/** True when seed text assigns a literal value to a secret-named variable (`API_TOKEN=…`). */
export function hasSecretAssignment(text: string): boolean {
  return SECRET_ASSIGNMENT.test(text)
}
