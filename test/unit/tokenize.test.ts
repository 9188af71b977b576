import {describe, expect, it} from 'vitest'
import {analyze, foldAccents, LONG_FOLDS, NEGATIONS} from '../../src/text/tokenize.js'

describe('analyze: the terms of a text', () => {
  it('splits code identifiers into parts and keeps them whole; plain and capitalized words are one part', () => {
    expect(analyze('HTTPServer parseConfigFile node_modules')).toEqual(['http', 'server', 'httpserver', 'pars', 'config', 'file', 'parseconfigfile', 'node', 'modul', 'nodemodules'])
    expect(analyze('Deploys v20.1 OPS-4821 iOS')).toEqual(['deploi', 'v20', '1', 'v201', 'op', '4821', 'ops4821', 'os', 'ios'])
  })

  it('reads a text read before the same way under each option (stop words, negations kept)', () => {
    const text = 'Do not run the tests without CI; 漢字かなthe tests'
    for (let i = 0; i < 2; i++) {
      expect(analyze(text)).toEqual(['run', 'test', 'without', 'ci', '漢字', '字か', 'かな', 'test'])
      expect(analyze(text, {keep: NEGATIONS})).toEqual(['not', 'run', 'test', 'without', 'ci', '漢字', '字か', 'かな', 'test'])
      expect(analyze(text, {keepStopWords: true})).toEqual(['do', 'not', 'run', 'the', 'test', 'without', 'ci', '漢字', '字か', 'かな', 'the', 'test'])
    }
  })

  it('stems a word the same way every time it comes back (stop words dropped, duplicates kept)', () => {
    expect(analyze('Running the tests Running')).toEqual(['run', 'test', 'run'])
    expect(analyze('running')).toEqual(['run'])
  })
})

describe('foldAccents: no text grows more than 4× (issue 28)', () => {
  it('keeps exactly the characters whose compatibility decomposition is longer than 4 code units', () => {
    const long: string[] = []
    for (let c = 0; c < 0x110000; c++) {
      if (c >= 0xd800 && c < 0xe000) continue
      const ch = String.fromCodePoint(c)
      if (ch.normalize('NFKD').replace(/\p{M}+/gu, '').length > 4) long.push(ch)
    }
    // the list in tokenize.ts is this runtime's Unicode: a newer one that adds such a character fails here
    expect(long.filter((ch) => !LONG_FOLDS.test(ch))).toEqual([])
    expect(long.length).toBe(23)
    expect(foldAccents('\uFDFA')).toBe('\uFDFA')
    expect(foldAccents('\uFDFA'.repeat(16_000)).length).toBe(16_000)
  })

  it('folds everything else as before: accents, ligatures, numerals, Hangul, around a kept character', () => {
    expect(foldAccents('Café ﬁle Ⅷ ⑽ 한')).toBe('Cafe file VIII (10) 한'.normalize('NFKD'))
    expect(foldAccents('é\uFDFAé')).toBe('e\uFDFAe')
    // a kept character is one character, not four words (a term of one letter is not indexed)
    expect(analyze('Crème brûlée ﷺ')).toEqual(['creme', 'brule'])
  })

  it('splits a token without capitals only at its separators', () => {
    expect(analyze('v20.1.3 مرحبا_بكم node-modules')).toEqual(['v20', '1', '3', 'v2013', 'مرحبا', 'بكم', 'مرحبابكم', 'node', 'modul', 'nodemodules'])
  })
})
