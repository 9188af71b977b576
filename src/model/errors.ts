/**
 * The one error type of mem and the table of its codes. Every face maps a MemError the same way:
 * the CLI to an exit code, HTTP to a status, MCP to a tool error. Anything else is a bug.
 * This module imports nothing from src so that every layer may use it.
 */

export const ERROR_CODES = {
  invalid_input: {status: 400, exit: 2},
  unauthorized: {status: 401, exit: 77},
  forbidden: {status: 403, exit: 77},
  not_found: {status: 404, exit: 3},
  conflict: {status: 409, exit: 4},
  payload_too_large: {status: 413, exit: 2},
  unprocessable: {status: 422, exit: 5},
  unavailable: {status: 503, exit: 69},
  internal: {status: 500, exit: 70},
} as const

export type ErrorCode = keyof typeof ERROR_CODES

export interface MemErrorOptions {
  hint?: string
  details?: unknown
  cause?: unknown
}

export class MemError extends Error {
  readonly code: ErrorCode
  readonly hint?: string
  readonly details?: unknown

  constructor(code: ErrorCode, message: string, options: MemErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : {cause: options.cause})
    this.name = 'MemError'
    this.code = code
    this.hint = options.hint
    this.details = options.details
  }

  get status(): number {
    return ERROR_CODES[this.code].status
  }

  get exitCode(): number {
    return ERROR_CODES[this.code].exit
  }
}

export interface ErrorBody {
  error: string
  code: ErrorCode
  hint?: string
  details?: unknown
}

/** The body every face shows for an error. A non-MemError is a bug: its message is never shown. */
export function errorBody(err: unknown): ErrorBody {
  if (err instanceof MemError) {
    const body: ErrorBody = {error: err.message, code: err.code}
    if (err.hint) body.hint = err.hint
    if (err.details !== undefined) body.details = err.details
    return body
  }
  return {
    error: 'Internal error: this is a bug in mem.',
    code: 'internal',
    hint: 'Run again with DEBUG=mem to see the stack, and report it.',
  }
}

/** A command's exit code for an error: the MemError's, else 70 (a bug). */
export function exitCodeOf(err: unknown): number {
  return err instanceof MemError ? err.exitCode : 70
}

/** A command's stderr for an error body, without --json. */
export function errorText(body: ErrorBody): string {
  return `Error: ${body.error}\n${body.hint ? `Hint: ${body.hint}\n` : ''}`
}

const SYSTEM_REASONS: Record<string, string> = {
  EACCES: 'permission denied',
  EPERM: 'not permitted',
  EROFS: 'the file system is read-only',
  ENOSPC: 'the disk is full',
  EDQUOT: 'the disk quota is used up',
  ENOENT: 'it does not exist',
  ENOTDIR: 'a part of the path is not a folder',
  EISDIR: 'it is a folder',
  ENAMETOOLONG: 'the name is too long',
  EMFILE: 'too many open files',
  EBUSY: 'it is busy',
  ELOCKED: 'another process holds the lock',
  EIO: 'an input/output error',
  ECONNREFUSED: 'the connection was refused',
  ECONNRESET: 'the connection was reset',
  ENOTFOUND: 'the host name is unknown',
  ETIMEDOUT: 'it timed out',
}

/**
 * Why a system call failed, in words (`permission denied`), never a raw code (`EACCES`): messages
 * reach people and HTTP clients. The code stays on the error's `cause` for DEBUG=mem.
 */
export function systemReason(err: unknown): string {
  const code = (err as {code?: unknown})?.code
  return (typeof code === 'string' && SYSTEM_REASONS[code]) || 'a system error'
}

export function isMemError(err: unknown): err is MemError {
  return err instanceof MemError
}
