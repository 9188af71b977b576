/**
 * A small markdown reader for intake: sections (by heading), their bullet items, paragraphs and
 * fenced code blocks. It is not a full CommonMark parser; it reads what project files actually
 * hold well enough to cut them into short seed memories.
 */

import {SECTION_MARK} from '../../text/values.js'
import {atxHeading, codeSpansApart, stripComments, stripEmptyLinks, stripImages, stripLinkTargets, stripReferenceLinks, stripStrong, stripTags} from '../../text/markup.js'

export interface MdBlock {
  kind: 'bullet' | 'paragraph' | 'code'
  text: string
  /** Fence info string of a code block (`sh`, `bash`, …), lowercased. */
  lang?: string
}

export interface MdSection {
  /** Heading text ('' before the first heading). */
  heading: string
  level: number
  /** Heading path joined with SECTION_MARK, e.g. `Development › Tests`. */
  path: string
  blocks: MdBlock[]
}

// `(?!\s)`: the blanks before the text are taken whole, never split with it (a run of them with a
// line break after took 15 s for one 200 kB line); the same in the intake patterns of extract.ts
const BULLET = /^(\s*)(?:[-*+]|\d{1,3}[.)])\s+(?!\s)(.*)$/
const FENCE = /^\s{0,3}(`{3,}|~{3,})\s*([^`\s]*)/

/**
 * Inline markup stripped: links keep their text, images and HTML comments go, emphasis goes. Code
 * spans are kept as written (`feature/<ticket>-<slug>`, `Map<string, number>`: what looks like a
 * tag inside one is code), and so is the address of an autolink (`<https://…>`).
 */
export function plainInline(text: string): string {
  return codeSpansApart(text)
    .map(({code, part}) => (code ? part : plainProse(part)))
    .join('')
    .replace(/\s+/g, ' ')
    .trim()
}

function plainProse(text: string): string {
  // comments, images, empty links (what is left of a badge: a link around an image), links and
  // reference links as their text, tags, strong emphasis: by scanners linear in the text
  // (text/markup.ts), where regexes retried to the end at every unclosed `<!--`, `[a](`, `<a`, `**`
  const blocks = stripStrong(stripTags(stripReferenceLinks(stripLinkTargets(stripEmptyLinks(stripImages(stripComments(text)))))))
  return blocks.replace(/(^|[\s(])[*_](?=\S)([^*_]+?)(?<=\S)[*_](?=[\s).,;:!?]|$)/g, '$1$2')
}

export function parseMarkdown(source: string): MdSection[] {
  const lines = stripComments(source.replace(/\r\n?/g, '\n')).split('\n')
  const sections: MdSection[] = []
  const stack: Array<{level: number; text: string}> = []
  let current: MdSection = {heading: '', level: 0, path: '', blocks: []}
  sections.push(current)
  let para: string[] = []
  let bullet: {indent: number; text: string[]} | undefined

  const flush = () => {
    if (bullet) {
      const text = plainInline(bullet.text.join(' '))
      if (text) current.blocks.push({kind: 'bullet', text})
      bullet = undefined
    }
    if (para.length) {
      const text = plainInline(para.join(' '))
      if (text) current.blocks.push({kind: 'paragraph', text})
      para = []
    }
  }

  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]
    const fence = FENCE.exec(line)
    if (fence) {
      flush()
      const marker = fence[1]
      const body: string[] = []
      i++
      while (i < lines.length && !lines[i].trimStart().startsWith(marker)) body.push(lines[i++])
      current.blocks.push({kind: 'code', text: body.join('\n'), lang: fence[2].toLowerCase()})
      continue
    }
    // (a linear reader: the regex /^(#{1,6})\s+(.*?)\s*#*\s*$/ was cubic on a run of spaces)
    const heading = atxHeading(line)
    if (heading) {
      flush()
      const level = heading.level
      const text = plainInline(heading.text)
      while (stack.length && stack[stack.length - 1].level >= level) stack.pop()
      stack.push({level, text})
      current = {heading: text, level, path: stack.map((s) => s.text).join(SECTION_MARK), blocks: []}
      sections.push(current)
      continue
    }
    // setext headings (Title\n=====)
    if (/^\s{0,3}(=+|-+)\s*$/.test(line) && para.length === 1 && !bullet) {
      const text = plainInline(para[0])
      para = []
      const level = line.includes('=') ? 1 : 2
      while (stack.length && stack[stack.length - 1].level >= level) stack.pop()
      stack.push({level, text})
      current = {heading: text, level, path: stack.map((s) => s.text).join(SECTION_MARK), blocks: []}
      sections.push(current)
      continue
    }
    if (line.trim() === '') {
      flush()
      continue
    }
    const item = BULLET.exec(line)
    if (item) {
      if (para.length) flush()
      if (bullet) flush()
      bullet = {indent: item[1].length, text: [item[2]]}
      continue
    }
    if (bullet && /^\s+\S/.test(line)) {
      bullet.text.push(line.trim())
      continue
    }
    if (bullet) flush()
    if (/^\s{0,3}>/.test(line)) {
      para.push(line.replace(/^\s{0,3}>\s?/, ''))
      continue
    }
    if (/^\s*\|/.test(line)) continue // tables are left out: they rarely read as one fact
    para.push(line.trim())
  }
  flush()
  return sections.filter((s) => s.blocks.length > 0 || s.heading)
}

