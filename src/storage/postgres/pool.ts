/**
 * The connection to a team store's Postgres: a `pg` pool, and the one mapping of the driver's
 * failures to MemErrors. Messages name the database by its masked URL (never the password) and
 * never carry the driver's own text, which may quote data.
 */
import type {Pool, PoolClient} from 'pg'
import {MemError} from '../../model/errors.js'

export interface PgOptions {
  /** The URL as given (it may hold a password: it goes to the driver only). */
  url: string
  /** The URL with the password masked: what messages say. */
  shown: string
  /** Connections this pool may hold (default 10). */
  max?: number
  /** How long connecting may take before the store counts as unreachable (default 5,000 ms). */
  connectTimeoutMs?: number
  /** `application_name` as Postgres lists it in pg_stat_activity. */
  applicationName?: string
}

/** An open team store connection: the pool, and how to name the database in messages. */
export interface PgHandle {
  readonly pool: Pool
  readonly shown: string
  /**
   * Runs `fn` in one transaction on one connection; rolls back when it throws. Errors come out
   * mapped. The connections pipeline (node-postgres `pipeline: true`): BEGIN is sent with `fn`'s
   * first statement, and statements `fn` hands to `tx.withCommit` (sent, not awaited) go out with
   * the COMMIT, in one round trip; an error in one of them rolls the transaction back.
   */
  transaction<T>(fn: (client: PoolClient, tx: TransactionTail) => Promise<T>): Promise<T>
  /** One statement on any connection, its errors mapped. */
  query<R extends Record<string, unknown> = Record<string, unknown>>(text: string, values?: unknown[]): Promise<R[]>
  /**
   * A connection of its own (for a session-level advisory lock): `done` gives it back (with the
   * error that broke it, if one did, so the pool drops it).
   */
  checkout(): Promise<{client: PoolClient; done(broken?: unknown): void}>
  /** A driver failure as the MemError every face shows (see pgError). */
  error(err: unknown): MemError
  close(): Promise<void>
}

/** What a transaction's body may send to ride with its COMMIT. */
export interface TransactionTail {
  /** A statement already sent (not awaited): the COMMIT follows it on the wire; its failure fails the transaction. */
  withCommit(sent: Promise<unknown>): void
}

export async function openPg(options: PgOptions): Promise<PgHandle> {
  const {default: pg} = await import('pg')
  const pool = new pg.Pool({
    connectionString: options.url,
    max: options.max ?? 10,
    connectionTimeoutMillis: options.connectTimeoutMs ?? 5_000,
    application_name: options.applicationName ?? 'mem',
    // statements sent without waiting for the one before go out together (node-postgres ≥ 8.21):
    // a write transaction's BEGIN rides with its first statement, its last statement with COMMIT
    pipeline: true,
  })
  // An idle connection that dies (Postgres restarted, killed) is dropped from the pool by the
  // driver; without a listener its 'error' event would end the process.
  pool.on('error', () => {})
  const shown = options.shown
  // A connection that dies while checked out (its backend terminated, Postgres stopped) emits
  // 'error' with no listener of the pool's on it: the statement in flight fails with it anyway.
  const ignore = () => {}
  async function checkout(): Promise<{client: PoolClient; done(broken?: unknown): void}> {
    let client: PoolClient
    try {
      client = await pool.connect()
    } catch (err) {
      throw pgError(err, shown)
    }
    client.on('error', ignore)
    let given = false
    return {
      client,
      done(broken?: unknown) {
        if (given) return
        given = true
        client.removeListener('error', ignore)
        client.release(broken === undefined ? undefined : broken instanceof Error ? broken : new Error('connection broken'))
      },
    }
  }
  const handle: PgHandle = {
    pool,
    shown,
    async query<R extends Record<string, unknown>>(text: string, values?: unknown[]): Promise<R[]> {
      try {
        return (await pool.query(text, values)).rows as R[]
      } catch (err) {
        throw pgError(err, shown)
      }
    },
    checkout,
    async transaction<T>(fn: (client: PoolClient, tx: TransactionTail) => Promise<T>): Promise<T> {
      const {client, done} = await checkout()
      let broken: unknown
      let committing = false
      const tail: Array<Promise<unknown>> = []
      // a statement sent and not awaited has its failure read where it is awaited, or below
      const sent = (p: Promise<unknown>) => {
        p.catch(() => undefined)
        return p
      }
      try {
        // not awaited: it goes out with fn's first statement, whose failure then says why
        const begun = sent(client.query('BEGIN'))
        const result = await fn(client, {withCommit: (p) => tail.push(sent(p))})
        await begun
        committing = true
        const commit = sent(client.query('COMMIT'))
        // the statements sent with the COMMIT first: one that failed aborted the transaction, and
        // the COMMIT then answered ROLLBACK (nothing was kept)
        for (const p of tail) await p
        await commit
        return result
      } catch (err) {
        try {
          await client.query('ROLLBACK')
        } catch (rollbackErr) {
          broken = rollbackErr // the connection is gone: do not give it back to the pool
        }
        // the connection lost once COMMIT was sent: Postgres may have kept the transaction
        if (committing && lostConnection(err)) {
          throw new MemError('unavailable', `Postgres at ${shown} went away while committing: the write may or may not have been kept.`, {
            hint: 'Retry it with the same request id: if it was kept, the retry appends nothing and answers the first result.',
            cause: err,
          })
        }
        throw pgError(err, shown)
      } finally {
        done(broken)
      }
    },
    error: (err) => pgError(err, shown),
    async close() {
      await pool.end()
    },
  }
  return handle
}

