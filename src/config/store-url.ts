import {MemError} from '../model/errors.js'

/**
 * The team store's Postgres URL: where it comes from (`--store`, else `MEM_STORE`, else `store:` in
 * the user config) and how it is shown. A URL may carry a password; it is never shown: messages,
 * logs and JSON answers use `shown`, where the password is `***`.
 */
export interface StoreUrl {
  /** The URL as given, for the driver only. */
  url: string
  /** The URL with its password masked: the only form that may reach a message. */
  shown: string
  /** Where it was given: the flag, the environment, or the user config. */
  from: '--store' | 'MEM_STORE' | 'config'
}

const FIX = 'Give a URL like postgres://USER@HOST:5432/DATABASE (a password in PGPASSWORD or ~/.pgpass keeps it out of the URL).'

/** Checks a Postgres URL's shape (no connection is made) and masks its password for messages. */
export function parseStoreUrl(raw: string, from: StoreUrl['from']): StoreUrl {
  const value = raw.trim()
  let url: URL
  try {
    url = new URL(value)
  } catch {
    // the text itself may hold a password: say what is wrong without echoing it
    throw new MemError('invalid_input', `The store URL from ${from} is not a URL.`, {hint: FIX})
  }
  const shown = maskUrl(url)
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:') {
    throw new MemError('invalid_input', `The store URL ${shown} (from ${from}) is not a Postgres URL: it must start with postgres:// or postgresql://.`, {hint: FIX})
  }
  if (!url.hostname && !url.searchParams.get('host')) {
    throw new MemError('invalid_input', `The store URL ${shown} (from ${from}) names no host.`, {hint: FIX})
  }
  if (url.pathname.length <= 1) {
    throw new MemError('invalid_input', `The store URL ${shown} (from ${from}) names no database.`, {hint: FIX})
  }
  if (/[\u0000-\u001f\u007f]/.test(value)) {
    throw new MemError('invalid_input', `The store URL from ${from} holds a control character.`, {hint: FIX})
  }
  return {url: value, shown, from}
}

/** The URL without its password (`postgres://app:***@db:5432/mem`); query parameters named like one too. */
export function maskUrl(url: URL): string {
  const copy = new URL(url.href)
  if (copy.password) copy.password = '***'
  for (const key of [...copy.searchParams.keys()]) {
    if (/pass|secret|token|key/i.test(key)) copy.searchParams.set(key, '***')
  }
  return copy.href
}

/**
 * The store URL to use: the flag's, else MEM_STORE's, else the user config's `store`; undefined
 * when none is set (local mode). An empty value counts as not set.
 */
export function resolveStoreUrl(sources: {flag?: string; env: Record<string, string | undefined>; config?: string | null}): StoreUrl | undefined {
  if (sources.flag !== undefined && sources.flag.trim()) return parseStoreUrl(sources.flag, '--store')
  const env = sources.env.MEM_STORE
  if (env !== undefined && env.trim()) return parseStoreUrl(env, 'MEM_STORE')
  if (sources.config && sources.config.trim()) return parseStoreUrl(sources.config, 'config')
  return undefined
}
