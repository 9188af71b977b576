import {randomBytes} from 'node:crypto'
import {closeSync, fsyncSync, openSync, renameSync, writeSync} from 'node:fs'
import {join} from 'node:path'

/** Writes `bytes` to `path` all or nothing: a fsync'd temp file renamed over it, then the folder fsync'd. */
export function writeAtomic(path: string, bytes: Uint8Array): void {
  const tmp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`
  const fd = openSync(tmp, 'w')
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
