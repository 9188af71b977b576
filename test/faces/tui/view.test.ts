import {describe, expect, it, vi} from 'vitest'
import type {Memory} from '../../../src/model/memory.js'
import {PassThrough} from 'node:stream'
import {oneKeyAtATime, osc52, splitKeys} from '../../../src/faces/tui/run.js'
import {testMemory} from '../../helpers/memory.js'
import {clip, detailLines, HELP_LINES, filterRows, keysBar, nextType, parseImportance, parseTags, rowLine, toRow, wrap} from '../../../src/faces/tui/view.js'

const memory = (over: Partial<Memory> = {}): Memory =>
  testMemory({
    id: 'memories/app/insight/0123456789ab',
    type: 'insight',
    content: 'retries hide the real failure; log the first error',
    tags: ['errors'],
    importance: 0.7,
    source: 'claude-session',
    createdAt: '2026-03-01T12:00:00.000Z',
    updatedAt: '2026-03-01T12:00:00.000Z',
    ...over,
  })

describe('tui view helpers', () => {
  it('parses tags, refusing too many or too long', () => {
    expect(parseTags('a, b  c,,a')).toEqual({tags: ['a', 'b', 'c']})
    expect(parseTags('   ')).toEqual({tags: []})
    expect(parseTags(Array.from({length: 33}, (_, i) => `t${i}`).join(','))).toEqual({error: 'At most 32 tags.'})
    expect(parseTags('x'.repeat(65))).toMatchObject({error: expect.stringContaining('longer than 64')})
  })

  it('parses importance 0..1 and refuses anything else', () => {
    expect(parseImportance(' 0.25 ')).toEqual({importance: 0.25})
    expect(parseImportance('1')).toEqual({importance: 1})
    for (const bad of ['', 'high', '-0.1', '1.01', 'NaN', 'Infinity']) {
      expect(parseImportance(bad)).toEqual({error: 'Importance is a number from 0.0 to 1.0.'})
    }
  })

  it('cycles the type through all four and back to all', () => {
    const seen = [undefined]
    let t = nextType(undefined)
    while (t !== undefined) {
      seen.push(t as never)
      t = nextType(t)
    }
    expect(seen).toEqual([undefined, 'observation', 'insight', 'procedure', 'heuristic'])
  })

  it('clips and wraps to the width, breaking words longer than a line', () => {
    expect(clip('abcdef', 4)).toBe('abc…')
    expect(clip('abc', 4)).toBe('abc')
    expect(clip('abc', 0)).toBe('')
    expect(wrap('one two three four five six', 10)).toEqual(['one two', 'three four', 'five six'])
    expect(wrap('a\n\nb', 10)).toEqual(['a', '', 'b'])
    expect(wrap('x'.repeat(25), 10)).toEqual(['x'.repeat(10), 'x'.repeat(10), 'x'.repeat(5)])
  })

  it('renders a list row within the width from a browse entry or a recall item', () => {
    const row = toRow({...memory(), type: 'Insight', score: 0.5})
    expect(row.type).toBe('insight')
    const line = rowLine(row, 40)
    expect(line.startsWith('I 2026-03-01 0.70 retries hide')).toBe(true)
    expect([...line].length).toBe(40)
  })

  it('marks a memory a newer one updates, from a browse entry (its links) or a recall item (its warning)', () => {
    expect(rowLine(toRow({...memory(), links: [{relation: 'updated-by'}]}), 60)).toMatch(/^\S 2026-03-01 0\.70 \(outdated\) retries/)
    expect(rowLine(toRow({...memory(), stalenessWarning: 'may be outdated: memories/app/heuristic/b (2026-03-02) states a newer value'}), 60)).toContain('(outdated)')
    expect(rowLine(toRow({...memory(), links: [{relation: 'updates'}], stalenessWarning: 'not confirmed in 40 days'}), 60)).not.toContain('(outdated)')
  })

  it('filters rows fuzzily on text and tags, keeping all for an empty filter', () => {
    const rows = [
      toRow(memory({id: 'memories/app/insight/a', content: 'kafka consumer lag alert', tags: ['ops']})),
      toRow(memory({id: 'memories/app/insight/b', content: 'postgres index builds', tags: ['db']})),
    ]
    expect(filterRows(rows, '  ')).toBe(rows)
    expect(filterRows(rows, 'kafak').map((r) => r.id)).toEqual(['memories/app/insight/a'])
    expect(filterRows(rows, 'db').map((r) => r.id)).toEqual(['memories/app/insight/b'])
    expect(filterRows(rows, 'zzzzzz')).toEqual([])
  })

  it('shows links, forgetting, superseding and history in the detail lines', () => {
    const m = memory({
      links: [{targetId: 'memories/app/procedure/ffffffffffff', relation: 'explains'}],
      forgottenAt: '2026-03-02T00:00:00.000Z',
      forgetReason: 'obsolete',
      supersedes: 'memories/app/insight/000000000000',
      derivedFrom: ['memories/app/observation/111111111111'],
    })
    const lines = detailLines(m, {chain: [{id: m.id, content: m.content, createdAt: m.createdAt}, {id: 'memories/app/insight/000000000000', content: 'old text', createdAt: '2026-02-01T00:00:00.000Z'}]}, 80)
    const text = lines.join('\n')
    expect(text).toContain('explains → memories/app/procedure/ffffffffffff')
    expect(text).toContain('forgotten    2026-03-02T00:00:00.000Z (obsolete)')
    expect(text).toContain('supersedes   memories/app/insight/000000000000')
    expect(text).toContain('derived from\n  memories/app/observation/111111111111')
    expect(text).toContain('history (2 versions, newest first)')
    expect(text).toContain(`* 2026-03-01T12:00:00.000Z ${m.id}\n    retries hide`)
    for (const line of lines) expect([...line].length).toBeLessThanOrEqual(80)
    // no links: no links section
    expect(detailLines(memory(), null, 80).join('\n')).not.toContain('links')
  })

  it('keeps every keys bar within 80 columns and writes OSC 52', () => {
    for (const mode of ['list', 'detail', 'input', 'prompt', 'confirm', 'help'] as const) {
      expect(keysBar(mode, 79)).not.toContain('…')
    }
    for (const line of HELP_LINES) expect([...line].length).toBeLessThanOrEqual(79)
    expect(osc52('memories/app/insight/0123456789ab')).toBe(`\u001b]52;c;${Buffer.from('memories/app/insight/0123456789ab').toString('base64')}\u0007`)
  })

  it('splits what was read at once into keys, keeping escape sequences whole', () => {
    expect(splitKeys('/docker')).toEqual(['/', 'd', 'o', 'c', 'k', 'e', 'r'])
    expect(splitKeys('\u001b[A\u001b[6~x\u001bOP\u001b\u001b[B')).toEqual(['\u001b[A', '\u001b[6~', 'x', '\u001bOP', '\u001b\u001b[B'])
    expect(splitKeys('a\u001b')).toEqual(['a', '\u001b'])
    expect(splitKeys('\u001bq')).toEqual(['\u001b', 'q'])
    expect(splitKeys('é✓')).toEqual(['é', '✓'])
  })

  it('hands a reader one key per turn, as Ink reads', async () => {
    const stdin = new PassThrough() as unknown as NodeJS.ReadStream
    stdin.setEncoding('utf8')
    const restore = oneKeyAtATime(stdin)
    const turns: string[][] = []
    stdin.on('readable', () => {
      const turn: string[] = []
      let chunk
      while ((chunk = stdin.read()) !== null) turn.push(chunk as string)
      if (turn.length) turns.push(turn)
    })
    ;(stdin as unknown as PassThrough).write('/do\u001b[B\u001bq')
    // each key comes on a later turn of the event loop: wait for the last one, however long that takes
    await vi.waitFor(() => expect(turns.flat()).toContain('q'), {timeout: 10_000})
    expect(turns).toEqual([['/'], ['d'], ['o'], ['\u001b[B'], ['\u001b'], ['q']])
    restore()
    ;(stdin as unknown as PassThrough).write('ab')
    await vi.waitFor(() => expect(turns).toHaveLength(7), {timeout: 10_000})
    expect(turns.at(-1)).toEqual(['ab'])
  })
})
