/**
 * What `mem setup <host>` writes, as pure planning over file texts (no I/O): each host's files,
 * and for each how mem's part is merged in and taken out again. JSON files are parsed, merged and
 * written back in their own indentation; TOML and markdown files get a marked block appended; a
 * file that is wholly mem's (the OpenCode plugin) is created and removed. Nothing here holds a
 * machine path: hooks run `mem` from the PATH.
 */
import {applyEdits, findNodeAtLocation, format, modify, parse as parseJsonc, parseTree, printParseErrorCode, type FormattingOptions, type JSONPath, type ParseError} from 'jsonc-parser'
import {HOST_SPECS, hookCommand, type HookEvent, type HostId} from './hosts.js'

export type Json = null | boolean | number | string | Json[] | {[key: string]: Json}
type Obj = {[key: string]: Json}

export interface FilePlan {
  /** Relative to the repository root, with `/`. */
  path: string
  /** Text with mem's part in it, from the text before (null: no file). */
  install(before: string | null): string
  /** Text with mem's part taken out (null: remove the file, it held nothing else). */
  uninstall(current: string): string | null
  /** Whether the text holds mem's part. */
  has(current: string): boolean
  /** Shared by several hosts (an instructions file): taken out only when no other host set up keeps it. */
  shared?: boolean
}

export interface Templates {
  /** templates/agent-instructions.md */
  instructions: string
  /** templates/opencode-plugin.js */
  opencodePlugin: string
}

const MEM_HOOK = /^mem hook \S+ --host (\w+)/
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v)

// ---- JSON ---------------------------------------------------------------------------------
// Edited in place (jsonc-parser's `modify`): only the lines mem's part touches change, comments and
// the file's own layout stay, so a diff shows mem's entries and nothing else.

/** The indentation and line ending of a JSON text, for the lines mem adds. */
function formattingOf(text: string): FormattingOptions {
  const indent = /\n([ \t]+)["}\]]/.exec(text)?.[1] ?? '  '
  return {insertSpaces: !indent.startsWith('\t'), tabSize: indent.startsWith('\t') ? 1 : indent.length, eol: text.includes('\r\n') ? '\r\n' : '\n'}
}

function parseObject(text: string | null, path: string): Obj {
  if (text === null || !text.trim()) return {}
  const errors: ParseError[] = []
  const doc: unknown = parseJsonc(text, errors, {allowTrailingComma: true})
  if (errors.length > 0) {
    throw new SetupConflict(`${path} is not valid JSON (${printParseErrorCode(errors[0].error)} at offset ${errors[0].offset}); mem leaves it alone.`)
  }
  if (!isObj(doc)) throw new SetupConflict(`${path} does not hold a JSON object; mem leaves it alone.`)
  return doc
}

const same = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b)

/** Whether `small` is `big` with some elements left out (same order). */
function isSubsequence(small: Json[], big: Json[]): boolean {
  let i = 0
  for (const item of big) if (i < small.length && same(small[i], item)) i++
  return i === small.length
}

/** Whether the value at `path` is written over more than one line. */
function spansLines(text: string, path: JSONPath): boolean {
  const root = parseTree(text, [], {allowTrailingComma: true})
  const node = root && (path.length === 0 ? root : findNodeAtLocation(root, path))
  return node ? text.slice(node.offset, node.offset + node.length).includes('\n') : true
}

