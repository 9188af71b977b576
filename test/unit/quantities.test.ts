// What text/quantities.ts reads as a quantity (a number and the unit it counts) and what it does not.
import {describe, expect, it} from 'vitest'
import {quantitiesIn} from '../../src/text/quantities.js'
import {factShape} from '../../src/text/values.js'

const read = (text: string) => quantitiesIn(factShape(text).sequence).map(({dim, value}) => ({dim, value}))

describe('quantities', () => {
  it('reads digits, number words, units joined to the number and "a week" alike, in base units', () => {
    expect(read('Logs are kept for 30 days')).toEqual([{dim: 'time', value: 30 * 86_400}])
    expect(read('We retain log data for a week')).toEqual([{dim: 'time', value: 7 * 86_400}])
    expect(read('Upstream calls give up after 5s')).toEqual([{dim: 'time', value: 5}])
    expect(read('The HTTP client timeout is 30000 ms')).toEqual([{dim: 'time', value: 30}])
    expect(read('The maximum attachment size is 25 megabytes')).toEqual([{dim: 'size', value: 25e6}])
    expect(read('Uploads are capped at 10 MB')).toEqual([{dim: 'size', value: 10e6}])
    expect(read('Coverage must stay above 80%')).toEqual([{dim: 'percent', value: 80}])
    expect(read('CI fails when test coverage drops below 90 percent')).toEqual([{dim: 'percent', value: 90}])
    expect(read('A function longer than thirty lines should be split')).toEqual([{dim: 'count:lines', value: 30}])
    expect(read('Use four-space indentation')).toEqual([{dim: 'count:indent', value: 4}])
  })

  it('counts one thing under its several names, and a count per time as a rate', () => {
    expect(read('The line length limit is 80 characters')).toEqual([{dim: 'count:width', value: 80}])
    expect(read('Wrap code at 100 columns')).toEqual([{dim: 'count:width', value: 100}])
    expect(read('Pull requests need one approving review')).toEqual([{dim: 'count:approvals', value: 1}])
    expect(read('Two approvals are required')).toEqual([{dim: 'count:approvals', value: 2}])
    expect(read('The public API allows 100 requests per minute per key')).toEqual([{dim: 'rate:requests', value: 100 / 60}])
    expect(read('Clients are throttled at ten calls a second')).toEqual([{dim: 'rate:requests', value: 10}])
  })

  it('reads no quantity in a number whose unit is not said: versions, ports, sizes of what is not named', () => {
    for (const text of ['Requires Node.js 20 or newer', 'Build with Go 1.22', 'The web app runs on port 5173', 'The database connection pool size is 10', 'Retry with a backoff', 'It is a second attempt at this'])
      expect(read(text), text).toEqual([])
  })

  it('reads each quantity of a text of several', () => {
    expect(read('Retry three times, waiting 5 seconds between attempts')).toEqual([
      {dim: 'count:attempts', value: 3},
      {dim: 'time', value: 5},
    ])
  })
})
