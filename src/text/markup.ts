/**
 * Markdown markup taken out of a text, in time linear in its length. The one-liner and summary
 * (enrichment/heuristic.ts) did this with regexes that retry a search to the end of the line (or
 * of the text) at every opening without a close: 16,000 characters of ` *a` or `[a](` took
 * 0.3–0.8 s. These scanners answer exactly what those regexes answered (test/unit/markup.test.ts
 * compares them), but remember where a search found no close, and never search there again.
 */

/** `\w` and the emphasis marks: what may not follow a closing mark. */
const WORDISH = /[\w*_]/
const SPACE = /\s/
const isMark = (c: string | undefined) => c === '*' || c === '_'
const MARK = /[*_]/g

/**
 * Emphasis marks taken out, the text kept: `**bold**`, `_it_` → `bold`, `it`. The same as
 * `text.replace(/(^|[^\w*_])([*_]{1,3})(\S(?:[^\n]*?\S)?)\2(?![\w*_])/g, '$1$3')`: a run of one to
 * three marks at the start or after a character that is not a word character or a mark, a
 * text that starts and ends with a non-space on one line, and the same marks again, not followed
 * by a word character or a mark (the longest opening run first, the nearest close first — but a
 * close after the first character before one on it).
 */
export function stripEmphasis(text: string): string {
  const n = text.length
  // per opening run: the position from which a search for its close found none (to the line's end)
  const none = new Map<string, {from: number; to: number}>()
  const closes = (d: string, e: number) => SPACE.test(text[e]) === false && text.startsWith(d, e + 1) && !WORDISH.test(text[e + 1 + d.length] ?? '')
  /** The nearest close of `d` for a text starting at `c` (at c + 1 or later, else at c), or -1. */
  const closeOf = (d: string, c: number): number => {
    const known = none.get(d)
    let after = -1
    if (!(known && c + 1 >= known.from && c + 1 <= known.to)) {
      let e = c + 1
      for (; e < n && text[e] !== '\n'; e++) {
        if (closes(d, e)) {
          after = e
          break
        }
      }
      if (after < 0) none.set(d, {from: c + 1, to: e})
    }
    if (after >= 0) return after
    return closes(d, c) ? c : -1
  }
  let out = ''
  let copied = 0
  let p = 0
  while (p < n) {
    // a match opens with a mark at p (the text's start) or at p + 1: the positions before the next
    // mark cannot start one
    MARK.lastIndex = p === 0 ? 0 : p + 1
    const mark = MARK.exec(text)
    if (mark === null) break
    if (mark.index > p + 1) p = mark.index - 1
    let matched = false
    // the alternatives of `(^|[^\w*_])`, in order: the start of the text, then a character
    for (const lead of p === 0 ? [0, 1] : [1]) {
      if (lead === 1 && WORDISH.test(text[p])) continue
      const q = p + lead
      let run = 0
      while (run < 3 && isMark(text[q + run])) run++
      for (let len = run; len >= 1; len--) {
        const c = q + len
        if (c >= n || SPACE.test(text[c])) continue
        const d = text.slice(q, c)
        const e = closeOf(d, c)
        if (e < 0) continue
        out += text.slice(copied, q) + text.slice(c, e + 1)
        copied = e + 1 + len
        p = copied
        matched = true
        break
      }
      if (matched) break
    }
    if (!matched) p++
  }
  return copied === 0 ? text : out + text.slice(copied)
}

/**
 * Links written `[text](target)` replaced by their text. The same as
 * `text.replace(/\[([^\]]+)\]\([^)]+\)/g, '$1')`: from a `[`, the nearest `]` (text between), right
 * after it `(`, and the nearest `)` after that (a target between).
 */
export function stripLinks(text: string): string {
  let out = ''
  let copied = 0
  let from = 0
  while (from < text.length) {
    const open = text.indexOf('[', from)
    if (open < 0) break
    const close = text.indexOf(']', open + 1)
    // no `]` after this `[`: none after a later one either
    if (close < 0) break
    if (close === open + 1) {
      // `[]`: no text; the next `[` is after the `]`
      from = close
      continue
    }
    if (text[close + 1] !== '(') {
      // every `[` up to this `]` finds the same `]`, not followed by `(`: none of them opens a link
      from = close + 1
      continue
    }
    const end = text.indexOf(')', close + 2)
    // no `)` after this `](`: none after a later one either
    if (end < 0) break
    if (end === close + 2) {
      // `[x]()`: no target; the `[`s up to here find the same `]` and fail the same way
      from = close + 1
      continue
    }
    out += text.slice(copied, open) + text.slice(open + 1, close)
    copied = end + 1
    from = end + 1
  }
  return copied === 0 ? text : out + text.slice(copied)
}

