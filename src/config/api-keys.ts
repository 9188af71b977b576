import {createHash, randomBytes, timingSafeEqual} from 'node:crypto'
import {statSync} from 'node:fs'
import type {Document, YAMLSeq} from 'yaml'
import {MemError} from '../model/errors.js'
import {type ApiKeyRecord, readUserConfigWith, type Scope, SCOPES, updateUserConfig, userConfigPath, type UserConfig} from './user-config.js'
import {loadYaml} from './yaml.js'

export {SCOPES, type Scope, type ApiKeyRecord}

const KEY_PREFIX = 'mem_'
/** `mem_` + 32 random bytes in base64url (43 characters). */
export const KEY_PATTERN = /^mem_[A-Za-z0-9_-]{43}$/
const NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/
/** How many characters of a key `mem keys list` shows. */
const SHOWN_PREFIX = KEY_PREFIX.length + 6

const RANK: Record<Scope, number> = {read: 1, write: 2, admin: 3}

/** Scopes nest: admin ⊃ write ⊃ read. */
export function scopeAllows(have: Scope, need: Scope): boolean {
  return RANK[have] >= RANK[need]
}

export function generateKey(): string {
  return KEY_PREFIX + randomBytes(32).toString('base64url')
}

export function hashKey(key: string): string {
  return createHash('sha256').update(key, 'utf8').digest('hex')
}

/** The key whose hash matches, compared in constant time against every stored hash. */
export function matchKey(key: string, keys: readonly ApiKeyRecord[]): ApiKeyRecord | undefined {
  const digest = createHash('sha256').update(key, 'utf8').digest()
  let found: ApiKeyRecord | undefined
  for (const record of keys) {
    const stored = Buffer.from(record.hash, 'hex')
    // no early exit: the time taken does not depend on which key (if any) matched
    if (stored.length === digest.length && timingSafeEqual(stored, digest) && !found) found = record
  }
  return found
}

export interface CreatedKey {
  /** The key itself: shown once, never stored. */
  key: string
  name: string
  scope: Scope
  prefix: string
  created: string
  authEnabled: boolean
  /** True when this key turned auth on. */
  turnedAuthOn: boolean
}

/** Creates a key: only its sha-256 is written to the user config. The first key turns auth on. */
export async function createKey(home: string, input: {name: string; scope: string; now: Date}): Promise<CreatedKey> {
  const name = input.name.trim()
  if (!NAME_PATTERN.test(name)) {
    throw new MemError('invalid_input', `Invalid key name ${JSON.stringify(input.name)}: use letters, digits, '.', '_' or '-' (up to 64).`, {
      hint: 'mem keys create ci-agent --scope write',
    })
  }
  if (!(SCOPES as readonly string[]).includes(input.scope)) {
    throw new MemError('invalid_input', `Invalid scope ${JSON.stringify(input.scope)}: use read, write or admin.`, {
      hint: 'read: every GET; write: also stores, edits, deletes; admin: also maintenance.',
    })
  }
  const key = generateKey()
  const record: ApiKeyRecord = {
    name,
    scope: input.scope as Scope,
    hash: hashKey(key),
    prefix: key.slice(0, SHOWN_PREFIX),
    created: input.now.toISOString(),
  }
  const yaml = await loadYaml()
  return updateUserConfig(home, (doc, config) => {
    if (config.auth.keys.some((k) => k.name === name)) {
      throw new MemError('conflict', `A key named ${name} exists already.`, {hint: `Revoke it first (mem keys revoke ${name}) or pick another name.`})
    }
    keySeq(doc, yaml).add(doc.createNode(record))
    let turnedAuthOn = false
    if (config.auth.keys.length === 0 && !config.auth.enabled) {
      doc.setIn(['auth', 'enabled'], true)
      turnedAuthOn = true
    }
    const authEnabled = turnedAuthOn || config.auth.enabled
    return {key, name, scope: record.scope, prefix: record.prefix, created: record.created, authEnabled, turnedAuthOn}
  })
}

export interface KeyListing {
  authEnabled: boolean
  keys: Array<Omit<ApiKeyRecord, 'hash'>>
}

export async function listKeys(home: string): Promise<KeyListing> {
  const config = readUserConfigWith(home, (await loadYaml()).parse)
  return {authEnabled: config.auth.enabled, keys: config.auth.keys.map(({hash: _hash, ...shown}) => shown)}
}