/** A failure of the connection itself (no answer from the server), not an error the server answered. */
function lostConnection(err: unknown): boolean {
  const code = (err as {code?: unknown})?.code
  if (typeof code !== 'string') return true
  return UNREACHABLE.has(code) || code.startsWith('08') || code === '57P01' || code === '57P02' || code === '57P03'
}

const UNREACHABLE = new Set(['ECONNREFUSED', 'ENOTFOUND', 'EAI_AGAIN', 'ETIMEDOUT', 'EHOSTUNREACH', 'ENETUNREACH', 'ECONNRESET', 'EPIPE', 'ENOENT'])

/**
 * A driver failure as a MemError. Already a MemError: as it is. Postgres unreachable, restarting or
 * gone mid-statement: `unavailable` (503, exit 69) — a write that fails this way was not committed
 * (a transaction commits whole or not at all). The SQLSTATE stays in `cause` for DEBUG=mem.
 */
export function pgError(err: unknown, shown: string): MemError {
  if (err instanceof MemError) return err
  const e = err as {code?: unknown; message?: unknown}
  const code = typeof e?.code === 'string' ? e.code : ''
  const message = typeof e?.message === 'string' ? e.message : ''
  const where = `Postgres at ${shown}`
  const fixUrl = 'Start Postgres or fix the URL (--store, MEM_STORE or `store:` in the user config).'
  if (/^timeout exceeded when trying to connect$/i.test(message)) {
    // pg-pool: no connection came free (or could be made) within connectTimeoutMs
    return new MemError('unavailable', `${where} gave no connection in time (all busy, or it is slow to answer).`, {hint: 'Retry; if it lasts, Postgres is overloaded or unreachable.', cause: err})
  }
  if (UNREACHABLE.has(code) || /timeout expired|Connection terminated|connection timeout|Connection ended/i.test(message)) {
    return new MemError('unavailable', `${where} cannot be reached (${reason(code, message)}).`, {hint: fixUrl, cause: err})
  }
  if (code === '28P01' || code === '28000') {
    return new MemError('unavailable', `${where} refused the login (wrong user or password, or pg_hba.conf does not let this host in).`, {
      hint: 'Check the user and password (the URL, PGPASSWORD or ~/.pgpass) and pg_hba.conf.',
      cause: err,
    })
  }
  if (code === '3D000') {
    return new MemError('unavailable', `${where}: the database does not exist.`, {hint: 'Create it (createdb NAME, or CREATE DATABASE) or fix the URL.', cause: err})
  }
  if (code.startsWith('08') || code === '57P01' || code === '57P02' || code === '57P03' || code === '53300') {
    return new MemError('unavailable', `${where} is not answering (${code === '53300' ? 'too many connections' : 'it is shutting down, starting or lost the connection'}).`, {
      hint: 'Retry once Postgres is back.',
      cause: err,
    })
  }
  if (code === '40001' || code === '40P01') {
    return new MemError('unavailable', `${where} aborted the transaction to resolve a conflict; nothing was committed.`, {hint: 'Retry the request.', cause: err})
  }
  if (code === '22P05' || code === '22021') {
    return new MemError('invalid_input', 'The text holds a character Postgres cannot store (a NUL, \\u0000, or invalid UTF-8).', {
      hint: 'Remove the NUL characters and send it again.',
      cause: err,
    })
  }
  if (code === '42501') {
    return new MemError('unavailable', `${where}: the user lacks a privilege mem needs (to create its tables, or to use them).`, {
      hint: 'Grant the user CREATE on the database (for the first start and upgrades) and use of its tables.',
      cause: err,
    })
  }
  return new MemError('internal', `${where} answered an unexpected error${code ? ` (SQLSTATE ${code})` : ''}.`, {
    hint: 'Run again with DEBUG=mem to see it, and report it.',
    cause: err,
  })
}

function reason(code: string, message: string): string {
  switch (code) {
    case 'ECONNREFUSED':
      return 'connection refused'
    case 'ENOTFOUND':
    case 'EAI_AGAIN':
      return 'unknown host'
    case 'ETIMEDOUT':
      return 'it timed out'
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return 'no route to the host'
    case 'ECONNRESET':
    case 'EPIPE':
      return 'the connection was reset'
    case 'ENOENT':
      return 'no such socket'
    default:
      return /timeout/i.test(message) ? 'it timed out' : 'the connection was lost'
  }
}
