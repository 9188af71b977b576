/**
 * Request ids (idempotency keys) of team-mode writes: the HTTP and MCP faces run a write call
 * inside `withRequestId`, and every write job the call queues takes the next id of it (the id,
 * then `id#2`, `id#3`, … for a call that writes more than once). A replica keeps a job's id on its
 * ops row (unique per repo) with the job's answer, so the same call sent again is answered with
 * the first answer and writes nothing (storage/postgres/replica-log.ts). The file store ignores them.
 */
import {AsyncLocalStorage} from 'node:async_hooks'
import {MemError} from '../model/errors.js'
import {checkRequestId} from '../model/team-names.js'

/** The HTTP header a write names itself in (the client's IDEMPOTENCY_HEADER), lowercased as Node gives headers. */
export const REQUEST_ID_HEADER = 'idempotency-key'

/** The request id a write was sent with, checked (400 for one that is no id); undefined without one. */
export function requestIdOf(value: string | string[] | undefined): string | undefined {
  if (value === undefined) return undefined
  if (Array.isArray(value)) throw new MemError('invalid_input', 'The Idempotency-Key header is given more than once.', {hint: 'Send one request id per write.'})
  return checkRequestId(value)
}

const scope = new AsyncLocalStorage<{id: string; n: number}>()

/** Runs `fn` as the call named `id` (no id: as a call without one). */
export function withRequestId<T>(id: string | undefined, fn: () => T): T {
  return id ? scope.run({id, n: 0}, fn) : fn()
}

/** The request id of the next write job queued by the current call; undefined outside one. */
export function nextRequestId(): string | undefined {
  const s = scope.getStore()
  if (!s) return undefined
  s.n++
  return s.n === 1 ? s.id : `${s.id}#${s.n}`
}
