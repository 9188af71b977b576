import {describe, expect, it} from 'vitest'
import {keptBy} from '../../src/text/kept.js'

describe('keptBy: what texts were read as, for the texts read lately', () => {
  it('reads a text once while it is kept, and again once it has gone', () => {
    const reads: string[] = []
    const read = keptBy((t: string) => (reads.push(t), t.length), 2)
    expect([read('a'), read('bb'), read('a')]).toEqual([1, 2, 1])
    expect(reads).toEqual(['a', 'bb'])
    read('ccc') // a third text: the oldest ('a') goes
    read('a')
    expect(reads).toEqual(['a', 'bb', 'ccc', 'a'])
  })

  it('keeps at most maxChars characters of texts, the oldest going first, and never keeps a longer one', () => {
    const reads: string[] = []
    const read = keptBy((t: string) => (reads.push(t), t), 100, 10)
    read('aaaa')
    read('bbbb')
    read('cccc') // 12 characters: 'aaaa' goes
    read('bbbb')
    read('aaaa')
    expect(reads).toEqual(['aaaa', 'bbbb', 'cccc', 'aaaa'])
    const long = 'x'.repeat(11)
    read(long)
    read(long)
    expect(reads.filter((t) => t === long)).toHaveLength(2)
    // the long text evicted nothing
    read('cccc')
    expect(reads.at(-1)).toBe(long)
  })
})
