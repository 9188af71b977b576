/**
 * The quantities a text states: a number (digits, or a number word) and the unit it counts, read as
 * a dimension and a value in that dimension's base unit — "30 days", "a week", "5s", "25 megabytes",
 * "90 percent", "thirty lines", "four-space", "ten calls a second". One limit, timeout, size or count
 * said in other words is one quantity of one dimension: what the same-quantity rule of currency
 * compares (engines/currency/rules.ts). A number without a unit ("Node 20", "port 5173", "pool size
 * is 10") is no quantity here: what it counts is not said.
 */
import {oncePer} from './once.js'

export interface Quantity {
  /** What it measures: `time`, `size`, `percent`, or `count:<thing>` (lines, attempts, connections, …); `rate:<thing>` a count per time. */
  dim: string
  /** In the dimension's base unit (seconds, bytes; a rate per second). */
  value: number
  /** Where it stands in the text's word sequence: its first word and the index after its last. */
  at: number
  end: number
}

const TIME: Record<string, number> = {
  ms: 0.001, millisecond: 0.001, milliseconds: 0.001,
  s: 1, sec: 1, secs: 1, second: 1, seconds: 1,
  min: 60, mins: 60, minute: 60, minutes: 60,
  h: 3600, hr: 3600, hrs: 3600, hour: 3600, hours: 3600,
  d: 86_400, day: 86_400, days: 86_400,
  week: 604_800, weeks: 604_800,
  month: 2_592_000, months: 2_592_000,
  year: 31_536_000, years: 31_536_000,
}
const SIZE: Record<string, number> = {
  b: 1, byte: 1, bytes: 1,
  kb: 1e3, kib: 1024, kilobyte: 1e3, kilobytes: 1e3,
  mb: 1e6, mib: 1024 ** 2, megabyte: 1e6, megabytes: 1e6,
  gb: 1e9, gib: 1024 ** 3, gigabyte: 1e9, gigabytes: 1e9,
  tb: 1e12, tib: 1024 ** 4, terabyte: 1e12, terabytes: 1e12,
}
const PERCENT = new Set(['%', 'percent', 'pct'])
/** Things counted, by the words that name them (one thing, several words). */
const COUNTED: Record<string, readonly string[]> = {
  width: ['character', 'characters', 'char', 'chars', 'column', 'columns', 'col', 'cols'],
  lines: ['line', 'lines'],
  indent: ['space', 'spaces'],
  attempts: ['time', 'times', 'attempt', 'attempts', 'retry', 'retries', 'try', 'tries'],
  approvals: ['approval', 'approvals', 'review', 'reviews', 'reviewer', 'reviewers', 'approver', 'approvers'],
  connections: ['connection', 'connections'],
  items: ['item', 'items', 'result', 'results', 'entry', 'entries', 'record', 'records', 'row', 'rows'],
  requests: ['request', 'requests', 'call', 'calls'],
  workers: ['worker', 'workers', 'thread', 'threads', 'process', 'processes'],
  replicas: ['replica', 'replicas', 'instance', 'instances', 'pod', 'pods'],
}
/** Every dimension a quantity can have: time, size, percent, and a count and a rate of each thing counted. */
export const QUANTITY_DIMENSIONS: readonly string[] = ['time', 'size', 'percent', ...Object.keys(COUNTED).flatMap((thing) => [`count:${thing}`, `rate:${thing}`])]
const COUNTED_BY_WORD = new Map(Object.entries(COUNTED).flatMap(([thing, words]) => words.map((w) => [w, thing] as const)))
/** Words of a unit, for the guards that compare what two texts say besides their quantities. */
export const UNIT_WORDS: ReadonlySet<string> = new Set([...Object.keys(TIME), ...Object.keys(SIZE), ...PERCENT, ...COUNTED_BY_WORD.keys()])