/** `text` edited from document `a` to document `b`, touching only what differs. */
function editJson(text: string, path: JSONPath, a: Json, b: Json, fmt: FormattingOptions): string {
  if (same(a, b)) return text
  // formatted within the inserted text only (modify's own formatting would re-lay the whole line
  // before it, a neighbour written on one line included); into a container written on one line,
  // the new entry goes on that line too
  const put = (at: JSONPath, value: Json | undefined, insert = false) => {
    const oneLine = value !== undefined && at.length > 0 && !spansLines(text, at.slice(0, -1))
    for (const edit of modify(text, at, value, {isArrayInsertion: insert})) {
      const applied = applyEdits(text, [edit])
      text = edit.content && !oneLine ? applyEdits(applied, format(applied, {offset: edit.offset, length: edit.content.length}, fmt)) : applied
    }
    return text
  }
  // an empty container is written anew, laid out like the rest
  const empty = (v: Json) => (Array.isArray(v) ? v.length === 0 : isObj(v) && Object.keys(v).length === 0)
  if (path.length > 0 && empty(a) && !empty(b) && spansLines(text, path.slice(0, -1))) return put(path, b)
  if (isObj(a) && isObj(b)) {
    for (const key of Object.keys(a)) if (!(key in b)) text = put([...path, key], undefined)
    for (const key of Object.keys(b)) text = key in a ? editJson(text, [...path, key], a[key], b[key], fmt) : put([...path, key], b[key])
    return text
  }
  if (Array.isArray(a) && Array.isArray(b)) {
    if (a.length === b.length) {
      a.forEach((item, i) => (text = editJson(text, [...path, i], item, b[i], fmt)))
      return text
    }
    if (b.length < a.length && isSubsequence(b, a)) {
      // the elements b lacks, last first so the indexes before them hold
      const keep = new Set<number>()
      let j = 0
      a.forEach((item, i) => j < b.length && same(item, b[j]) && (keep.add(i), j++))
      for (let i = a.length - 1; i >= 0; i--) if (!keep.has(i)) text = put([...path, i], undefined)
      return text
    }
    if (b.length > a.length && same(a, b.slice(0, a.length))) {
      for (let i = a.length; i < b.length; i++) text = put([...path, i], b[i], true)
      return text
    }
  }
  return put(path, b)
}

/** A plan for a JSON file: `add` puts mem's part into the document, `remove` takes it out. */
function jsonFile(path: string, add: (doc: Obj) => void, remove: (doc: Obj) => void, has: (doc: Obj) => boolean): FilePlan {
  return {
    path,
    install(before) {
      const doc = parseObject(before, path)
      if (has(doc)) return before ?? ''
      const after = structuredClone(doc)
      add(after)
      if (before === null || !before.trim()) return `${JSON.stringify(after, null, 2)}\n`
      return editJson(before, [], doc, after, formattingOf(before))
    },
    uninstall(current) {
      const doc = parseObject(current, path)
      if (!has(doc)) return current
      const after = structuredClone(doc)
      remove(after)
      return Object.keys(after).length === 0 ? null : editJson(current, [], doc, after, formattingOf(current))
    },
    has(current) {
      try {
        return has(parseObject(current, path))
      } catch {
        return false
      }
    },
  }
}

/** Claude Code, Codex and Gemini CLI: `hooks.<Event>` arrays of matcher groups of command handlers. */
function groupedHooks(host: HostId, entries: Array<{event: HookEvent; matcher?: string; timeout: number; name?: string}>) {
  const spec = HOST_SPECS[host]
  const ours = (h: unknown) => isObj(h) && typeof h.command === 'string' && MEM_HOOK.exec(h.command)?.[1] === host
  return {
    add(doc: Obj) {
      const hooks = isObj(doc.hooks) ? doc.hooks : (doc.hooks = {})
      for (const e of entries) {
        const name = spec.events[e.event]!
        const groups = Array.isArray(hooks[name]) ? (hooks[name] as Json[]) : (hooks[name] = [])
        const handler: Obj = {type: 'command', command: hookCommand(host, e.event), timeout: e.timeout}
        if (e.name) handler.name = e.name
        const group: Obj = e.matcher === undefined ? {hooks: [handler]} : {matcher: e.matcher, hooks: [handler]}
        groups.push(group)
      }
    },
    remove(doc: Obj) {
      if (!isObj(doc.hooks)) return
      for (const [event, groups] of Object.entries(doc.hooks)) {
        if (!Array.isArray(groups)) continue
        const kept = groups
          .map((g) => (isObj(g) && Array.isArray(g.hooks) ? {...g, hooks: g.hooks.filter((h) => !ours(h))} : g))
          .filter((g) => !(isObj(g) && Array.isArray(g.hooks) && g.hooks.length === 0))
        if (kept.length === 0) delete doc.hooks[event]
        else doc.hooks[event] = kept
      }
      if (Object.keys(doc.hooks).length === 0) delete doc.hooks
    },
    has(doc: Obj) {
      return isObj(doc.hooks) && Object.values(doc.hooks).some((groups) => Array.isArray(groups) && groups.some((g) => isObj(g) && Array.isArray(g.hooks) && g.hooks.some(ours)))
    },
  }
}

