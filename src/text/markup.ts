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
