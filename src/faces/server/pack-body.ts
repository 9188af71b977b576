/**
 * The body of `POST /api/mem/packs/import` without three copies of the pack in memory. The spec's
 * body is JSON `{repo, data}` with the pack in base64 (up to 85 MB of text): parsed as usual it is
 * held as the raw body, as a JavaScript string and as the decoded bytes at once. Here the raw body
 * is scanned for the top-level `data` string, which is decoded from the raw bytes a slice at a time
 * (no string of its size is ever made), and only the rest of the object goes through the JSON
 * parser (with its prototype-poisoning checks). The route also takes the pack as raw bytes
 * (`Content-Type: application/octet-stream`, `?repo=`), which costs one copy.
 */
import {MemError} from '../../model/errors.js'

/** Base64 characters decoded per slice: a multiple of 4, small beside the pack. */
const SLICE_CHARS = 4 * 1024 * 1024

const QUOTE = 0x22
const BACKSLASH = 0x5c

function isSpace(b: number): boolean {
  return b === 0x20 || b === 0x09 || b === 0x0a || b === 0x0d
}

/** The index just past the JSON string that starts at `i` (a quote), or -1 when it does not end. */
function skipString(buf: Buffer, i: number): number {
  for (let j = i + 1; j < buf.length; j++) {
    const b = buf[j]
    if (b === BACKSLASH) j++
    else if (b === QUOTE) return j + 1
  }
  return -1
}

/**
 * Where the top-level `"data"` string's characters are (between its quotes), when the body is an
 * object whose `data` is a string without escapes; else undefined (the caller parses it whole).
 */
export function findDataString(buf: Buffer): {start: number; end: number} | undefined {
  let i = 0
  while (i < buf.length && isSpace(buf[i])) i++
  if (buf[i] !== 0x7b) return undefined // not an object
  let depth = 0
  let expectKey = false
  for (; i < buf.length; i++) {
    const b = buf[i]
    if (b === QUOTE) {
      const end = skipString(buf, i)
      if (end < 0) return undefined
      if (depth === 1 && expectKey && end - i === 6 && buf.toString('latin1', i + 1, end - 1) === 'data') {
        let k = end
        while (k < buf.length && isSpace(buf[k])) k++
        if (buf[k] !== 0x3a) return undefined
        k++
        while (k < buf.length && isSpace(buf[k])) k++
        if (buf[k] !== QUOTE) return undefined // data is not a string: the validation says so
        const close = skipString(buf, k)
        if (close < 0) return undefined
        const start = k + 1
        const stop = close - 1
        if (buf.indexOf(BACKSLASH, start) !== -1 && buf.indexOf(BACKSLASH, start) < stop) return undefined
        return {start, end: stop}
      }
      expectKey = false
      i = end - 1
    } else if (b === 0x7b || b === 0x5b) {
      depth++
      if (depth === 1) expectKey = true
    } else if (b === 0x7d || b === 0x5d) {
      depth--
    } else if (b === 0x2c && depth === 1) {
      expectKey = true
    }
  }
  return undefined
}

const BASE64 = /^[A-Za-z0-9+/]*$/

/** Decodes base64 characters buf[start, end) into bytes, a slice at a time. */
export function decodeBase64Slice(buf: Buffer, start: number, end: number): Uint8Array {
  let stop = end
  let pad = 0
  while (stop > start && buf[stop - 1] === 0x3d && pad < 2) {
    stop--
    pad++
  }
  const chars = stop - start
  if ((chars + pad) % 4 === 1 || (pad > 0 && (chars + pad) % 4 !== 0)) throw notBase64()
  const out = Buffer.allocUnsafe(Math.floor((chars * 3) / 4))
  let written = 0
  for (let at = start; at < stop; at += SLICE_CHARS) {
    const text = buf.toString('latin1', at, Math.min(stop, at + SLICE_CHARS))
    if (!BASE64.test(text)) throw notBase64()
    written += Buffer.from(text, 'base64').copy(out, written)
  }
  return out.subarray(0, written)
}

function notBase64(): MemError {
  return new MemError('invalid_input', 'Invalid data: it is not base64.', {hint: 'Send the .mem file base64-encoded (e.g. `base64 -w0 app.mem`).'})
}

/**
 * Parses the JSON body of a pack import: the object with `data` decoded to bytes when it is a
 * plain base64 string; otherwise the whole body through `parseJson` (validation then names what is
 * wrong). `parseJson` is the server's JSON parser for the rest.
 */
export function parsePackBody(buf: Buffer, parseJson: (text: string) => unknown): unknown {
  const found = findDataString(buf)
  if (!found) return parseJson(buf.toString('utf8'))
  const rest = parseJson(`${buf.toString('utf8', 0, found.start - 1)}""${buf.toString('utf8', found.end + 1)}`)
  if (!rest || typeof rest !== 'object' || Array.isArray(rest)) return rest
  return {...(rest as object), data: decodeBase64Slice(buf, found.start, found.end)}
}

/**
 * Reads a request body into one buffer of its declared length (no list of chunks joined at the
 * end, which holds the body twice), refusing more than `limit` bytes: a Content-Length over it at
 * once, a body that grows past it as it comes.
 */
export function readBody(payload: NodeJS.ReadableStream, declared: string | undefined, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const tooLarge = () =>
      new MemError('payload_too_large', `The request body is larger than ${formatMb(limit)} MB.`, {
        hint: limit > 1024 * 1024 ? 'Split the data: export smaller packs (fewer memories each).' : 'Memories are short texts (16,000 characters at most).',
      })
    const length = declared !== undefined && /^\d+$/.test(declared) ? Number(declared) : undefined
    // what is refused is drained, not kept (and the connection stays up for the answer)
    const refuse = (err: MemError) => {
      payload.removeAllListeners('data')
      payload.on('data', () => undefined)
      payload.resume?.()
      reject(err)
    }
    if (length !== undefined && length > limit) {
      refuse(tooLarge())
      return
    }
    let buf = Buffer.allocUnsafe(length ?? Math.min(limit, 64 * 1024))
    let received = 0
    payload.on('data', (chunk: Buffer) => {
      if (received + chunk.length > limit) {
        refuse(tooLarge())
        return
      }
      if (received + chunk.length > buf.length) {
        if (length !== undefined) {
          refuse(new MemError('invalid_input', 'The request body does not match its Content-Length.'))
          return
        }
        const grown = Buffer.allocUnsafe(Math.min(limit, Math.max(buf.length * 2, received + chunk.length)))
        buf.copy(grown, 0, 0, received)
        buf = grown
      }
      chunk.copy(buf, received)
      received += chunk.length
    })
    payload.on('end', () => {
      if (length !== undefined && received !== length) reject(new MemError('invalid_input', 'The request body does not match its Content-Length.'))
      else resolve(buf.subarray(0, received))
    })
    payload.on('error', (err) => reject(err))
  })
}

function formatMb(bytes: number): string {
  const mb = bytes / 1024 / 1024
  return Number.isInteger(mb) ? String(mb) : mb.toFixed(1)
}
