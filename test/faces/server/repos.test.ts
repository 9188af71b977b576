// `repo` names a repository, never an arbitrary folder: stores are made only beside a git work tree,
// in a folder that already holds .mem/, or under MEM_HOME for a plain repo id, and only by a write.
import {existsSync, mkdirSync} from 'node:fs'
import {join, resolve} from 'node:path'
import {describe, expect, it} from 'vitest'
import {memServer, rawRequest} from '../../helpers/server.js'

const JSON_HEADERS = {'content-type': 'application/json'}

describe('which folders a repo value may name (HTTP)', () => {
  it('refuses a path that is not a git work tree or a .mem folder, and relative paths: 400, nothing made', async () => {
    const {url, base} = await memServer()
    const plain = join(base, 'plain')
    mkdirSync(plain)
    for (const repo of ['/etc', '/', plain, join(base, 'nope'), '..', '../../', '.', 'sub/dir']) {
      const r = await rawRequest(`${url}/api/mem`, {method: 'POST', headers: JSON_HEADERS, body: JSON.stringify({repo, content: `planted in ${repo}`, type: 'insight'})})
      expect(r.status, repo).toBe(400)
      const body = r.json()
      expect(body.code, repo).toBe('invalid_input')
      expect(body.error, repo).toMatch(/^Invalid repo: /)
      expect(body.hint, repo).toMatch(/git init|mem init|absolute path|typo/)
    }
    for (const dir of ['/etc', '/', plain, resolve('..'), resolve('../..'), resolve('.')]) expect(existsSync(join(dir, '.mem')), dir).toBe(dir === resolve('.') && existsSync(join(dir, '.mem')))
    expect(existsSync('/etc/.mem')).toBe(false)
    expect(existsSync(join(plain, '.mem'))).toBe(false)
  })

  it('a read of an unknown repo id answers empty and neither creates nor registers it', async () => {
    const {url, home} = await memServer()
    const stats = await rawRequest(`${url}/api/mem/stats?repo=typo`)
    expect(stats.status).toBe(200)
    expect(stats.json()).toMatchObject({repo: 'typo', total: 0})
    for (const path of ['/api/mem/recall?repo=typo&q=x', '/api/mem/context?repo=typo', '/api/mem/browse?repo=typo', '/api/mem/quality?repo=typo', '/api/mem/graph?repo=typo']) {
      expect((await rawRequest(`${url}${path}`)).status, path).toBe(200)
    }
    const maint = await rawRequest(`${url}/api/maintenance?repo=typo`, {method: 'POST'})
    expect(maint.status).toBe(200)
    const consolidate = await rawRequest(`${url}/api/mem/consolidate?repo=typo`, {method: 'POST'})
    expect(consolidate.status).toBe(200)
    expect((await rawRequest(`${url}/api/mem/repos`)).json().repos.map((r: {repoId: string}) => r.repoId)).not.toContain('typo')
    expect(existsSync(join(home, 'repos', 'typo'))).toBe(false)
    // a write to a plain id makes its store under MEM_HOME and registers it
    const stored = await rawRequest(`${url}/api/mem`, {method: 'POST', headers: JSON_HEADERS, body: JSON.stringify({repo: 'scratch', content: 'kept under the home folder', type: 'insight'})})
    expect(stored.status).toBe(201)
    expect(existsSync(join(home, 'repos', 'scratch', '.mem'))).toBe(true)
    expect((await rawRequest(`${url}/api/mem/repos`)).json().repos.map((r: {repoId: string}) => r.repoId)).toContain('scratch')
  })

  it('ids with . or .. segments are a 400; a well-formed id of an unknown repo is a 404; neither makes a store', async () => {
    const {url, home} = await memServer()
    for (const id of ['memories/../observation/000000000000', 'memories/./insight/0123456789ab']) {
      for (const method of ['GET', 'PUT', 'DELETE']) {
        const r = await rawRequest(`${url}/api/mem/${encodeURIComponent(id)}`, {method, headers: JSON_HEADERS, body: method === 'PUT' ? JSON.stringify({importance: 0.9}) : undefined})
        expect(r.status, `${method} ${id}`).toBe(400)
      }
    }
    for (const method of ['GET', 'PUT', 'DELETE']) {
      const r = await rawRequest(`${url}/api/mem/${encodeURIComponent('memories/bogus-repo/insight/0123456789ab')}`, {method, headers: JSON_HEADERS, body: method === 'PUT' ? JSON.stringify({importance: 0.9}) : undefined})
      expect(r.status, method).toBe(404)
    }
    const fb = await rawRequest(`${url}/api/mem/feedback`, {method: 'POST', headers: JSON_HEADERS, body: JSON.stringify({memoryId: 'memories/bogus-repo/insight/0123456789ab', wasUsed: true})})
    expect(fb.status).toBe(404)
    expect(existsSync(join(home, 'repos'))).toBe(false)
    expect(existsSync(resolve('..', '.mem'))).toBe(false)
  })

  it('an id of repo B asked with ?repo=A is a 404, and B is unchanged', async () => {
    const {url, base, client} = await memServer()
    const a = join(base, 'a')
    const b = join(base, 'b')
    for (const d of [a, b]) mkdirSync(join(d, '.git'), {recursive: true})
    const mem = client()
    await mem.store({repo: a, content: 'repo A keeps its own notes', type: 'insight'})
    const {id} = await mem.store({repo: b, content: 'repo B deploys on Fridays', type: 'procedure'})
    const scoped = (method: string, body?: unknown) =>
      rawRequest(`${url}/api/mem/${encodeURIComponent(id!)}?repo=${encodeURIComponent(a)}`, {method, headers: JSON_HEADERS, body: body === undefined ? undefined : JSON.stringify(body)})
    const get = await scoped('GET')
    expect(get.status).toBe(404)
    expect(get.json().error).toMatch(/belongs to another repository/)
    expect((await scoped('PUT', {content: 'repo B deploys on Mondays', importance: 0.1})).status).toBe(404)
    expect((await scoped('DELETE')).status).toBe(404)
    expect((await rawRequest(`${url}/api/mem/history/${encodeURIComponent(id!)}?repo=${encodeURIComponent(a)}`)).status).toBe(404)
    const fb = await rawRequest(`${url}/api/mem/feedback`, {method: 'POST', headers: JSON_HEADERS, body: JSON.stringify({memoryId: id, wasUsed: false, repo: a})})
    expect(fb.status).toBe(404)
    const after = await mem.get(id!)
    expect(after).toMatchObject({content: 'repo B deploys on Fridays', importance: 0.5, forgottenAt: null, supersededBy: null, usedCount: 0, unusedCount: 0})
    // asked in its own repo, or with no repo, the id works
    expect((await rawRequest(`${url}/api/mem/${encodeURIComponent(id!)}?repo=${encodeURIComponent(b)}`)).status).toBe(200)
  })

  it('my_app and my.app side by side: two repo ids, and every by-id route answers for both (issue 20)', async () => {
    const {url, base, client} = await memServer()
    const underscore = join(base, 'my_app')
    const dot = join(base, 'my.app')
    for (const d of [underscore, dot]) mkdirSync(join(d, '.git'), {recursive: true})
    const mem = client()
    const a = await mem.store({repo: underscore, content: 'my_app ships with make release', type: 'procedure'})
    const b = await mem.store({repo: dot, content: 'my.app ships with cargo dist', type: 'procedure'})
    expect(a.id!.split('/')[1]).not.toBe(b.id!.split('/')[1])
    const listed = await mem.listRepos()
    expect(listed).toEqual(expect.arrayContaining([a.id!.split('/')[1], b.id!.split('/')[1]]))
    for (const [repo, id, word] of [[underscore, a.id!, 'make'], [dot, b.id!, 'cargo']] as const) {
      const enc = encodeURIComponent(id)
      expect((await mem.recall(repo, 'how does it ship')).map((r) => r.id)).toEqual([id])
      const got = await rawRequest(`${url}/api/mem/${enc}`)
      expect(got.status).toBe(200)
      expect(got.json().content).toContain(word)
      expect((await rawRequest(`${url}/api/mem/history/${enc}`)).status).toBe(200)
      const fb = await rawRequest(`${url}/api/mem/feedback`, {method: 'POST', headers: JSON_HEADERS, body: JSON.stringify({memoryId: id, wasUsed: true})})
      expect(fb.json()).toEqual({applied: true})
      const put = await rawRequest(`${url}/api/mem/${enc}`, {method: 'PUT', headers: JSON_HEADERS, body: JSON.stringify({importance: 0.9})})
      expect(put.status).toBe(200)
      expect((await rawRequest(`${url}/api/mem/${enc}`, {method: 'DELETE'})).json()).toEqual({forgotten: true})
    }
  })

  it('bad repo values are 400s that name the problem, with no home path or raw system code', async () => {
    const {url, home} = await memServer()
    const cases: Array<[string, RegExp]> = [
      ['', /repo is required/],
      ['x'.repeat(5_000), /longer than 1,024 characters/],
      ['a\u0000b', /control character/],
      ['y'.repeat(300), /at most 200 characters/],
    ]
    for (const [repo, message] of cases) {
      for (const path of [`/api/maintenance?repo=${encodeURIComponent(repo)}`, `/api/mem/stats?repo=${encodeURIComponent(repo)}`]) {
        const r = await rawRequest(`${url}${path}`, {method: path.startsWith('/api/maintenance') ? 'POST' : 'GET'})
        expect(r.status, path.slice(0, 60)).toBe(400)
        expect(r.json().error).toMatch(message)
        expect(r.text).not.toContain(home)
        expect(r.text).not.toMatch(/ENAMETOOLONG|ERR_|EINVAL/)
      }
    }
    const noRepo = await rawRequest(`${url}/api/maintenance`, {method: 'POST'})
    expect(noRepo.status).toBe(400)
    expect(noRepo.json()).toMatchObject({code: 'invalid_input', error: 'Invalid repo: repo is required'})
    expect(existsSync(join(home, 'repos'))).toBe(false)
  })

  it('a drive path is the repo id the specification gives it on every OS, whatever the working directory', async () => {
    const {client} = await memServer()
    const mem = client()
    const {id} = await mem.store({repo: 'C:\\proj', content: 'a Windows client stores by its drive path', type: 'insight'})
    expect(id).toMatch(/^memories\/C--proj\/insight\//)
    expect((await mem.stats('C--proj')).total).toBe(1)
    expect((await mem.stats('C:\\proj')).total).toBe(1)
  })
})
