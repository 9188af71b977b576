import {nodeCrypto} from '../model/lazy-require.js'
import {closeSync, fsyncSync, openSync, renameSync, statSync, writeSync} from 'node:fs'
import {openInMem} from './mem-dir.js'
import {join} from 'node:path'
import {MemError, systemReason} from '../model/errors.js'

/** Writes `bytes` to `path` all or nothing: a fsync'd temp file renamed over it, then the folder fsync'd. */
export function writeAtomic(path: string, bytes: Uint8Array): void {
  const tmp = `${path}.${nodeCrypto().randomBytes(6).toString('hex')}.tmp`
  // a fresh name, opened exclusively and without following a link (mem-dir.ts); the rename then
  // replaces whatever `path` was, a link included, and never writes through it
  const fd = openInMem(tmp, 'wx')
  try {
    let written = 0
    while (written < bytes.length) written += writeSync(fd, bytes, written, bytes.length - written)
    fsyncSync(fd)
  } finally {
    closeSync(fd)
  }
  renameSync(tmp, path)
  const dirFd = openSync(join(path, '..'), 'r')
  try {
    fsyncSync(dirFd)
  } finally {
    closeSync(dirFd)
  }
}

/** True when `path` is a regular file (a missing path, a folder or one that cannot be read: false). */
export function isFile(path: string): boolean {
  try {
    return statSync(path).isFile()
  } catch {
    return false
  }
}

/** Below this a buffer is left to the garbage collector. */
const RELEASE_MIN_BYTES = 1 << 20

/**
 * Frees the memory of a large buffer now, not at V8's next major collection, which may come much
 * later: a checkpoint's copy of the database (~130 MB at 100k memories) lingered until the next one
 * and then coincided with the store's own file growing, the pipeline's memory peak. The caller
 * owns the whole ArrayBuffer under `bytes` (nothing else may use it); small buffers, and views not
 * at its start (as Node's shared pool hands out), are left alone. `bytes` is empty afterwards. ArrayBuffer.prototype.transfer frees at once; without it (Node 20) the buffer
 * is moved into a closed MessageChannel, which frees it at the next turn of the event loop.
 */
export function releaseBuffer(bytes: ArrayBufferView): void {
  const buffer = bytes.buffer
  if (!(buffer instanceof ArrayBuffer) || bytes.byteOffset !== 0 || buffer.byteLength < RELEASE_MIN_BYTES) return
  const transfer = (buffer as ArrayBuffer & {transfer?: (length?: number) => ArrayBuffer}).transfer
  if (typeof transfer === 'function') {
    transfer.call(buffer, 0)
    return
  }
  const {port1, port2} = new MessageChannel()
  try {
    port1.postMessage(null, [buffer])
  } finally {
    port1.close()
    port2.close()
  }
}

/** The error for a store file that exists but cannot be read: named, and left untouched. */
export function unreadableFile(path: string, err: unknown): MemError {
  if (err instanceof MemError) return err
  return new MemError('unavailable', `Cannot read ${path}: ${systemReason(err)}.`, {
    hint: 'The file was left untouched. Check its permissions, or restore it from a backup.',
    cause: err,
  })
}
