// One contract per input (src/model/inputs.ts): the hand-written checks of the paths that start
// without zod accept and refuse exactly what the declarations' zod schemas do, and parse to the
// same value; the quick `mem recall` (src/faces/cli/fast.ts) takes only arguments oclif reads the same.
import {Parser} from '@oclif/core'
import fc from 'fast-check'
import {describe, expect, it} from 'vitest'
import Recall from '../../src/faces/cli/commands/recall.js'
import {MemCommand} from '../../src/faces/cli/mem-command.js'
import {parseFast} from '../../src/faces/cli/fast.js'
import {MemError} from '../../src/model/errors.js'
import {plainRecallInput, plainStatsInput, RECALL_LIMITS} from '../../src/model/inputs.js'
import {MEMORY_TYPES} from '../../src/model/memory.js'
import {RecallInput, StatsInput} from '../../src/model/schemas.js'
import {parseInput} from '../../src/model/validate.js'
import {stats} from '../../src/operations/stats.js'
import {recall} from '../../src/operations/recall.js'
import type {MemContext} from '../../src/engines/context.js'

const RUNS = 3_000

/** Strings near every edge a repo ref has: empty, only whitespace of each kind trim knows, padded. */
const repoValue = fc.oneof(
  fc.string({maxLength: 8}),
  fc.constantFrom('', ' ', '\t\n', '\u00a0', '\u2028', '\ufeff', '\u3000', '\u180e', ' /tmp/app ', 'C--proj'),
  fc.stringMatching(/^[\s\u00a0\ufeff]{0,3}[a-z]?[\s\u00a0\ufeff]{0,3}$/),
  fc.anything(),
)

/** Queries on both sides of the longest one, and other values. */
const queryValue = fc.oneof(
  fc.string({maxLength: 20}),
  fc.integer({min: RECALL_LIMITS.maxQueryChars - 3, max: RECALL_LIMITS.maxQueryChars + 3}).map((n) => 'q'.repeat(n)),
  // a surrogate pair is two UTF-16 units and one code point: zod counts code points, and so must the check
  fc.integer({min: RECALL_LIMITS.maxQueryChars / 2 - 2, max: RECALL_LIMITS.maxQueryChars / 2 + 2}).map((n) => '😀'.repeat(n)),
  fc.integer({min: RECALL_LIMITS.maxQueryChars - 2, max: RECALL_LIMITS.maxQueryChars + 2}).map((n) => '😀'.repeat(n)),
  // lone surrogates, and pairs split by them
  fc.integer({min: RECALL_LIMITS.maxQueryChars - 2, max: RECALL_LIMITS.maxQueryChars + 2}).map((n) => '\ud83d'.repeat(n)),
  fc.array(fc.constantFrom('\ud83d', '\ude00', 'a', '😀'), {minLength: RECALL_LIMITS.maxQueryChars - 4, maxLength: RECALL_LIMITS.maxQueryChars + 4}).map((a) => a.join('')),
  fc.anything(),
)

/** Numbers around the range, fractions, the odd ones, and other types. */
const limitValue = fc.oneof(
  fc.integer({min: RECALL_LIMITS.minLimit - 3, max: RECALL_LIMITS.maxLimit + 3}),
  fc.double({noDefaultInfinity: false}),
  fc.constantFrom(Number.NaN, Infinity, -Infinity, -0, 0.5, 1.5, 99.999, 100.0000001, 2 ** 53, Number.MAX_SAFE_INTEGER + 2, '10', 10n, null, true),
  fc.anything(),
)

const typeValue = fc.oneof(fc.constantFrom(...MEMORY_TYPES, 'Insight', 'fact', '', ' insight'), fc.anything())
const touchValue = fc.oneof(fc.boolean(), fc.constantFrom('true', 0, 1, null), fc.anything())

/** Maybe absent, maybe present as undefined, maybe a value. */
const field = <T,>(value: fc.Arbitrary<T>) => fc.option(fc.oneof(value, fc.constant(undefined)), {nil: undefined, freq: 4})

const recallInputs = fc.oneof(
  {weight: 8, arbitrary: fc
    .record(
      {repo: field(repoValue), q: field(queryValue), limit: field(limitValue), type: field(typeValue), touch: field(touchValue), extra: fc.dictionary(fc.string({maxLength: 6}), fc.anything(), {maxKeys: 2})},
      {requiredKeys: []},
    )
    .map(({extra, ...known}) => ({...extra, ...known}))},
  // well-formed ones often, so both sides of every bound are reached
  {weight: 4, arbitrary: fc.record(
    {repo: fc.constantFrom('/tmp/app', ' app '), q: queryValue, limit: fc.integer({min: -2, max: 103}), type: fc.constantFrom(...MEMORY_TYPES), touch: fc.boolean()},
    {requiredKeys: ['repo', 'q']},
  )},
  {weight: 1, arbitrary: fc.anything()},
  {weight: 1, arbitrary: fc.array(fc.anything(), {maxLength: 3})},
)

/** Zod's answer as the hand-written check gives it: the value, or null for a refusal. */
function bySchema(schema: typeof RecallInput | typeof StatsInput, raw: unknown): unknown {
  const r = schema.safeParse(raw)
  if (!r.success) return null
  // zod keeps an optional key given as undefined; the operation reads it as absent either way
  return Object.fromEntries(Object.entries(r.data).filter(([, v]) => v !== undefined))
}

