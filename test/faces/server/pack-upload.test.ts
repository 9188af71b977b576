// POST /api/mem/packs/import takes the spec's JSON {repo, data: base64} or the file itself.
import {mkdirSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {memServer, rawRequest} from '../../helpers/server.js'

describe('pack import bodies', () => {
  it('the spec\'s JSON and the raw file (application/octet-stream, ?repo=) import alike; octet-stream elsewhere is refused', async () => {
    const {url, repo, base, client} = await memServer()
    const mem = client()
    await mem.store({repo, content: 'Deploys go out from the release branch only.', type: 'procedure'})
    await mem.store({repo, content: 'The staging database is reset every Monday.', type: 'observation'})
    // the exported file, as bytes
    const raw = await new Promise<Buffer>((resolve, reject) => {
      import('node:http').then(({request}) => {
        const req = request(`${url}/api/mem/packs/export?repo=${encodeURIComponent(repo)}`, {method: 'POST'}, (res) => {
          const chunks: Buffer[] = []
          res.on('data', (c: Buffer) => chunks.push(c))
          res.on('end', () => resolve(Buffer.concat(chunks)))
        })
        req.on('error', reject)
        req.end()
      }, reject)
    })
    expect(raw.subarray(0, 15).toString()).toBe('SQLite format 3')

    const viaJson = join(base, 'via-json')
    const viaFile = join(base, 'via-file')
    for (const d of [viaJson, viaFile]) mkdirSync(join(d, '.git'), {recursive: true})
    const json = await rawRequest(`${url}/api/mem/packs/import`, {method: 'POST', headers: {'content-type': 'application/json'}, body: JSON.stringify({repo: viaJson, data: raw.toString('base64')})})
    expect(json.status).toBe(200)
    expect(json.json()).toMatchObject({imported: 2, skipped: 0})
    const bytes = await rawRequest(`${url}/api/mem/packs/import?repo=${encodeURIComponent(viaFile)}`, {method: 'POST', headers: {'content-type': 'application/octet-stream'}, body: raw})
    expect(bytes.status).toBe(200)
    expect(bytes.json()).toMatchObject({imported: 2, skipped: 0})
    expect((await mem.stats(viaFile)).total).toBe(2)

    // a damaged file is the same 400 either way, and writes nothing
    const damaged = Buffer.from(raw)
    damaged[damaged.length - 100] ^= 0xff
    const bad = await rawRequest(`${url}/api/mem/packs/import?repo=${encodeURIComponent(viaFile)}`, {method: 'POST', headers: {'content-type': 'application/octet-stream'}, body: damaged})
    expect(bad.status).toBe(400)
    expect((await mem.stats(viaFile)).total).toBe(2)
    // no repo with a raw file: the validation names it
    const noRepo = await rawRequest(`${url}/api/mem/packs/import`, {method: 'POST', headers: {'content-type': 'application/octet-stream'}, body: raw})
    expect(noRepo.status).toBe(400)
    expect(noRepo.json().error).toMatch(/repo/)
    // other routes take JSON only
    const store = await rawRequest(`${url}/api/mem`, {method: 'POST', headers: {'content-type': 'application/octet-stream'}, body: Buffer.from('{}')})
    expect(store.status).toBe(400)
    expect(store.json().error).toMatch(/must be JSON/)
  })
})
