import {describe, expect, it} from 'vitest'
import {parseFast} from '../../../src/faces/cli/fast.js'

describe('the quick way in for mem recall (src/faces/cli/fast.ts)', () => {
  it('takes plain invocations, with every flag and short form', () => {
    expect(parseFast(['recall', 'how do tests run?'])?.call).toEqual({positionals: ['how do tests run?'], values: {}, json: false})
    const all = parseFast(['recall', 'q', '--json', '-n', '3', '-t', 'insight', '--repo', '/tmp/x'])?.call
    expect(all).toEqual({positionals: ['q'], values: {json: true, limit: '3', type: 'insight', repo: '/tmp/x'}, json: true})
    expect(parseFast(['recall', '--limit=5', 'q', '--type=heuristic'])?.call.values).toEqual({limit: '5', type: 'heuristic'})
  })

  it('leaves to oclif whatever it must answer itself', () => {
    const leave = [
      ['stats'],
      ['recall'],
      ['recall', 'a', 'b'],
      ['recall', 'q', '--help'],
      ['recall', 'q', '-h'],
      ['recall', 'q', '--bogus'],
      ['recall', 'q', '--limit'],
      ['recall', 'q', '--limit', 'abc'],
      ['recall', 'q', '--limit', '1.5'],
      ['recall', 'q', '--limit', '-1'],
      ['recall', 'q', '--type', 'fact'],
      ['recall', 'q', '--limit', '3', '--limit', '4'],
      ['recall', 'q', '--', '--json'],
      ['recall', 'q', '--limit', '--json'],
      ['recall', 'q', '--json=yes'],
    ]
    for (const argv of leave) expect(parseFast(argv), argv.join(' ')).toBeNull()
  })
})