describe('recall: the hand-written check (no zod) and RecallInput', () => {
  it('accept and refuse the same inputs, and parse them to the same value', () => {
    let accepted = 0
    let refused = 0
    fc.assert(
      fc.property(recallInputs, (raw) => {
        const plain = plainRecallInput(raw)
        expect(plain).toStrictEqual(bySchema(RecallInput, raw))
        if (plain) accepted++
        else refused++
      }),
      {numRuns: RUNS},
    )
    // both sides were reached, not one of them only
    expect(accepted).toBeGreaterThan(RUNS / 10)
    expect(refused).toBeGreaterThan(RUNS / 10)
  })

  it('at each bound of the contract', () => {
    const at = (fields: Record<string, unknown>) => ({repo: '/r', q: 'q', ...fields})
    const cases = [
      at({q: 'x'.repeat(RECALL_LIMITS.maxQueryChars)}),
      at({q: 'x'.repeat(RECALL_LIMITS.maxQueryChars + 1)}),
      at({limit: RECALL_LIMITS.minLimit}),
      at({limit: RECALL_LIMITS.minLimit - 1}),
      at({limit: RECALL_LIMITS.maxLimit}),
      at({limit: RECALL_LIMITS.maxLimit + 1}),
      at({}),
    ]
    expect(cases.map((c) => plainRecallInput(c) !== null)).toEqual([true, false, true, false, true, false, true])
    expect(cases.map((c) => RecallInput.safeParse(c).success)).toEqual([true, false, true, false, true, false, true])
    expect(plainRecallInput(at({}))?.limit).toBe(RECALL_LIMITS.defaultLimit)
  })

  it('a refused input is refused by the operation with the schema\'s own message', async () => {
    const ctx = {} as MemContext // never reached: the input is refused first
    for (const raw of [{repo: '/r', q: 'x'.repeat(RECALL_LIMITS.maxQueryChars + 1)}, {repo: '/r', q: 'x', limit: 0}, {repo: ' ', q: 'x'}, {repo: '/r', q: 'x', type: 'fact'}]) {
      const expected = (() => {
        try {
          parseInput(RecallInput, raw)
        } catch (err) {
          return err
        }
      })()
      expect(expected).toBeInstanceOf(MemError)
      await expect(recall(ctx, raw as never)).rejects.toMatchObject({code: 'invalid_input', message: (expected as MemError).message})
    }
  })
})

describe('stats: the hand-written check (no zod) and StatsInput', () => {
  const statsInputs = fc.oneof(
    fc.record({repo: field(repoValue), extra: fc.dictionary(fc.string({maxLength: 6}), fc.anything(), {maxKeys: 2})}, {requiredKeys: []}).map(({extra, ...known}) => ({...extra, ...known})),
    fc.anything(),
  )

  it('accept and refuse the same inputs, and parse them to the same value', () => {
    let accepted = 0
    fc.assert(
      fc.property(statsInputs, (raw) => {
        const plain = plainStatsInput(raw)
        expect(plain).toStrictEqual(bySchema(StatsInput, raw))
        if (plain) accepted++
      }),
      {numRuns: RUNS},
    )
    expect(accepted).toBeGreaterThan(RUNS / 20)
  })

  it('a refused input is refused by the operation with the schema\'s own message and details', async () => {
    const ctx = {} as MemContext
    await fc.assert(
      fc.asyncProperty(statsInputs.filter((raw) => plainStatsInput(raw) === null), async (raw) => {
        let expected: MemError | undefined
        try {
          parseInput(StatsInput, raw)
        } catch (err) {
          expected = err as MemError
        }
        expect(expected).toBeInstanceOf(MemError)
        await expect(stats(ctx, raw as never)).rejects.toMatchObject({code: 'invalid_input', message: expected!.message, details: expected!.details})
      }),
      {numRuns: 300},
    )
  })
})

describe('mem recall\'s quick path (src/faces/cli/fast.ts) and oclif', () => {
  const oclif = (argv: string[]) => Parser.parse(argv, {args: Recall.args, flags: {...MemCommand.baseFlags, ...Recall.flags}, strict: true})

  it('takes only the limits and types oclif reads the same', async () => {
    const limitArg = fc.oneof(fc.integer({min: -5, max: 1_000}).map(String), fc.stringMatching(/^[-+0-9.e x]{0,11}$/), fc.string({maxLength: 4}))
    const typeArg = fc.oneof(fc.constantFrom(...MEMORY_TYPES), fc.string({maxLength: 9}))
    let taken = 0
    await fc.assert(
      fc.asyncProperty(limitArg, typeArg, async (limit, type) => {
        const argv = ['q', `--limit=${limit}`, `--type=${type}`]
        const fast = parseFast(['recall', ...argv])
        if (!fast) return // oclif answers it, whatever it is
        taken++
        const parsed = await oclif(argv)
        expect(parsed.flags.limit).toBe(Number(fast.call.values.limit))
        expect(parsed.flags.type).toBe(fast.call.values.type)
      }),
      {numRuns: 500},
    )
    expect(taken).toBeGreaterThan(50)
  })

  it('gives oclif\'s default limit, the contract\'s', async () => {
    expect((await oclif(['q'])).flags.limit).toBe(RECALL_LIMITS.defaultLimit)
    expect(Recall.flags.limit.default).toBe(RECALL_LIMITS.defaultLimit)
  })
})
