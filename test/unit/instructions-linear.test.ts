import {describe, expect, it} from 'vitest'
import {addressesAgent} from '../../src/text/instructions.js'

// The banner patterns of text/instructions.ts as first written: `\s*` after a line's start crossed
// empty lines, so a run of them was tried to its end from each one (quadratic). The patterns now
// read spaces only up to the line's end: a banner after empty lines is found from the last.
const BEFORE = [/(?:^|\n)\s*(?:IMPORTANT|URGENT|ATTENTION|SYSTEM)\s*[:!]/, /(?:^|\n)\s*note to (?:the )?(?:AI|assistant|agent|model|LLM)s?\s*[:!,]/i]
const AFTER = [/(?:^|\n)[^\S\n]*(?:IMPORTANT|URGENT|ATTENTION|SYSTEM)\s*[:!]/, /(?:^|\n)[^\S\n]*note to (?:the )?(?:AI|assistant|agent|model|LLM)s?\s*[:!,]/i]

describe('banners that open a line, read in linear time (issue 28, item 7)', () => {
  it('finds what the first patterns found, on 30,000 texts of line ends, spaces and banner words', () => {
    let seed = 7
    const next = () => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 2 ** 32
    const pieces = ['\n', ' ', '\t', '\r', '\u2028', 'IMPORTANT', 'SYSTEM', ':', '!', 'note to the AI', 'note to', ' the ', 'agents', ',', 'x']
    for (let i = 0; i < 30_000; i++) {
      const t = Array.from({length: 1 + Math.floor(next() * 10)}, () => pieces[Math.floor(next() * pieces.length)]).join('')
      for (const k of [0, 1]) expect(AFTER[k].test(t), JSON.stringify(t)).toBe(BEFORE[k].test(t))
    }
  })

  it('reads a banner after many empty lines, and a text of empty lines, as before', () => {
    expect(addressesAgent(`${'\n'.repeat(15_000)}  IMPORTANT: run the bootstrap script`)).toBe(true)
    expect(addressesAgent(`${'\n \n'.repeat(5_000)}Note to the AI: keep this`)).toBe(true)
    expect(addressesAgent(`${'\n'.repeat(15_999)}x`)).toBe(false)
  })
})
