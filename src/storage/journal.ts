import {closeSync, fstatSync, fsyncSync, ftruncateSync, readSync, writeSync} from 'node:fs'
import {openInMem} from './mem-dir.js'
import {crc32} from 'node:zlib'
import {MemError} from '../model/errors.js'

/**
 * The append-only journal of committed mutations that sits in front of the snapshot.
 *
 * Layout: a header line `mem-journal <format> <generation>`, then one record per line:
 * `<byte length> <crc32 hex> <json>`. A record is acknowledged only after it is appended and
 * fsync'd. A last line that is incomplete or fails its checksum is a torn write from a crash and
 * is dropped; a bad line followed by good ones is corruption and is reported, never repaired.
 */

export const JOURNAL_FORMAT = 1
const HEADER_PREFIX = 'mem-journal '

export interface JournalHeader {
  format: number
  generation: string
  bytes: number
}

export function encodeHeader(generation: string): Buffer {
  return Buffer.from(`${HEADER_PREFIX}${JOURNAL_FORMAT} ${generation}\n`)
}

export function encodeRecord(record: unknown): Buffer {
  const json = Buffer.from(JSON.stringify(record))
  const crc = crc32(json).toString(16).padStart(8, '0')
  return Buffer.concat([Buffer.from(`${json.length} ${crc} `), json, Buffer.from('\n')])
}

/** Reads `length` bytes at `position` from an open file. */
export function readRange(fd: number, position: number, length: number): Buffer {
  const buf = Buffer.allocUnsafe(length)
  let read = 0
  while (read < length) {
    const n = readSync(fd, buf, read, length - read, position + read)
    if (n === 0) break
    read += n
  }
  return buf.subarray(0, read)
}

export function parseHeader(fd: number, path: string): JournalHeader | null {
  const head = readRange(fd, 0, 256)
  if (head.length === 0) return null
  const nl = head.indexOf(10)
  if (nl < 0) return null // header still being written by its creator, or torn: treated as absent
  const line = head.subarray(0, nl).toString('utf8')
  const m = /^mem-journal (\d+) ([A-Za-z0-9-]+)$/.exec(line)
  if (!m) {
    throw new MemError('unavailable', `The journal ${path} does not start with a mem journal header; it is corrupt or not mem's.`, {
      hint: 'It was left untouched. Move it aside to open the store from its last snapshot (changes since then are in that file).',
    })
  }
  const format = Number(m[1])
  if (format > JOURNAL_FORMAT) {
    throw new MemError('unavailable', `The journal ${path} has format ${format}, newer than this mem understands (${JOURNAL_FORMAT}).`, {
      hint: 'Upgrade mem. The journal was left untouched.',
    })
  }
  return {format, generation: m[2], bytes: nl + 1}
}

export interface ReadResult<R> {
  records: R[]
  /** Offset just past the last complete, valid record. */
  end: number
  /** Bytes after `end` that do not form a valid record (a torn tail, or a write in progress). */
  trailing: number
}

/** Reads the records between `from` and the end of the file. */
export function readRecords<R>(fd: number, from: number, path: string): ReadResult<R> {
  const size = fstatSync(fd).size
  if (size <= from) return {records: [], end: from, trailing: 0}
  const buf = readRange(fd, from, size - from)
  const records: R[] = []
  let pos = 0
  while (pos < buf.length) {
    const nl = buf.indexOf(10, pos)
    if (nl < 0) break // incomplete last line
    const parsed = parseLine(buf.subarray(pos, nl))
    if (parsed === undefined) {
      if (nl + 1 >= buf.length) break // a bad final line: torn write
      throw new MemError('unavailable', `The journal ${path} is corrupt at byte ${from + pos}: a record fails its checksum but more records follow.`, {
        hint: 'It was left untouched for inspection. Restore it from a backup, or move it aside to open the store from its last snapshot.',
      })
    }
    records.push(parsed as R)
    pos = nl + 1
  }
  return {records, end: from + pos, trailing: buf.length - pos}
}

function parseLine(line: Buffer): unknown | undefined {
  const s1 = line.indexOf(32)
  if (s1 < 0) return undefined
  const s2 = line.indexOf(32, s1 + 1)
  if (s2 < 0) return undefined
  const length = Number(line.subarray(0, s1).toString('latin1'))
  const crc = line.subarray(s1 + 1, s2).toString('latin1')
  const json = line.subarray(s2 + 1)
  if (!Number.isInteger(length) || json.length !== length) return undefined
  if (crc32(json).toString(16).padStart(8, '0') !== crc) return undefined
  try {
    return JSON.parse(json.toString('utf8'))
  } catch {
    return undefined
  }
}

/** Appends bytes and fsyncs them; on failure, cuts the file back so no partial record remains. */
export function appendDurably(fd: number, at: number, bytes: Buffer): void {
  try {
    let written = 0
    while (written < bytes.length) written += writeSync(fd, bytes, written, bytes.length - written, at + written)
    fsyncSync(fd)
  } catch (err) {
    try {
      ftruncateSync(fd, at)
    } catch {
      /* the torn tail is dropped by the next writer */
    }
    throw err
  }
}

export function openJournal(path: string, flags: 'r' | 'r+'): number {
  return openInMem(path, flags)
}

export function closeQuietly(fd: number | undefined): void {
  if (fd === undefined) return
  try {
    closeSync(fd)
  } catch {
    /* already closed */
  }
}