const NUMBER_WORDS: Record<string, number> = {
  one: 1, two: 2, three: 3, four: 4, five: 5, six: 6, seven: 7, eight: 8, nine: 9, ten: 10, eleven: 11, twelve: 12,
  fifteen: 15, twenty: 20, thirty: 30, forty: 40, fifty: 50, sixty: 60, ninety: 90, hundred: 100, thousand: 1000,
  single: 1, double: 2, twice: 2,
}
export const NUMBER_WORD_SET: ReadonlySet<string> = new Set(Object.keys(NUMBER_WORDS))
/** "a week", "an hour": one of a time unit (not after a count: "ten calls a minute" is a rate). */
const ONE_OF = new Set(['a', 'an'])
/** What makes a count a rate: "100 requests per minute", "ten calls a second". */
const PER = new Set(['per', 'a', 'an', 'each', 'every', '/'])

/** A number written in digits (with a decimal part, thousands commas) or as a word. */
function numberOf(word: string): number | null {
  if (/^\d{1,3}(,\d{3})+$/.test(word)) return Number(word.replace(/,/g, ''))
  if (/^\d+(\.\d+)?$/.test(word)) return Number(word)
  return NUMBER_WORDS[word] ?? null
}

/** A number with its unit in one word: "5s", "25MB", "80%", "500ms", "four-space". */
function joined(word: string): {n: number; unit: string} | null {
  const m = /^(\d+(?:\.\d+)?)-?([a-z%]+)$/.exec(word) ?? /^([a-z]+)-([a-z]+)$/.exec(word)
  if (!m) return null
  const n = numberOf(m[1])
  return n === null ? null : {n, unit: m[2]}
}

/** The unit a word names, as a dimension and a factor: null for a word that is no unit. */
function unitOf(word: string): {dim: string; factor: number} | null {
  if (word in TIME) return {dim: 'time', factor: TIME[word]}
  if (word in SIZE) return {dim: 'size', factor: SIZE[word]}
  if (PERCENT.has(word)) return {dim: 'percent', factor: 1}
  const thing = COUNTED_BY_WORD.get(word)
  return thing ? {dim: `count:${thing}`, factor: 1} : null
}

/** Units that count on their own as one word after a number, but are easily other words: "s", "d", "h", "b". */
const LETTER_UNITS = new Set(['s', 'd', 'h', 'b'])

/**
 * The quantities of a text's word sequence (values.ts `sequence`), in order. A number is a quantity
 * when its unit follows it (the next word, or the one after an adjective: "one approving review"),
 * or is written with it ("5s"); "a week" is one week; a count followed by "per minute" / "a second"
 * is a rate.
 */
export const quantitiesIn: (sequence: readonly string[]) => readonly Quantity[] = oncePer(readQuantities)

function readQuantities(sequence: readonly string[]): Quantity[] {
  const words = sequence.map((w) => w.toLowerCase())
  const out: Quantity[] = []
  for (let i = 0; i < words.length; i++) {
    let n: number | null = null
    let unit: {dim: string; factor: number} | null = null
    let end = i + 1
    const one = joined(words[i])
    if (one) {
      n = one.n
      unit = unitOf(one.unit)
    } else {
      n = numberOf(words[i])
      // "a second" is as often the ordinal ("a second attempt") as a duration
      if (n === null && ONE_OF.has(words[i]) && words[i + 1] in TIME && words[i + 1] !== 'second' && (i === 0 || !COUNTED_BY_WORD.has(words[i - 1]))) n = 1
      if (n === null) continue
      for (const j of [i + 1, i + 2]) {
        const w = words[j]
        if (w === undefined || (LETTER_UNITS.has(w) && j === i + 2)) break
        if (LETTER_UNITS.has(w) && !/^\d/.test(words[i])) break
        unit = unitOf(w)
        if (unit) {
          end = j + 1
          break
        }
      }
    }
    if (!unit) continue
    let {dim} = unit
    let value = n * unit.factor
    // a count per time: "100 requests per minute", "ten calls a second"
    const per = words[end] !== undefined && PER.has(words[end]) ? TIME[words[end + 1]] : undefined
    if (dim.startsWith('count:') && per !== undefined) {
      dim = `rate:${dim.slice('count:'.length)}`
      value /= per
      end += 2
    }
    out.push({dim, value, at: i, end})
    i = end - 1
  }
  return out
}