/** The same as `text.replace(/<!--[\s\S]*?-->/g, '')`: HTML comments out (an unclosed one stays). */
export function stripComments(text: string): string {
  let out = ''
  let copied = 0
  for (;;) {
    const open = text.indexOf('<!--', copied)
    if (open < 0) break
    const close = text.indexOf('-->', open + 4)
    // no close after this opening: none after a later one either
    if (close < 0) break
    out += text.slice(copied, open)
    copied = close + 3
  }
  return copied === 0 ? text : out + text.slice(copied)
}

/**
 * Bracket pairs taken out or replaced by their text, each the same as a regex of the shape
 * `<lead>\[([^\]]+)\]<open>[^<close>]*<close>` (`text`: the bracket's text must be there, and is
 * kept): from each `[`, the nearest `]`, right after it `open`, then the nearest `close`.
 *  - images: `/!\[[^\]]*\]\([^)]*\)/g` → '' (lead `!`, text optional);
 *  - links: `/\[([^\]]+)\]\([^)]*\)/g` → '$1';
 *  - reference links: `/\[([^\]]+)\]\[[^\]]*\]/g` → '$1'.
 */
function stripPairs(text: string, {lead, open, close, keep}: {lead: string; open: string; close: string; keep: boolean}): string {
  let out = ''
  let copied = 0
  let from = 0
  for (;;) {
    const at = text.indexOf(`${lead}[`, from)
    if (at < 0) break
    const start = at + lead.length
    const end = text.indexOf(']', start + 1)
    // no `]` after this `[`: none after a later one either
    if (end < 0) break
    if (keep && end === start + 1) {
      // `[]`: no text to keep; a later `[` is after the `]`
      from = end
      continue
    }
    if (text[end + 1] !== open) {
      // every `[` up to this `]` finds the same `]`: none of them is followed by `open`
      from = end
      continue
    }
    const last = text.indexOf(close, end + 2)
    // no `close` after this `]` + `open`: none after a later one either
    if (last < 0) break
    out += text.slice(copied, at) + (keep ? text.slice(start + 1, end) : '')
    copied = last + 1
    from = last + 1
  }
  return copied === 0 ? text : out + text.slice(copied)
}

export const stripImages = (text: string) => stripPairs(text, {lead: '!', open: '(', close: ')', keep: false})
export const stripLinkTargets = (text: string) => stripPairs(text, {lead: '', open: '(', close: ')', keep: true})
export const stripReferenceLinks = (text: string) => stripPairs(text, {lead: '', open: '[', close: ']', keep: true})

/** The same as `text.replace(/\[\s*\]\([^)]*\)/g, '')`: an empty link (what is left of a badge) out. */
export function stripEmptyLinks(text: string): string {
  let out = ''
  let copied = 0
  let from = 0
  for (;;) {
    const at = text.indexOf('[', from)
    if (at < 0) break
    let end = at + 1
    while (end < text.length && SPACE.test(text[end])) end++
    if (text[end] !== ']' || text[end + 1] !== '(') {
      from = at + 1
      continue
    }
    const last = text.indexOf(')', end + 2)
    if (last < 0) break
    out += text.slice(copied, at)
    copied = last + 1
    from = last + 1
  }
  return copied === 0 ? text : out + text.slice(copied)
}

/** An autolink's inside: a scheme and no blank (`https://x.y/z`, `mailto:a@b.c`), or an address (`a@b.c`). */
const AUTOLINK = /^(?:[a-z][a-z0-9+.-]{1,31}:[^\s<>]*|[\w.+-]+@[\w-]+(?:\.[\w-]+)+)$/i

/**
 * The same as `text.replace(/<\/?[a-z][^>]*>/gi, '')`: HTML tags out (an unclosed one stays); an
 * autolink (`<https://…>`, `<a@b.c>`) keeps its address.
 */
export function stripTags(text: string): string {
  let out = ''
  let copied = 0
  let from = 0
  for (;;) {
    const at = text.indexOf('<', from)
    if (at < 0) break
    const name = text[at + 1] === '/' ? at + 2 : at + 1
    if (!/[a-z]/i.test(text[name] ?? '')) {
      from = at + 1
      continue
    }
    const end = text.indexOf('>', name + 1)
    // no `>` after this tag's name: none after a later one either
    if (end < 0) break
    const inside = text.slice(at + 1, end)
    out += text.slice(copied, at) + (AUTOLINK.test(inside) ? inside : '')
    copied = end + 1
    from = end + 1
  }
  return copied === 0 ? text : out + text.slice(copied)
}

