import {describe, expect, it} from 'vitest'
import {atxHeading, stripComments, stripEmphasis, stripEmptyLinks, stripImages, stripLinks, stripLinkTargets, stripReferenceLinks, stripStrong, stripTags} from '../../src/text/markup.js'
import {plainInline} from '../../src/engines/intake/markdown.js'

// The regexes the scanners replace (enrichment/heuristic.ts before issue 28): the oracle
const EMPHASIS = /(^|[^\w*_])([*_]{1,3})(\S(?:[^\n]*?\S)?)\2(?![\w*_])/g
const LINK = /\[([^\]]+)\]\([^)]+\)/g

/** Texts of `count` pieces drawn from `alphabet` (a fixed seed: the same texts every run). */
function texts(alphabet: string[], count: number, maxPieces: number): string[] {
  let seed = 20261126
  const next = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32
  return Array.from({length: count}, () => Array.from({length: 1 + Math.floor(next() * maxPieces)}, () => alphabet[Math.floor(next() * alphabet.length)]).join(''))
}

describe('stripEmphasis: emphasis marks out, linear in the text', () => {
  it('takes out emphasis at word edges and keeps marks inside identifiers', () => {
    expect(stripEmphasis('Use **pnpm** and _never_ npm; STRIPE_WEBHOOK_SECRET stays, so does ACME_CHECKOUT_')).toBe('Use pnpm and never npm; STRIPE_WEBHOOK_SECRET stays, so does ACME_CHECKOUT_')
    // a close after the first character comes before one on it, as in the regex: the farther close wins
    expect(stripEmphasis('*a* *b*')).toBe('a* *b')
    expect(stripEmphasis('*a*, then *b*')).toBe('a*, then *b')
    expect(stripEmphasis('*a*\n*b*')).toBe('a\nb')
    expect(stripEmphasis('**not closed')).toBe('**not closed')
    expect(stripEmphasis('*one\nline*')).toBe('*one\nline*')
  })

  it('answers what the regex answers, on 30,000 texts of marks, words, spaces and line breaks', () => {
    for (const t of texts(['*', '_', '**', '***', 'a', 'b_c', ' ', '\n', 'x*', '_y', '\t', '(', '.', 'é', '\u00a0'], 30_000, 16)) {
      expect(stripEmphasis(t), JSON.stringify(t)).toBe(t.replace(EMPHASIS, '$1$3'))
    }
  })

  it('answers what the regex answers on long texts of unclosed marks (where the regex is quadratic)', () => {
    for (const unit of [' *a', '**a ', ' _x_y', '*', '_a_ *b', ' *a\n']) {
      const t = unit.repeat(Math.ceil(2_000 / unit.length))
      expect(stripEmphasis(t)).toBe(t.replace(EMPHASIS, '$1$3'))
    }
  })
})

describe('stripLinks: links as their text, linear in the text', () => {
  it('keeps the text of each link', () => {
    expect(stripLinks('See [the docs](https://x.dev/a) and [b](c).')).toBe('See the docs and b.')
    expect(stripLinks('[[nested](a)')).toBe('[nested')
    expect(stripLinks('[] [x]() [y] (z) [w](v')).toBe('[] [x]() [y] (z) [w](v')
  })

  it('answers what the regex answers, on 30,000 texts of brackets and words', () => {
    for (const t of texts(['[', ']', '(', ')', 'a', ' ', '\n', '](', '[a]', '()', 'x)'], 30_000, 16)) {
      expect(stripLinks(t), JSON.stringify(t)).toBe(t.replace(LINK, '$1'))
    }
  })

  it('answers what the regex answers on long texts of unclosed brackets', () => {
    for (const unit of ['[a](', '[', '[a]', '](', '[a](b) [', '[[[a]']) {
      const t = unit.repeat(Math.ceil(2_000 / unit.length))
      expect(stripLinks(t)).toBe(t.replace(LINK, '$1'))
    }
  })
})