/** An entry `<key>.mem` of a JSON file: added when absent, removed only when it is still mem's own. */
function serverEntry(key: string, entry: Obj) {
  const same = (v: unknown) => JSON.stringify(v) === JSON.stringify(entry)
  return {
    add(doc: Obj) {
      const servers = isObj(doc[key]) ? (doc[key] as Obj) : (doc[key] = {})
      if (servers.mem === undefined) servers.mem = entry
    },
    remove(doc: Obj) {
      const servers = doc[key]
      if (!isObj(servers) || !same(servers.mem)) return
      delete servers.mem
      if (Object.keys(servers).length === 0) delete doc[key]
    },
    has(doc: Obj) {
      return isObj(doc[key]) && (doc[key] as Obj).mem !== undefined
    },
  }
}

// ---- text blocks ----------------------------------------------------------------------------

const BEGIN = 'mem:begin'
const END = 'mem:end'

/** A marked block appended to a text file (markdown or TOML), replaced in place when it changed. */
function blockFile(path: string, comment: Comment, body: string | ((rest: string) => string), shared = false): FilePlan {
  const line = (s: string) => `${comment.open}${s}${comment.close}`
  // the body may depend on what the file holds besides mem's block (and may refuse it)
  const blockFor = (rest: string) =>
    `${line(`${BEGIN} (added by \`mem setup\`; \`mem setup <host> --uninstall\` takes it out)`)}\n${(typeof body === 'string' ? body : body(rest)).trimEnd()}\n${line(END)}\n`
  const find = (text: string) => {
    // the begin line carries a note after the marker: found by its start
    const start = text.indexOf(`${comment.open}${BEGIN}`)
    if (start < 0) return null
    const endMark = text.indexOf(line(END), start)
    if (endMark < 0) return null
    const end = text.indexOf('\n', endMark)
    return {start, end: end < 0 ? text.length : end + 1}
  }
  return {
    path,
    shared,
    install(before) {
      const text = before ?? ''
      const at = find(text)
      if (at) return text.slice(0, at.start) + blockFor(text.slice(0, at.start) + text.slice(at.end)) + text.slice(at.end)
      const block = blockFor(text)
      if (!text) return block
      return `${text}${text.endsWith('\n') ? '' : '\n'}\n${block}`
    },
    uninstall(current) {
      const at = find(current)
      if (!at) return current
      let head = current.slice(0, at.start)
      const tail = current.slice(at.end)
      // the blank line install put before the block goes with it
      if (!tail && head.endsWith('\n\n')) head = head.slice(0, -1)
      const text = head + tail
      return text.trim() ? text : null
    },
    has: (current) => find(current) !== null,
  }
}

interface Comment {
  open: string
  close: string
}
const md: Comment = {open: '<!-- ', close: ' -->'}
const toml: Comment = {open: '# ', close: ''}

/** A file that is wholly mem's. */
function ownFile(path: string, content: string): FilePlan {
  const mark = 'mem setup opencode'
  return {
    path,
    install(before) {
      if (before !== null && !before.includes(mark)) throw new SetupConflict(`${path} exists and is not mem's; mem leaves it alone (move it, then run setup again).`)
      return content
    },
    uninstall: (current) => (current.includes(mark) ? null : current),
    has: (current) => current.includes(mark),
  }
}

/** A file mem will not change: it says why. */
export class SetupConflict extends Error {}

const MCP_STDIO: Obj = {command: 'mem', args: ['mcp']}

