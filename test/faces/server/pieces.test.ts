import {readFileSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {createKey, generateKey, hashKey, KEY_PATTERN, listKeys, matchKey, revokeKey, scopeAllows} from '../../../src/config/api-keys.js'
import {readUserConfig} from '../../../src/config/user-config.js'
import {httpError} from '../../../src/faces/server/errors.js'
import {hostName, isLoopback} from '../../../src/faces/server/guard.js'
import {requiredAccess, validatorCompiler} from '../../../src/faces/server/route.js'
import {humanUptime} from '../../../src/faces/server/routes/system.js'
import {compareVersions, UpdateChecker} from '../../../src/faces/server/update-check.js'
import {tempDir} from '../../helpers/mem.js'

describe('API keys', () => {
  it('are mem_ + 32 random bytes in base64url; only the sha-256 is kept', () => {
    const a = generateKey()
    expect(a).toMatch(KEY_PATTERN)
    expect(Buffer.from(a.slice(4), 'base64url')).toHaveLength(32)
    expect(generateKey()).not.toBe(a)
    expect(hashKey(a)).toMatch(/^[0-9a-f]{64}$/)
  })

  it('match by hash against every stored key; scopes nest admin ⊃ write ⊃ read', () => {
    const keys = ['read', 'write', 'admin'].map((scope, i) => ({name: `k${i}`, scope: scope as 'read', hash: hashKey(`key-${i}`), prefix: '', created: ''}))
    expect(matchKey('key-1', keys)?.name).toBe('k1')
    expect(matchKey('key-9', keys)).toBeUndefined()
    expect(matchKey('', keys)).toBeUndefined()
    expect([scopeAllows('admin', 'write'), scopeAllows('write', 'read'), scopeAllows('read', 'write'), scopeAllows('write', 'admin')]).toEqual([true, true, false, false])
  })

  it('create, list and revoke keep every other setting and comment of the user config', async () => {
    const home = tempDir()
    writeFileSync(join(home, 'config.yaml'), '# my settings\nupdate:\n  check: false # no network here\nenrich:\n  provider: ollama\n')
    expect((await readUserConfig(home)).auth.enabled).toBe(false)
    const created = await createKey(home, {name: 'agent', scope: 'write', now: new Date('2026-01-02T03:04:05Z')})
    expect(created).toMatchObject({turnedAuthOn: true, authEnabled: true, created: '2026-01-02T03:04:05.000Z'})
    const text = readFileSync(join(home, 'config.yaml'), 'utf8')
    expect(text).toContain('# no network here')
    expect(text).toContain('provider: ollama')
    expect(text).toContain(hashKey(created.key))
    expect(text).not.toContain(created.key)
    const config = await readUserConfig(home)
    expect(config.update.check).toBe(false)
    expect(config.auth.keys).toHaveLength(1)

    expect((await createKey(home, {name: 'second', scope: 'admin', now: new Date()})).turnedAuthOn).toBe(false)
    expect((await listKeys(home)).keys.map((k) => k.name)).toEqual(['agent', 'second'])
    expect(JSON.stringify(await listKeys(home))).not.toMatch(/hash/)
    await revokeKey(home, 'agent')
    expect((await listKeys(home)).keys.map((k) => k.name)).toEqual(['second'])
    await revokeKey(home, 'second')
    expect(await listKeys(home)).toEqual({authEnabled: true, keys: []}) // never turns itself off
    await expect(revokeKey(home, 'second')).rejects.toMatchObject({code: 'not_found'})
  })

  it('an invalid config is an error naming the file, never silently ignored', async () => {
    const home = tempDir()
    writeFileSync(join(home, 'config.yaml'), 'auth:\n  keys:\n    - name: x\n      scope: root\n      hash: abc\n')
    await expect(readUserConfig(home)).rejects.toMatchObject({code: 'invalid_input', message: expect.stringMatching(/config\.yaml is not valid: auth\.keys\.0\.scope/)})
  })
})

describe('server pieces', () => {
  it('scopes by route: public health/status/ui, admin maintenance, read GET, write the rest', () => {
    expect(requiredAccess('GET', '/api/health')).toBe('public')
    expect(requiredAccess('GET', '/api/status')).toBe('public')
    expect(requiredAccess('GET', '/ui')).toBe('public')
    expect(requiredAccess('GET', '/ui/app.js')).toBe('public')
    expect(requiredAccess('GET', '/uix')).toBe('read')
    expect(requiredAccess('POST', '/api/maintenance')).toBe('admin')
    expect(requiredAccess('GET', '/api/maintenance/runs/1')).toBe('admin')
    expect(requiredAccess('GET', '/api/mem/recall')).toBe('read')
    expect(requiredAccess('HEAD', '/api/mem/stats')).toBe('read')
    expect(requiredAccess('POST', '/mcp')).toBe('write')
    expect(requiredAccess('DELETE', '/api/mem/x')).toBe('write')
    expect(requiredAccess('PUT', '/api/health')).toBe('public')
  })

  it('loopback names and Host parsing', () => {
    for (const h of ['localhost', '127.0.0.1', '127.9.9.9', '[::1]', 'LOCALHOST', 'app.localhost']) expect(isLoopback(h), h).toBe(true)
    for (const h of ['evil.example', '127.0.0.1.evil.example', 'localhost.evil.example', '0.0.0.0', '10.0.0.1', '']) expect(isLoopback(h), h).toBe(false)
    expect(hostName('127.0.0.1:7373')).toBe('127.0.0.1')
    expect(hostName('[::1]:7373')).toBe('[::1]')
    expect(hostName('Example.COM')).toBe('example.com')
  })

  it('query conversion: integers, numbers and booleans from text; anything else is a 400 naming the field', () => {
    const validate = validatorCompiler({
      schema: {type: 'object', properties: {limit: {type: 'integer'}, ratio: {type: 'number'}, dry_run: {type: 'boolean'}, q: {type: 'string'}}},
      httpPart: 'querystring',
      method: 'GET',
      url: '/x',
    }) as (data: unknown) => {value?: unknown; error?: {code: string; message: string}} | true
    expect(validate({limit: '10', ratio: '0.5', dry_run: 'true', q: '42'})).toEqual({value: {limit: 10, ratio: 0.5, dry_run: true, q: '42'}})
    expect(validate({limit: '-3', dry_run: '0'})).toEqual({value: {limit: -3, dry_run: false}}) // ranges are the core's job
    expect(validate({q: 'x'})).toEqual({value: {q: 'x'}})
    // booleans as clients in other languages write them (.NET: True/False)
    for (const [text, value] of [['True', true], ['FALSE', false], ['false', false], ['1', true], ['0', false], ['', true]] as const) {
      expect(validate({dry_run: text}), text).toEqual({value: {dry_run: value}})
    }
    for (const [query, field] of [[{limit: 'ten'}, 'limit'], [{limit: '1.5'}, 'limit'], [{limit: ''}, 'limit'], [{limit: ['1', '2']}, 'limit'], [{ratio: 'NaN'}, 'ratio'], [{dry_run: 'yes'}, 'dry_run']] as const) {
      const r = validate(query)
      expect(r, JSON.stringify(query)).toMatchObject({error: {code: 'invalid_input', message: expect.stringContaining(`Invalid ${field}`)}})
    }
    const body = validatorCompiler({schema: {type: 'object'}, httpPart: 'body', method: 'POST', url: '/x'}) as (d: unknown) => unknown
    expect(body({anything: 1})).toBe(true)
  })

  it('uptime reads as days, hours and minutes', () => {
    expect(humanUptime(0)).toBe('0 days, 0 hours, 0 minutes')
    expect(humanUptime(61_000)).toBe('0 days, 0 hours, 1 minute')
    expect(humanUptime((26 * 60 + 5) * 60_000)).toBe('1 day, 2 hours, 5 minutes')
  })

  it('versions compare by semver', () => {
    expect(compareVersions('0.2.0', '0.1.9')).toBe(1)
    expect(compareVersions('1.10.0', '1.9.0')).toBe(1)
    expect(compareVersions('1.0.0', '1.0.0')).toBe(0)
    expect(compareVersions('1.0.0-beta.2', '1.0.0')).toBe(-1)
    expect(compareVersions('1.0.0-beta.10', '1.0.0-beta.2')).toBe(1)
    expect(compareVersions('1.0.0-alpha', '1.0.0-beta')).toBe(-1)
    expect(compareVersions('1.0.0+build.5', '1.0.0')).toBe(0)
  })
})

describe('update check', () => {
  it('checks the npm name this package is published under, which is not `mem`', async () => {
    const {PACKAGE_NAME} = await import('../../../src/model/package-name.js')
    const {packageInfo} = await import('../../../src/faces/server/version.js')
    const pkg = JSON.parse(readFileSync(join(import.meta.dirname, '..', '..', '..', 'package.json'), 'utf8'))
    expect(PACKAGE_NAME).toBe('mem-for-agents')
    expect(pkg.name).toBe(PACKAGE_NAME)
    expect(pkg.bin).toEqual({mem: './bin/run.js'})
    expect(packageInfo().name).toBe(PACKAGE_NAME)
  })

  function fakeFetch(answer: () => Response | Promise<Response>) {
    const calls: string[] = []
    const fetch = (async (url: string) => {
      calls.push(String(url))
      return answer()
    }) as unknown as typeof globalThis.fetch
    return {fetch, calls}
  }
  const ok = (version: string) => () => new Response(JSON.stringify({version}), {headers: {'content-type': 'application/json'}})

  it('fetches <registry>/<package>/latest, caches it in MEM_HOME, and reports an update', async () => {
    const home = tempDir()
    const {fetch, calls} = fakeFetch(ok('0.3.0'))
    const checker = new UpdateChecker({home, packageName: 'mem', currentVersion: '0.1.0', registry: 'http://registry.test/', enabled: true, fetch})
    expect(checker.status()).toEqual({latestVersion: null, updateAvailable: false})
    expect(await checker.check()).toBe(true)
    expect(calls).toEqual(['http://registry.test/mem/latest'])
    expect(checker.status()).toEqual({latestVersion: '0.3.0', updateAvailable: true})
    // a new process reads the cache; the same version is not an update
    const next = new UpdateChecker({home, packageName: 'mem', currentVersion: '0.3.0', registry: 'http://registry.test', enabled: true, fetch})
    expect(next.status()).toEqual({latestVersion: '0.3.0', updateAvailable: false})
    // another registry's cached answer is not used
    expect(new UpdateChecker({home, packageName: 'mem', currentVersion: '0.1.0', registry: 'http://other.test', enabled: true, fetch}).status().latestVersion).toBeNull()
  })

  it('start() checks only when the cache is older than a day; off means null and no request', async () => {
    const home = tempDir()
    let now = Date.parse('2026-05-01T00:00:00Z')
    const {fetch, calls} = fakeFetch(ok('0.2.0'))
    const make = (enabled = true) => new UpdateChecker({home, packageName: 'mem', currentVersion: '0.1.0', registry: 'http://r.test', enabled, fetch, now: () => now})
    const first = make()
    first.start()
    await new Promise((r) => setTimeout(r, 20))
    first.stop()
    expect(calls).toHaveLength(1)
    now += 60 * 60 * 1000
    const fresh = make()
    fresh.start()
    await new Promise((r) => setTimeout(r, 20))
    fresh.stop()
    expect(calls).toHaveLength(1) // cache an hour old: no request
    now += 24 * 60 * 60 * 1000
    const stale = make()
    stale.start()
    await new Promise((r) => setTimeout(r, 20))
    stale.stop()
    expect(calls).toHaveLength(2)
    const off = make(false)
    off.start()
    expect(off.status()).toEqual({latestVersion: null, updateAvailable: false})
    expect(calls).toHaveLength(2)
  })

  it('says in words what it found: not published yet (a 404 is an answer, not a failure), no newer version, a version available', async () => {
    const home = tempDir()
    const notOnRegistry = new UpdateChecker({home, packageName: 'mem-for-agents', currentVersion: '0.1.0', registry: 'http://r.test', enabled: true, fetch: fakeFetch(() => new Response('{"error":"Not found"}', {status: 404})).fetch})
    expect(notOnRegistry.task()).not.toHaveProperty('result')
    expect(await notOnRegistry.check()).toBe(true)
    expect(notOnRegistry.status()).toEqual({latestVersion: null, updateAvailable: false})
    expect(notOnRegistry.task()).toMatchObject({status: 'ok', lastError: null, result: 'not published yet: the registry has no mem-for-agents'})
    const same = new UpdateChecker({home: tempDir(), packageName: 'mem', currentVersion: '0.1.0', registry: 'http://r.test', enabled: true, fetch: fakeFetch(ok('0.1.0')).fetch})
    await same.check()
    expect(same.task()).toMatchObject({status: 'ok', lastError: null, result: 'no newer version (latest 0.1.0)'})
    const newer = new UpdateChecker({home: tempDir(), packageName: 'mem', currentVersion: '0.1.0', registry: 'http://r.test', enabled: true, fetch: fakeFetch(ok('0.2.0')).fetch})
    await newer.check()
    expect(newer.task()).toMatchObject({status: 'ok', result: 'version 0.2.0 available'})
    // a registry that fails is still a failure, and says nothing found
    const down = new UpdateChecker({home: tempDir(), packageName: 'mem', currentVersion: '0.1.0', registry: 'http://r.test', enabled: true, fetch: fakeFetch(() => new Response('oops', {status: 503})).fetch})
    expect(await down.check()).toBe(false)
    expect(down.task()).toMatchObject({status: 'failed', lastError: 'update check failed: 503'})
    expect(down.task()).not.toHaveProperty('result')
    // off: nothing found, nothing said
    expect(new UpdateChecker({home, packageName: 'mem', currentVersion: '0.1.0', registry: 'http://r.test', enabled: false}).task()).toEqual({id: 'update-check', type: 'update-check', intervalHours: 24, lastRunAt: null, nextRunAt: null, status: 'disabled', lastError: null})
  })

  it('a failed or malformed answer changes nothing and never throws', async () => {
    const home = tempDir()
    for (const answer of [() => new Response('nope', {status: 500}), () => new Response('{"version": "latest!"}'), () => Promise.reject(new Error('offline'))]) {
      const checker = new UpdateChecker({home, packageName: 'mem', currentVersion: '0.1.0', registry: 'http://r.test', enabled: true, fetch: fakeFetch(answer).fetch})
      expect(await checker.check()).toBe(false)
      expect(checker.status().latestVersion).toBeNull()
    }
  })
})

describe('error bodies', () => {
  it('a body over the limit names the limit of the route it was sent to', () => {
    const tooLarge = Object.assign(new Error('Request body is too large'), {code: 'FST_ERR_CTP_BODY_TOO_LARGE', statusCode: 413})
    const general = httpError(tooLarge)
    expect(general.status).toBe(413)
    expect(general.body).toMatchObject({code: 'payload_too_large', error: 'The request body is larger than 1 MB.', hint: expect.stringMatching(/16,000 characters/)})
    const packRoute = httpError(tooLarge, Math.ceil((64 * 1024 * 1024) / 3) * 4 + 64 * 1024)
    expect(packRoute.body).toMatchObject({code: 'payload_too_large', error: 'The request body is larger than 85.4 MB.', hint: expect.stringMatching(/smaller packs/)})
  })
})