/** Removes a key by name. Auth stays as it is, even with no key left (it never turns itself off). */
export async function revokeKey(home: string, name: string): Promise<{revoked: string; remaining: number; authEnabled: boolean}> {
  const yaml = await loadYaml()
  return updateUserConfig(home, (doc, config) => {
    const index = config.auth.keys.findIndex((k) => k.name === name)
    if (index < 0) {
      throw new MemError('not_found', `No key named ${name}.`, {hint: 'Run `mem keys list` to see the key names.'})
    }
    const seq = keySeq(doc, yaml)
    const at = seq.items.findIndex((item) => yaml.isMap(item) && item.get('name') === name)
    seq.delete(at)
    return {revoked: name, remaining: config.auth.keys.length - 1, authEnabled: config.auth.enabled}
  })
}

/**
 * Turns API key auth on or off (`auth.enabled`); the keys stay as they are. Turning it on needs a key
 * to turn it on with: with none, every request but health and status would be refused.
 */
export async function setAuth(home: string, enabled: boolean): Promise<{authEnabled: boolean; changed: boolean; keys: number}> {
  return updateUserConfig(home, (doc, config) => {
    if (enabled && config.auth.keys.length === 0) {
      throw new MemError('conflict', 'No API key exists: turning auth on now would refuse every request but health and status.', {
        hint: 'Create a key instead (`mem keys create NAME --scope write`): the first key turns auth on.',
      })
    }
    const changed = config.auth.enabled !== enabled
    if (changed) doc.setIn(['auth', 'enabled'], enabled)
    return {authEnabled: enabled, changed, keys: config.auth.keys.length}
  })
}

function keySeq(doc: Document, yaml: typeof import('yaml')): YAMLSeq {
  let seq = doc.getIn(['auth', 'keys'])
  if (!yaml.isSeq(seq)) {
    doc.setIn(['auth', 'keys'], doc.createNode([]))
    seq = doc.getIn(['auth', 'keys'])
  }
  if (!yaml.isSeq(seq)) throw new MemError('internal', 'auth.keys is not a list')
  return seq
}

export type AuthCheck =
  | {ok: true; key: ApiKeyRecord | null}
  | {ok: false; status: 401; message: 'Authentication required' | 'Invalid API key'}
  | {ok: false; status: 403; required: Scope}

/**
 * The keys a running server checks requests against. It re-reads the user config when the file
 * changes (one stat per check), so `mem keys create|revoke` takes effect without a restart.
 * If the file becomes unreadable or invalid, every protected request fails (closed, not open).
 */
export class KeyRing {
  private config: UserConfig
  private stamp: string
  private error: MemError | undefined

  private constructor(
    readonly home: string,
    private readonly parse: (text: string) => unknown,
  ) {
    this.stamp = this.fileStamp()
    this.config = readUserConfigWith(home, parse)
  }

  static async open(home: string): Promise<KeyRing> {
    return new KeyRing(home, (await loadYaml()).parse)
  }

  /** The current settings (re-read if the file changed). Throws when the file is broken. */
  current(): UserConfig {
    const stamp = this.fileStamp()
    if (stamp !== this.stamp) {
      this.stamp = stamp
      try {
        this.config = readUserConfigWith(this.home, this.parse)
        this.error = undefined
      } catch (err) {
        // the service cannot tell who may do what: that is its problem (503), not the caller's
        this.error = new MemError('unavailable', err instanceof MemError ? err.message : `Cannot read ${userConfigPath(this.home)}.`, {
          hint: 'Fix the user config; the service refuses protected requests until it is valid.',
        })
      }
    }
    if (this.error) throw this.error
    return this.config
  }

  get enabled(): boolean {
    try {
      return this.current().auth.enabled
    } catch {
      return true
    }
  }

  /**
   * Checks an `Authorization` header against the scope a request needs. With `required`, a key is
   * needed even if auth has been turned off (a service bound beyond loopback never opens up).
   */
  check(header: string | undefined, need: Scope, required = false): AuthCheck {
    const config = this.current()
    if (!config.auth.enabled && !required) return {ok: true, key: null}
    const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header ?? '')
    if (!match) return {ok: false, status: 401, message: 'Authentication required'}
    const key = matchKey(match[1], config.auth.keys)
    if (!key) return {ok: false, status: 401, message: 'Invalid API key'}
    if (!scopeAllows(key.scope, need)) return {ok: false, status: 403, required: need}
    return {ok: true, key}
  }

  private fileStamp(): string {
    try {
      const st = statSync(userConfigPath(this.home))
      return `${st.ino}:${st.size}:${st.mtimeMs}`
    } catch {
      return 'missing'
    }
  }
}
