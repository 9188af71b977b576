// Binary16 for the stored meaning vectors (storage/half-float.ts): every half value round-trips, and
// a Float32 number becomes the nearest half (ties to even), as the hardware rounds.
import fc from 'fast-check'
import {describe, expect, it} from 'vitest'
import {fromHalf, halfBytes, halfVector, toHalf} from '../../src/storage/half-float.js'

describe('binary16', () => {
  it('every one of the 65,536 bit patterns reads as its value and writes back as itself (NaNs as a NaN)', () => {
    for (let h = 0; h < 0x10000; h++) {
      const x = fromHalf(h)
      if (Number.isNaN(x)) {
        expect((h & 0x7c00) === 0x7c00 && (h & 0x3ff) !== 0).toBe(true)
        expect(Number.isNaN(fromHalf(toHalf(x)))).toBe(true)
      } else expect(toHalf(x), `0x${h.toString(16)}`).toBe(h)
    }
    // a few values by hand: 1, -2, the largest, the smallest subnormal, 65520 rounds up to Infinity
    expect([toHalf(1), toHalf(-2), toHalf(65504), toHalf(2 ** -24), toHalf(65520), toHalf(-0)]).toEqual([0x3c00, 0xc000, 0x7bff, 0x0001, 0x7c00, 0x8000])
  })

  it('a Float32 number becomes the nearest half, ties to the even one', () => {
    fc.assert(
      fc.property(fc.float({min: -70000, max: 70000, noNaN: true}), (x) => {
        const h = toHalf(x)
        const got = fromHalf(h)
        if (!Number.isFinite(got)) return Math.abs(x) >= 65520
        // no finite half is nearer (the neighbours on either side)
        for (const other of [h - 1, h + 1, h ^ 0x8000]) {
          const y = fromHalf(other & 0xffff)
          if (!Number.isFinite(y) || Number.isNaN(y)) continue
          const d = Math.abs(y - x) - Math.abs(got - x)
          if (d < 0) return false
          if (d === 0 && (h & 1) === 1) return false // a tie goes to the even pattern
        }
        return true
      }),
      {numRuns: 20_000},
    )
    // halfway between 1 and the next half (1 + 2^-10): to 1, the even one; just above: up
    expect(toHalf(1 + 2 ** -11)).toBe(0x3c00)
    expect(toHalf(1 + 2 ** -11 + 2 ** -20)).toBe(0x3c01)
    expect(toHalf(1 + 3 * 2 ** -11)).toBe(0x3c02)
  })

  it('a unit vector of 512 numbers keeps its cosines with others to within 1e-3 through bytes and back', () => {
    const unit = (seed: number) => {
      const v = Float32Array.from({length: 512}, (_, i) => Math.sin(seed * 13.7 + i * 0.31) * Math.cos(i * seed))
      const n = Math.hypot(...v)
      return v.map((x) => x / n)
    }
    const dot = (a: Float32Array, b: Float32Array) => a.reduce((s, x, k) => s + x * b[k], 0)
    for (let s = 1; s < 20; s++) {
      const [a, b] = [unit(s), unit(s + 0.5)]
      const [ha, hb] = [halfVector(halfBytes(a)), halfVector(halfBytes(b))]
      expect(Math.abs(dot(ha, hb) - dot(a, b))).toBeLessThan(1e-3)
      expect(Math.abs(dot(ha, a) - 1)).toBeLessThan(1e-3)
    }
    // written into a matrix at a row
    const into = new Float32Array(1024)
    halfVector(halfBytes(unit(3)), into, 512)
    expect(into.subarray(0, 512).every((x) => x === 0)).toBe(true)
    expect([...into.subarray(512)]).toEqual([...halfVector(halfBytes(unit(3)))])
  })
})