const COMMAND_WORDS =
  /^(?:\$\s+)?(?:sudo\s+)?(?:npm|npx|pnpm|yarn|bun|bunx|node|deno|make|just|cargo|rustup|go|python3?|pip3?|pipx|pytest|uv|poetry|hatch|tox|nox|ruff|mypy|docker|docker-compose|podman|kubectl|helm|terraform|git|gh|mvn|gradle|\.\/gradlew|dotnet|bundle|rake|rails|mix|composer|php|swift|xcodebuild|cmake|ctest|bazel|nix|direnv|mise|asdf|tsc|vitest|jest|eslint|prettier|biome|turbo|nx|lerna|changeset|playwright|cypress|mem|\.\/[\w./-]+|bin\/[\w./-]+|scripts\/[\w./-]+)(?:\s|$)/

/** True when a line (or an inline code span) reads as a shell command. */
export function isCommand(text: string): boolean {
  return COMMAND_WORDS.test(text.trim())
}

const SHELL_LANGS = new Set(['sh', 'bash', 'shell', 'console', 'zsh', 'shell-session', 'shellsession', 'terminal', 'fish', 'powershell', 'pwsh', 'ps1', 'cmd', 'bat'])

/** The command lines of a code block: prompts stripped, comments and output left out. */
export function commandsIn(block: MdBlock): string[] {
  if (block.kind !== 'code') return []
  const shellish = SHELL_LANGS.has(block.lang ?? '')
  if (!shellish && block.lang) return []
  const out: string[] = []
  // with prompts in the block, only the prompted lines are commands (the rest is their output)
  const hasPrompts = block.text.split('\n').some((l) => /^\s*[$%]\s+/.test(l))
  for (const raw of block.text.split('\n')) {
    const line = raw.trim()
    if (!line || line.startsWith('#') || line.startsWith('//')) continue
    const prompted = /^[$>%]\s+/.test(line)
    if (hasPrompts && !prompted) continue
    // a trailing ` # comment` explains the command; it is not part of it
    const cmd = line.replace(/^[$>%]\s+/, '').replace(/(?<!\s)\s+#\s.*$/, '').trim()
    if (prompted || isCommand(cmd) || (shellish && block.lang !== 'console' && /^[\w./-]+(\s|$)/.test(cmd) && cmd.length < 200)) {
      if (shellish || isCommand(cmd) || prompted) out.push(cmd)
    }
  }
  return out
}

/** Inline code spans that read as commands. */
export function inlineCommands(text: string): string[] {
  return [...text.matchAll(/`([^`]+)`/g)].map((m) => m[1].trim()).filter(isCommand)
}
