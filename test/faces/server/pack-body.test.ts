import {randomBytes} from 'node:crypto'
import {describe, expect, it} from 'vitest'
import {decodeBase64Slice, findDataString, parsePackBody} from '../../../src/faces/server/pack-body.js'

const parse = (text: string) => JSON.parse(text, (k, v) => {
  if (k === '__proto__') throw new Error('proto')
  return v
})

describe('the pack import body, decoded from the raw bytes', () => {
  it('finds the top-level data string and decodes it exactly as base64 would', () => {
    const pack = randomBytes(10_003)
    const body = Buffer.from(JSON.stringify({repo: '/tmp/x', data: pack.toString('base64')}))
    const found = findDataString(body)!
    expect(body.toString('latin1', found.start, found.end)).toBe(pack.toString('base64'))
    const parsed = parsePackBody(body, parse) as {repo: string; data: Uint8Array}
    expect(parsed.repo).toBe('/tmp/x')
    expect(Buffer.from(parsed.data).equals(pack)).toBe(true)
  })

  it('decodes in slices the same bytes as one decode (slice boundaries, padding)', () => {
    for (const n of [0, 1, 2, 3, 4, 5, 3 * 1024 * 1024 + 1, 3 * 1024 * 1024 + 2]) {
      const bytes = randomBytes(n)
      const b64 = Buffer.from(bytes.toString('base64'))
      expect(Buffer.from(decodeBase64Slice(b64, 0, b64.length)).equals(bytes), String(n)).toBe(true)
    }
  })

  it('is not fooled by "data" inside other strings or nested objects', () => {
    const tricky = Buffer.from('{"repo": "\\"data\\": \\"QQ==\\"", "meta": {"data": "AAAA"}, "data" : "QUJD"}')
    const parsed = parsePackBody(tricky, parse) as {repo: string; meta: {data: string}; data: Uint8Array}
    expect(parsed.repo).toBe('"data": "QQ=="')
    expect(parsed.meta).toEqual({data: 'AAAA'})
    expect(Buffer.from(parsed.data).toString()).toBe('ABC')
  })

  it('leaves anything else to the JSON parser and its checks: no data, data not a string, escapes, arrays, poisoning', () => {
    expect(parsePackBody(Buffer.from('{"repo": "x"}'), parse)).toEqual({repo: 'x'})
    expect(parsePackBody(Buffer.from('{"repo": "x", "data": 5}'), parse)).toEqual({repo: 'x', data: 5})
    expect(parsePackBody(Buffer.from('{"data": "QU\\nJD"}'), parse)).toEqual({data: 'QU\nJD'})
    expect(parsePackBody(Buffer.from('[1, 2]'), parse)).toEqual([1, 2])
    expect(() => parsePackBody(Buffer.from('{"__proto__": {"x": 1}, "data": "QUJD"}'), parse)).toThrow('proto')
    expect(() => parsePackBody(Buffer.from('{"data": "QUJD", '), parse)).toThrow()
  })

  it('refuses data that is not base64', () => {
    for (const data of ['QUJD!', 'QQ=A', 'Q', 'QUJD===', '%%%%']) {
      expect(() => parsePackBody(Buffer.from(JSON.stringify({repo: 'x', data})), parse), data).toThrow(/not base64/)
    }
  })
})
