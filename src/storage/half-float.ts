/**
 * IEEE 754 half precision (binary16), for the meaning vectors the store keeps (storage/vectors.ts):
 * a memory's vector is a unit vector, whose numbers lose nothing a cosine needs in 16 bits (11 of
 * precision: the cosine of two stored vectors moves by ~1e-4 at most), and a row of 512 of them
 * then fits three to a database page instead of one (4 KiB pages: a 2 KiB row leaves the rest of
 * its page empty). Node 20 has no Float16Array; this is the conversion, rounding to nearest, ties
 * to even, as the hardware does.
 */

const f32 = new Float32Array(1)
const u32 = new Uint32Array(f32.buffer)

/** The binary16 bits nearest `x` (ties to even; beyond its range, ±Infinity; NaN stays NaN). */
export function toHalf(x: number): number {
  f32[0] = x
  const bits = u32[0]
  const sign = (bits >>> 16) & 0x8000
  const exponent = (bits >>> 23) & 0xff
  let mantissa = bits & 0x7fffff
  if (exponent === 0xff) return sign | 0x7c00 | (mantissa !== 0 ? 0x200 : 0)
  const e = exponent - 127 + 15
  if (e >= 0x1f) return sign | 0x7c00
  if (e <= 0) {
    // a subnormal half (or zero): the implicit bit made explicit, shifted into place
    if (e < -10) return sign
    mantissa |= 0x800000
    const shift = 14 - e
    const half = mantissa >>> shift
    const rest = mantissa & ((1 << shift) - 1)
    const tie = 1 << (shift - 1)
    return sign | (rest > tie || (rest === tie && (half & 1) === 1) ? half + 1 : half)
  }
  const half = (e << 10) | (mantissa >>> 13)
  const rest = mantissa & 0x1fff
  // rounding up may carry into the exponent (to the next power of two, or to Infinity): as it should
  return sign | (rest > 0x1000 || (rest === 0x1000 && (half & 1) === 1) ? half + 1 : half)
}

let table: Float32Array | undefined

/** Every binary16 bit pattern's value (made once: 256 KiB). */
function halfTable(): Float32Array {
  if (table) return table
  const t = new Float32Array(0x10000)
  for (let h = 0; h < 0x10000; h++) {
    const sign = h & 0x8000 ? -1 : 1
    const e = (h >>> 10) & 0x1f
    const m = h & 0x3ff
    t[h] = e === 0 ? sign * m * 2 ** -24 : e === 0x1f ? (m === 0 ? sign * Infinity : NaN) : sign * (1 + m / 1024) * 2 ** (e - 15)
  }
  table = t
  return t
}

/** The value of the binary16 bits `h`. */
export function fromHalf(h: number): number {
  return halfTable()[h & 0xffff]
}

/** Float32 numbers as little-endian binary16 bytes. */
export function halfBytes(v: Float32Array): Uint8Array {
  const out = new Uint8Array(v.length * 2)
  for (let i = 0; i < v.length; i++) {
    const h = toHalf(v[i])
    out[i * 2] = h & 0xff
    out[i * 2 + 1] = h >>> 8
  }
  return out
}

/** Little-endian binary16 bytes as Float32 numbers, written into `into` at `at` (a new array without one). */
export function halfVector(b: Uint8Array, into?: Float32Array, at = 0): Float32Array {
  const n = b.byteLength >>> 1
  const out = into ?? new Float32Array(n)
  const t = halfTable()
  for (let i = 0; i < n; i++) out[at + i] = t[b[i * 2] | (b[i * 2 + 1] << 8)]
  return out
}