/**
 * mem's part of `.codex/config.toml`: the MCP server, with the environment mem reads passed through
 * (Codex starts MCP servers with a cleaned environment, so without `env_vars` the server would read
 * another MEM_HOME than the hooks and the CLI of the same session). No feature flag: hooks are on by
 * default in Codex, and the old `[features] codex_hooks` is reported as deprecated in every session
 * (a block an older mem wrote with it is replaced in place by the next setup).
 */
function codexConfig(rest: string): string {
  if (/^[ \t]*\[mcp_servers\.mem\]/m.test(rest)) throw new SetupConflict('.codex/config.toml already defines [mcp_servers.mem]; mem leaves it alone.')
  return '[mcp_servers.mem]\ncommand = "mem"\nargs = ["mcp"]\nenv_vars = ["MEM_HOME", "MEM_REPO"]'
}

/** The files `mem setup <host>` writes, in order. */
export function hostFiles(host: HostId, t: Templates): FilePlan[] {
  const instructions = (file: string) => blockFile(file, md, t.instructions, true)
  switch (host) {
    case 'claude': {
      // timeouts in seconds; SessionStart runs again after /clear and a compaction (source clear, compact)
      const hooks = groupedHooks('claude', [
        {event: 'session-start', matcher: 'startup|resume|clear|compact', timeout: 10},
        {event: 'prompt', timeout: 10},
        {event: 'stop', timeout: 10},
      ])
      const mcp = serverEntry('mcpServers', MCP_STDIO)
      return [jsonFile('.claude/settings.json', hooks.add, hooks.remove, hooks.has), jsonFile('.mcp.json', mcp.add, mcp.remove, mcp.has), instructions('CLAUDE.md')]
    }
    case 'codex': {
      const hooks = groupedHooks('codex', [
        {event: 'session-start', matcher: 'startup|resume|clear|compact', timeout: 10},
        {event: 'prompt', timeout: 10},
        {event: 'stop', timeout: 10},
      ])
      return [
        jsonFile('.codex/hooks.json', hooks.add, hooks.remove, hooks.has),
        blockFile('.codex/config.toml', toml, codexConfig),
        instructions('AGENTS.md'),
      ]
    }
    case 'cursor': {
      const ours = (h: unknown) => isObj(h) && typeof h.command === 'string' && MEM_HOOK.exec(h.command)?.[1] === 'cursor'
      const events: HookEvent[] = ['session-start', 'stop']
      const add = (doc: Obj) => {
        if (doc.version === undefined) doc.version = 1
        const hooks = isObj(doc.hooks) ? doc.hooks : (doc.hooks = {})
        for (const e of events) {
          const name = HOST_SPECS.cursor.events[e]!
          const list = Array.isArray(hooks[name]) ? (hooks[name] as Json[]) : (hooks[name] = [])
          list.push({command: hookCommand('cursor', e)})
        }
      }
      const remove = (doc: Obj) => {
        if (!isObj(doc.hooks)) return
        for (const [name, list] of Object.entries(doc.hooks)) {
          if (!Array.isArray(list)) continue
          const kept = list.filter((h) => !ours(h))
          if (kept.length === 0) delete doc.hooks[name]
          else doc.hooks[name] = kept
        }
        if (Object.keys(doc.hooks).length === 0) {
          delete doc.hooks
          if (doc.version === 1 && Object.keys(doc).length === 1) delete doc.version
        }
      }
      const has = (doc: Obj) => isObj(doc.hooks) && Object.values(doc.hooks).some((list) => Array.isArray(list) && list.some(ours))
      const mcp = serverEntry('mcpServers', MCP_STDIO)
      return [jsonFile('.cursor/hooks.json', add, remove, has), jsonFile('.cursor/mcp.json', mcp.add, mcp.remove, mcp.has), instructions('AGENTS.md')]
    }
    case 'gemini': {
      // timeouts in milliseconds; lifecycle matchers are exact strings, "*" matches every source
      const hooks = groupedHooks('gemini', [
        {event: 'session-start', matcher: '*', timeout: 10_000, name: 'mem-context'},
        {event: 'prompt', matcher: '*', timeout: 10_000, name: 'mem-recall'},
      ])
      const mcp = serverEntry('mcpServers', MCP_STDIO)
      const add = (doc: Obj) => {
        hooks.add(doc)
        mcp.add(doc)
      }
      const remove = (doc: Obj) => {
        hooks.remove(doc)
        mcp.remove(doc)
      }
      return [jsonFile('.gemini/settings.json', add, remove, (doc) => hooks.has(doc) || mcp.has(doc)), instructions('GEMINI.md')]
    }
    case 'opencode': {
      const mcp = serverEntry('mcp', {type: 'local', command: ['mem', 'mcp'], enabled: true})
      const add = (doc: Obj) => {
        if (Object.keys(doc).length === 0) doc.$schema = 'https://opencode.ai/config.json'
        mcp.add(doc)
      }
      const remove = (doc: Obj) => {
        mcp.remove(doc)
        if (Object.keys(doc).length === 1 && doc.$schema === 'https://opencode.ai/config.json') delete doc.$schema
      }
      return [jsonFile('opencode.json', add, remove, mcp.has), ownFile('.opencode/plugins/mem.js', t.opencodePlugin), instructions('AGENTS.md')]
    }
  }
}