const LINE_END = /[\n\r\u2028\u2029]/
/**
 * The same as `text.replace(/(\*\*|__)(?=\S)(.+?)(?<=\S)\1/g, '$2')`: strong emphasis out, its
 * text kept — from `**` (or `__`) before a non-space, the nearest same marks after a non-space on
 * the line, one character of text at least.
 */
export function stripStrong(text: string): string {
  const n = text.length
  // per mark: the range after which a search for a close found none (to the line's end)
  const none = new Map<string, {from: number; to: number}>()
  let out = ''
  let copied = 0
  let p = 0
  while (p < n) {
    const d = text.startsWith('**', p) ? '**' : text.startsWith('__', p) ? '__' : null
    const c = p + 2
    if (d === null || c >= n || SPACE.test(text[c])) {
      p++
      continue
    }
    let close = -1
    const known = none.get(d)
    if (!(known && c + 1 >= known.from && c + 1 <= known.to) && !LINE_END.test(text[c])) {
      let e = c + 1
      for (; e < n; e++) {
        if (!SPACE.test(text[e - 1]) && text.startsWith(d, e)) {
          close = e
          break
        }
        // `.` does not cross a line's end
        if (LINE_END.test(text[e])) break
      }
      if (close < 0) none.set(d, {from: c + 1, to: e})
    }
    if (close < 0) {
      p++
      continue
    }
    out += text.slice(copied, p) + text.slice(c, close)
    copied = close + 2
    p = copied
  }
  return copied === 0 ? text : out + text.slice(copied)
}

/**
 * An ATX heading (`## Title ##`): its level and text. The same as
 * `/^(#{1,6})\s+(.*?)\s*#*\s*$/.exec(line)` (level: group 1's length, text: group 2), which is
 * cubic on a run of spaces inside the heading (`# a` + 4,000 spaces + `b` took 138 s): one to six
 * marks, spaces, and the text without its closing marks and spaces; null when there is none.
 */
export function atxHeading(line: string): {level: number; text: string} | null {
  let level = 0
  while (level < line.length && line[level] === '#') level++
  if (level === 0 || level > 6 || !SPACE.test(line[level] ?? '')) return null
  let start = level
  while (start < line.length && SPACE.test(line[start])) start++
  // the longest end of spaces, closing marks and spaces: the shortest text before it
  let end = line.length
  while (end > start && SPACE.test(line[end - 1])) end--
  while (end > start && line[end - 1] === '#') end--
  while (end > start && SPACE.test(line[end - 1])) end--
  const text = line.slice(start, end)
  // `.` does not cross a line's end
  return LINE_END.test(text) ? null : {level, text}
}

/**
 * A text cut into its code spans (a run of backticks to the next run of as many, CommonMark) and
 * the prose between them. A run with no closing run of its length is prose. Linear: each run finds
 * the next of its length through an index of runs by length (a 200 kB line of lone backticks too).
 */
export function codeSpansApart(text: string): Array<{code: boolean; part: string}> {
  const runs: Array<{at: number; n: number}> = []
  for (let i = 0; i < text.length; ) {
    if (text[i] !== '`') {
      i++
      continue
    }
    let j = i
    while (text[j] === '`') j++
    runs.push({at: i, n: j - i})
    i = j
  }
  if (runs.length < 2) return [{code: false, part: text}]
  const byLength = new Map<number, number[]>()
  for (const [k, r] of runs.entries()) {
    const ks = byLength.get(r.n)
    if (ks) ks.push(k)
    else byLength.set(r.n, [k])
  }
  const next = new Map<number, number>()
  for (const ks of byLength.values()) for (let x = 0; x + 1 < ks.length; x++) next.set(ks[x], ks[x + 1])
  const out: Array<{code: boolean; part: string}> = []
  let copied = 0
  for (let k = 0; k < runs.length; k++) {
    const close = next.get(k)
    if (close === undefined || runs[k].at < copied) continue
    const end = runs[close].at + runs[close].n
    if (runs[k].at > copied) out.push({code: false, part: text.slice(copied, runs[k].at)})
    out.push({code: true, part: text.slice(runs[k].at, end)})
    copied = end
    k = close
  }
  if (copied < text.length) out.push({code: false, part: text.slice(copied)})
  return out
}