// intake's markdown reader (engines/intake/markdown.ts): each scanner against the regex it replaces
const INTAKE: Array<[string, (t: string) => string, RegExp, string]> = [
  ['comments', stripComments, /<!--[\s\S]*?-->/g, ''],
  ['images', stripImages, /!\[[^\]]*\]\([^)]*\)/g, ''],
  ['empty links', stripEmptyLinks, /\[\s*\]\([^)]*\)/g, ''],
  ['links', stripLinkTargets, /\[([^\]]+)\]\([^)]*\)/g, '$1'],
  ['reference links', stripReferenceLinks, /\[([^\]]+)\]\[[^\]]*\]/g, '$1'],
  ['tags', stripTags, /<\/?[a-z][^>]*>/gi, ''],
  ['strong', stripStrong, /(\*\*|__)(?=\S)(.+?)(?<=\S)\1/g, '$2'],
]

describe("intake's inline markup: scanners linear in the text", () => {
  const pieces = ['<!--', '-->', '<', '>', '<a', '</b', '/', '!', '[', ']', '(', ')', '](', '![', '[ ]', '][', '*', '**', '__', '_', 'a', 'B', ' ', '\n', '\r', '\u2028', '-', 'x y']
  it.each(INTAKE)('%s: the same as the regex on 12,000 texts of markup pieces', (_name, scan, re, by) => {
    for (const t of texts(pieces, 12_000, 14)) expect(scan(t), JSON.stringify(t)).toBe(t.replace(re, by))
  })

  it.each(INTAKE)('%s: the same as the regex on long runs of unclosed markup', (_name, scan, re, by) => {
    for (const unit of ['<!--', '<!-- a --', '![a](', '[ ](', '[a](', '[a][', '<a', '</a ', ' **a', '__a ', '[', '**a**b', '[a]']) {
      const t = unit.repeat(Math.ceil(2_000 / unit.length))
      expect(scan(t), unit).toBe(t.replace(re, by))
    }
  })

  it('reads a README line as before', () => {
    expect(plainInline('[![CI](https://ci.example/badge.svg)](https://ci.example) **Install** with `pnpm i` <!-- note --> and see <b>[the docs](https://x.dev)</b> or [the guide][g]')).toBe('Install with `pnpm i` and see the docs or the guide')
  })
})

describe('atxHeading: a heading line, linear in its length', () => {
  const HEADING = /^(#{1,6})\s+(.*?)\s*#*\s*$/
  const oracle = (line: string) => {
    const m = HEADING.exec(line)
    return m ? {level: m[1].length, text: m[2]} : null
  }
  it('reads what the regex reads, on 30,000 lines of marks, words and spaces', () => {
    for (const t of texts(['#', '##', '###', ' ', '\t', 'a', 'b c', '\u2028', '\u00a0', '*', '#a'], 30_000, 12)) expect(atxHeading(t), JSON.stringify(t)).toEqual(oracle(t))
  })
  it('reads a heading with long runs of spaces as the regex would', () => {
    expect(atxHeading(`# a${' '.repeat(16_000)}b ##  `)).toEqual({level: 1, text: `a${' '.repeat(16_000)}b`})
    expect(atxHeading(`###### Setup ${'#'.repeat(9_000)}`)).toEqual({level: 6, text: 'Setup'})
    expect(atxHeading('####### seven')).toBeNull()
  })
})

describe("a shell or TOML line's trailing comment, found from the start of a run of spaces only", () => {
  // (?<!\s): a match may start only where a run of spaces starts, where the leftmost match
  // always started; without it each space of a long run was tried to the run's end (quadratic)
  it.each([
    [/\s+#\s.*$/, /(?<!\s)\s+#\s.*$/],
    [/\s+#.*$/, /(?<!\s)\s+#.*$/],
  ])('%s cuts what %s cuts, on 30,000 lines and on long runs of spaces', (before, after) => {
    for (const t of texts(['#', ' ', '\t', 'a', '# ', '\u2028', 'x y', '\n'], 30_000, 12)) expect(t.replace(after, ''), JSON.stringify(t)).toBe(t.replace(before, ''))
    for (const t of [`a${' '.repeat(2_000)}b`, `a${' '.repeat(2_000)}# c`, ` ${' #'.repeat(1_000)}`]) expect(t.replace(after, '')).toBe(t.replace(before, ''))
  })
})