// ---- diffs ----------------------------------------------------------------------------------

/** A unified diff of two texts (3 lines of context), for `--dry-run`. '' when they are equal. */
export function unifiedDiff(path: string, before: string | null, after: string | null): string {
  if (before === after) return ''
  const a = before === null ? [] : before.replace(/\n$/, '').split('\n')
  const b = after === null ? [] : after.replace(/\n$/, '').split('\n')
  // LCS table; config files are small (a longer one diffs as a whole)
  const ops: Array<[' ' | '-' | '+', string]> = []
  if (a.length * b.length > 4_000_000) {
    for (const l of a) ops.push(['-', l])
    for (const l of b) ops.push(['+', l])
  } else {
    const dp = Array.from({length: a.length + 1}, () => new Uint32Array(b.length + 1))
    for (let i = a.length - 1; i >= 0; i--) for (let j = b.length - 1; j >= 0; j--) dp[i][j] = a[i] === b[j] ? dp[i + 1][j + 1] + 1 : Math.max(dp[i + 1][j], dp[i][j + 1])
    let i = 0
    let j = 0
    while (i < a.length || j < b.length) {
      if (i < a.length && j < b.length && a[i] === b[j]) {
        ops.push([' ', a[i++]])
        j++
      } else if (j < b.length && (i >= a.length || dp[i][j + 1] >= dp[i + 1][j])) ops.push(['+', b[j++]])
      else ops.push(['-', a[i++]])
    }
  }
  const out = [`--- ${before === null ? '/dev/null' : `a/${path}`}`, `+++ ${after === null ? '/dev/null' : `b/${path}`}`]
  const changed = ops.map((o, k) => (o[0] !== ' ' ? k : -1)).filter((k) => k >= 0)
  let k = 0
  while (k < changed.length) {
    let start = Math.max(0, changed[k] - 3)
    let end = Math.min(ops.length, changed[k] + 4)
    while (k + 1 < changed.length && changed[k + 1] - 3 <= end) end = Math.min(ops.length, changed[++k] + 4)
    k++
    const lineA = ops.slice(0, start).filter((o) => o[0] !== '+').length
    const lineB = ops.slice(0, start).filter((o) => o[0] !== '-').length
    const hunk = ops.slice(start, end)
    const lenA = hunk.filter((o) => o[0] !== '+').length
    const lenB = hunk.filter((o) => o[0] !== '-').length
    out.push(`@@ -${lenA ? lineA + 1 : lineA},${lenA} +${lenB ? lineB + 1 : lineB},${lenB} @@`)
    for (const [op, line] of hunk) out.push(`${op}${line}`)
    start = end
  }
  return `${out.join('\n')}\n`
}
