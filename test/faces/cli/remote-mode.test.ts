// Remote mode for a checkout (issue 31 item 4) against the real Postgres and a real `mem serve
// --store` replica in this process: `mem remote set|status|unset` and their refusals, the CLI's
// operations routed to the server, the outbox filled while the server is unreachable (a TCP relay
// in front of it, cut and restored) and replayed once it answers, request-id idempotency of HTTP
// and MCP writes on the team server, the offline session hook, and `mem remote push` (item 5).
import {spawn, spawnSync} from 'node:child_process'
import {existsSync, mkdirSync, readdirSync, readFileSync, statSync, writeFileSync} from 'node:fs'
import {join} from 'node:path'
import {describe, expect, it} from 'vitest'
import {BIN, cliRepo} from '../../helpers/cli.js'
import {call as callTool, stdioMcpClient, text} from '../../helpers/mcp.js'
import {closedPort, rows} from '../../helpers/pg.js'
import {call_ as api, inProcessReplica, pgRelay as tcpRelay, teamKey, teamStore} from '../../helpers/team-server.js'
import {enqueue, listOutbox} from '../../../src/runtime/remote-outbox.js'
import {checkoutTeamRepoId} from '../../../src/runtime/remote-config.js'

const REPO = 'github.com/acme/app'
const SEGMENT = 'github.com~acme~app'
const enc = encodeURIComponent
/** What every run sees: no server or key from the machine running the tests. */
const CLEAN = {MEM_SERVER: '', MEM_KEY: ''}

/** A team store with a write key, a replica in this process, and a checkout. */
async function setup() {
  const {db, url} = await teamStore()
  const key = await teamKey(db, 'acme', 'laptop', 'write')
  const replica = await inProcessReplica(url, {name: 'a'})
  const repo = cliRepo()
  const mem = (args: string[], extra: {input?: string; env?: Record<string, string>} = {}) => repo.mem(args, {...extra, env: {...CLEAN, ...extra.env}})
  return {db, url, key, replica, ...repo, mem}
}

function outboxFiles(root: string): string[] {
  const dir = join(root, '.mem', 'outbox')
  return existsSync(dir) ? readdirSync(dir).filter((n) => n.endsWith('.json')) : []
}

describe('mem remote set, status, unset', () => {
  it('maps the checkout after checking the server and the key; the key stays out of the repository', async () => {
    const {key, replica, root, home, mem} = await setup()

    const set = await mem(['remote', 'set', replica.url, '--key', key, '--repo-id', REPO, '--json'])
    expect(set.code).toBe(0)
    expect(set.json()).toMatchObject({server: replica.url.replace(/\/$/, ''), repo: REPO, repoFrom: 'flag', key: 'saved', memories: 0})
    const mapping = readFileSync(join(root, '.mem', 'remote.json'), 'utf8')
    expect(JSON.parse(mapping)).toMatchObject({server: replica.url.replace(/\/$/, ''), repo: REPO})
    // the key: in MEM_HOME, readable by the user only; in no file of the checkout
    expect(readFileSync(join(home, 'remote-keys.json'), 'utf8')).toContain(key)
    expect(statSync(join(home, 'remote-keys.json')).mode & 0o077).toBe(0)
    for (const name of readdirSync(join(root, '.mem'))) {
      const p = join(root, '.mem', name)
      if (statSync(p).isFile()) expect(readFileSync(p, 'utf8')).not.toContain(key)
    }
    expect(readFileSync(join(root, '.mem', '.gitignore'), 'utf8').split('\n')).toEqual(expect.arrayContaining(['remote.json', 'outbox/']))

    const status = await mem(['remote', 'status', '--json'])
    expect(status.code).toBe(0)
    expect(status.json()).toMatchObject({mode: 'remote', server: replica.url.replace(/\/$/, ''), repo: REPO, from: 'config', keyFrom: 'home', reachable: true, memories: 0, outbox: {waiting: 0}})
    expect(status.stdout).not.toContain(key)
    const text = await mem(['remote', 'status'])
    expect(text.stdout).toContain(`goes to ${replica.url.replace(/\/$/, '')}, team repo ${REPO}`)

    const unset = await mem(['remote', 'unset', '--json'])
    expect(unset.json()).toEqual({removed: true, waiting: 0, keyForgotten: false})
    expect(existsSync(join(root, '.mem', 'remote.json'))).toBe(false)
    expect((await mem(['remote', 'status', '--json'])).json()).toMatchObject({mode: 'local', server: null})
    // a damaged mapping: every command says so (exit 2) and unset still gets out of it
    writeFileSync(join(root, '.mem', 'remote.json'), '{"server": "gopher://x", "repo": "github.com/acme/app"}')
    const damaged = await mem(['recall', 'anything', '--json'])
    expect([damaged.code, damaged.json().hint]).toEqual([2, expect.stringContaining('mem remote unset')])
    expect((await mem(['remote', 'unset', '--json'])).json()).toMatchObject({removed: true})
    // local again: a store goes to .mem/ with a local id
    const local = await mem(['store', 'Local again after unset', '-t', 'observation', '--json'])
    expect(local.json().id).toMatch(/^memories\/-[^/]+\/observation\//)
  })

  it('refuses a bad URL (2), an unreachable server (69), no key (2), a rejected key (77) and an unknown repo id shape (2), writing nothing', async () => {
    const {key, replica, root, mem} = await setup()
    const cases: Array<{args: string[]; code: number; error: RegExp}> = [
      {args: ['remote', 'set', 'ftp://mem.example.com', '--key', key, '--repo-id', REPO], code: 2, error: /must start with http:\/\/ or https:\/\//},
      {args: ['remote', 'set', 'not a url', '--key', key, '--repo-id', REPO], code: 2, error: /is not a URL/},
      {args: ['remote', 'set', 'http://me:pw@127.0.0.1:1', '--key', key, '--repo-id', REPO], code: 2, error: /carries a user or password/},
      {args: ['remote', 'set', `http://127.0.0.1:${await closedPort()}`, '--key', key, '--repo-id', REPO], code: 69, error: /cannot be reached/},
      {args: ['remote', 'set', replica.url, '--repo-id', REPO], code: 2, error: /No key for the team server/},
      {args: ['remote', 'set', replica.url, '--key', 'mem_not-a-key', '--repo-id', REPO], code: 77, error: /refused the key/},
      {args: ['remote', 'set', replica.url, '--key', key, '--repo-id', '/home/me/app'], code: 2, error: /never a path/},
      // a bare .git folder has no remote: the checkout has no team repo id
      {args: ['remote', 'set', replica.url, '--key', key], code: 2, error: /has no team repo id/},
    ]
    for (const c of cases) {
      const r = await mem([...c.args, '--json'])
      expect([c.args.join(' '), r.code]).toEqual([c.args.join(' '), c.code])
      expect(r.json().error).toMatch(c.error)
      expect(existsSync(join(root, '.mem', 'remote.json'))).toBe(false)
    }
  })

  it('a key of another repo list is refused (403, exit 77); MEM_SERVER + MEM_KEY override the mapping, with the id of .mem/team.yaml', async () => {
    const {db, key, replica, root, mem} = await setup()
    const scoped = await teamKey(db, 'acme', 'lib-only', 'write', ['github.com/acme/lib'])
    const refused = await mem(['remote', 'set', replica.url, '--key', scoped, '--repo-id', REPO, '--json'])
    expect(refused.code).toBe(77)
    expect(refused.json()).toMatchObject({code: 'forbidden'})

    mkdirSync(join(root, '.mem'))
    writeFileSync(join(root, '.mem', 'team.yaml'), 'id: github.com/acme/app  # committed: every clone agrees\n')
    const env = {MEM_SERVER: replica.url, MEM_KEY: key}
    const status = await mem(['remote', 'status', '--json'], {env})
    expect(status.json()).toMatchObject({mode: 'remote', from: 'env', keyFrom: 'env', repo: REPO, reachable: true})
    const stored = await mem(['store', 'The API listens on 8080 in dev', '-t', 'observation', '--json'], {env})
    expect(stored.code).toBe(0)
    expect(stored.json().id).toMatch(new RegExp(`^memories/${SEGMENT}/observation/[0-9a-f]{12}$`))
    expect(existsSync(join(root, '.mem', 'mem.db')) || existsSync(join(root, '.mem', 'journal'))).toBe(false)
  })

  it('the team repo id of a checkout: its normalized git remote (config/team-repo-id.ts), a hostile one refused', () => {
    const {root} = cliRepo()
    spawnSync('git', ['init', '-q', root])
    // the host's case rules: GitHub's names are one whatever their case, so every clone agrees
    spawnSync('git', ['-C', root, 'remote', 'add', 'origin', 'git@github.com:Acme/App.git'])
    expect(checkoutTeamRepoId(root)).toEqual({id: REPO, from: 'git remote'})
    spawnSync('git', ['-C', root, 'remote', 'set-url', 'origin', 'https://github.com/org/../../etc/passwd'])
    expect(() => checkoutTeamRepoId(root)).toThrow(/team repo id/)
    spawnSync('git', ['-C', root, 'remote', 'set-url', 'origin', '/srv/git/app.git'])
    expect(() => checkoutTeamRepoId(root)).toThrow(/team repo id/)
  })
})

describe('remote mode: the CLI goes to the team server', () => {
  it('store, recall, get, context, feedback, edit, forget and history answer from the server; the local store is not written', async () => {
    const {key, replica, root, mem} = await setup()
    expect((await mem(['remote', 'set', replica.url, '--key', key, '--repo-id', REPO])).code).toBe(0)

    const stored = await mem(['store', 'Integration tests need docker compose up db first', '-t', 'procedure', '--tags', 'testing', '--json'])
    expect(stored.code).toBe(0)
    const id: string = stored.json().id
    expect(id).toMatch(new RegExp(`^memories/${SEGMENT}/procedure/[0-9a-f]{12}$`))
    // on the server, through its own API
    expect((await api(replica.url, key, 'GET', `/api/mem/${enc(id)}`)).body.content).toBe('Integration tests need docker compose up db first')

    const recalled = await mem(['recall', 'docker compose', '--json'])
    expect(recalled.code).toBe(0)
    expect(recalled.json().results.map((r: any) => r.id)).toEqual([id])
    const recalledText = await mem(['recall', 'docker compose'])
    expect(recalledText.stdout).toContain('docker compose up db')

    expect((await mem(['get', id, '--json'])).json()).toMatchObject({id, content: 'Integration tests need docker compose up db first'})
    const context = await mem(['context', '--json'])
    expect([context.code, context.stdout]).toEqual([0, expect.stringContaining('[P]')])

    expect((await mem(['feedback', id, '--used', '--json'])).json()).toEqual({applied: true})
    expect((await api(replica.url, key, 'GET', `/api/mem/${enc(id)}`)).body.usedCount).toBe(1)

    const edited = await mem(['edit', id, '--content', 'Integration tests need docker compose up db and redis first', '--json'])
    expect(edited.code).toBe(0)
    const newId: string = edited.json().id
    expect(edited.json()).toMatchObject({success: true, superseded: id})
    expect((await mem(['history', newId, '--json'])).json().chain.map((c: any) => c.id)).toEqual([newId, id])

    // a duplicate is the server's answer (exit 0), a secret its refusal (exit 5)
    const dup = await mem(['store', 'Integration tests need docker compose up db and redis first', '-t', 'procedure', '--json'])
    expect(dup.json()).toMatchObject({success: false, duplicateId: newId})
    const secret = await mem(['store', 'token ghp_1234567890abcdefghijklmnopqrstuvwxyzAB for the bot', '-t', 'observation', '--json'])
    expect(secret.code).toBe(5)
    expect(secret.json()).toMatchObject({success: false, reason: expect.stringContaining('Rejected')})

    expect((await mem(['forget', newId, '--reason', 'moved to make', '--json'])).json()).toEqual({forgotten: true})
    expect((await mem(['recall', 'docker compose', '--json'])).json().results).toEqual([])
    // an unknown id: the server's 404, exit 3
    const missing = await mem(['get', `memories/${SEGMENT}/insight/000000000000`, '--json'])
    expect(missing.code).toBe(3)

    // nothing of this went to the local store
    expect(existsSync(join(root, '.mem', 'mem.db'))).toBe(false)
    expect(existsSync(join(root, '.mem', 'journal'))).toBe(false)
    expect(replica.internalErrors).toEqual([])
  })

  it('mem mcp (stdio) of the checkout stores and recalls on the server, with the key from MEM_KEY only', async () => {
    const {key, replica, root, home, mem} = await setup()
    const set = await mem(['remote', 'set', replica.url, '--repo-id', REPO, '--json'], {env: {MEM_KEY: key}})
    expect(set.json()).toMatchObject({key: 'env', keyFile: null})
    expect(existsSync(join(home, 'remote-keys.json'))).toBe(false)
    const {client} = await stdioMcpClient({cwd: root, home, tools: 'lean', env: {MEM_KEY: key}})
    const stored = await callTool(client, 'memory_store', {content: 'The worker queue is BullMQ on Redis 7', type: 'observation'})
    expect(stored.isError).toBe(false)
    const id = /memories\/[^\s]+/.exec(text(stored))?.[0]
    expect(id).toMatch(new RegExp(`^memories/${SEGMENT}/observation/[0-9a-f]{12}`))
    expect((await api(replica.url, key, 'GET', `/api/mem/recall?repo=${enc(REPO)}&q=BullMQ`)).body.results.map((r: any) => r.content)).toEqual(['The worker queue is BullMQ on Redis 7'])
    const recalled = await callTool(client, 'memory_recall', {query: 'worker queue BullMQ'})
    expect(text(recalled)).toContain('BullMQ on Redis 7')
    expect(existsSync(join(root, '.mem', 'mem.db'))).toBe(false)
  })

  it('a revoked key: every command fails 77 naming the fix', async () => {
    const {db, key, replica, mem} = await setup()
    expect((await mem(['remote', 'set', replica.url, '--key', key, '--repo-id', REPO])).code).toBe(0)
    const {revokeTeamKey} = await import('../../../src/operations/team.js')
    await revokeTeamKey(db, {team: 'acme', name: 'laptop'}, {now: new Date(), actor: 'test'})
    const r = await mem(['recall', 'anything at all', '--json'])
    expect(r.code).toBe(77)
    expect(r.json()).toMatchObject({code: 'unauthorized', hint: expect.stringContaining('mem remote set')})
    const status = await mem(['remote', 'status', '--json'])
    expect(status.code).toBe(0)
    expect(status.json()).toMatchObject({mode: 'remote', reachable: false, problem: expect.stringContaining('refused the key')})
  })
})

describe('remote mode offline: the outbox', () => {
  it('writes wait while the server cannot be reached and are replayed in order, once, by the next command that reaches it', async () => {
    const {url, key, replica, root, mem} = await setup()
    const relay = await tcpRelay(replica.url)
    expect((await mem(['remote', 'set', relay.url, '--key', key, '--repo-id', REPO])).code).toBe(0)
    const first = (await mem(['store', 'The staging database is reset every night at 02:00', '-t', 'observation', '--json'])).json().id as string

    await relay.down()
    const queued = await mem(['store', 'Release branches are cut on Thursdays', '-t', 'procedure', '--json'])
    expect([queued.code, queued.stdout, queued.stderr]).toEqual([0, expect.any(String), ''])
    expect(queued.json()).toMatchObject({queued: true, waiting: 1})
    const text = await mem(['store', 'Use pnpm, never npm, in this repo', '-t', 'heuristic'])
    expect(text.code).toBe(0)
    expect(text.stdout).toContain('Queued: the team server')
    expect((await mem(['feedback', first, '--used', '--json'])).json()).toMatchObject({queued: true, waiting: 3})
    expect((await mem(['forget', first, '--json'])).json()).toMatchObject({queued: true, waiting: 4})
    // a secret is refused here, never queued (and never written to the outbox)
    const secret = await mem(['store', 'token ghp_1234567890abcdefghijklmnopqrstuvwxyzAB for the bot', '-t', 'observation', '--json'])
    expect(secret.code).toBe(5)
    const reason = await mem(['forget', first, '--reason', 'rotated ghp_1234567890abcdefghijklmnopqrstuvwxyzAB', '--json'])
    expect([reason.code, reason.json().code]).toEqual([5, 'unprocessable'])
    expect(outboxFiles(root)).toHaveLength(4)
    for (const f of outboxFiles(root)) expect(readFileSync(join(root, '.mem', 'outbox', f), 'utf8')).not.toContain('ghp_')
    // a read cannot wait: 69 naming the outbox
    const read = await mem(['recall', 'release branches', '--json'])
    expect(read.code).toBe(69)
    expect(read.json().error).toContain('cannot be reached')
    const status = await mem(['remote', 'status', '--json'])
    expect(status.json()).toMatchObject({mode: 'remote', reachable: false, outbox: {waiting: 4}})
    expect((await mem(['remote', 'sync', '--json'])).code).toBe(69)
    expect(outboxFiles(root)).toHaveLength(4)

    await relay.up()
    const recall = await mem(['recall', 'release branches thursdays', '--json'])
    expect(recall.code).toBe(0)
    expect(recall.stderr).toContain('Sent 4 queued writes')
    expect(recall.json().results.map((r: any) => r.content)).toEqual(['Release branches are cut on Thursdays'])
    expect(outboxFiles(root)).toEqual([])

    // on the server: each write once, in the order made (the feedback before the forget), each op row with its request id
    // (every write of the CLI carries one: the first store too)
    const forgotten = (await api(replica.url, key, 'GET', `/api/mem/${enc(first)}`)).body
    expect([forgotten.usedCount, forgotten.forgottenAt !== null]).toEqual([1, true])
    const browse = (await api(replica.url, key, 'GET', `/api/mem/browse?repo=${enc(REPO)}`)).body
    expect(browse.entries.map((e: any) => e.content).sort()).toEqual(['Release branches are cut on Thursdays', 'Use pnpm, never npm, in this repo'])
    const ops = await rows(url, 'SELECT seq, request_id FROM ops WHERE team = $1 AND repo = $2 ORDER BY seq', ['acme', REPO])
    expect(ops.filter((r) => r.request_id !== null)).toHaveLength(5)
    expect(new Set(ops.map((r) => r.request_id).filter(Boolean)).size).toBe(5)
  })

  it('a replay of a write the server already took (the same request id) writes nothing again: sent twice, written once', async () => {
    const {url, key, replica, root, mem} = await setup()
    expect((await mem(['remote', 'set', replica.url, '--key', key, '--repo-id', REPO])).code).toBe(0)
    const id = (await mem(['store', 'Feature flags live in config/flags.yaml', '-t', 'observation', '--json'])).json().id as string
    const before = await rows(url, 'SELECT count(*)::int AS n FROM ops WHERE team = $1 AND repo = $2', ['acme', REPO])

    // the server took these, but the answers were lost (a crash before the outbox was settled): they are still queued
    const storeRid = 'b2f7c1de-0000-4000-8000-000000000001'
    const feedbackRid = 'b2f7c1de-0000-4000-8000-000000000002'
    const firstStore = await fetch(`${replica.url}/api/mem`, {method: 'POST', headers: {authorization: `Bearer ${key}`, 'content-type': 'application/json', 'idempotency-key': storeRid}, body: JSON.stringify({repo: REPO, type: 'procedure', content: 'Run make lint before every push'})})
    expect(firstStore.status).toBe(201)
    const storedId = ((await firstStore.json()) as {id: string}).id
    const firstFeedback = await fetch(`${replica.url}/api/mem/feedback`, {method: 'POST', headers: {authorization: `Bearer ${key}`, 'content-type': 'application/json', 'idempotency-key': feedbackRid}, body: JSON.stringify({memoryId: id, wasUsed: true})})
    expect(firstFeedback.status).toBe(200)
    enqueue(root, {requestId: storeRid, op: 'store', input: {repo: root, type: 'procedure', content: 'Run make lint before every push'}, queuedAt: new Date().toISOString()})
    enqueue(root, {requestId: feedbackRid, op: 'feedback', input: {memoryId: id, wasUsed: true}, queuedAt: new Date().toISOString()})
    expect(listOutbox(root).map((e) => e.requestId)).toEqual([storeRid, feedbackRid])

    const sync = await mem(['remote', 'sync', '--json'])
    expect(sync.code).toBe(0)
    expect(sync.json()).toEqual({sent: 2, refused: 0, waiting: 0})
    const after = await rows(url, 'SELECT count(*)::int AS n FROM ops WHERE team = $1 AND repo = $2', ['acme', REPO])
    expect(after[0].n - before[0].n).toBe(2) // the two first sends; the replays appended nothing
    expect((await api(replica.url, key, 'GET', `/api/mem/${enc(id)}`)).body.usedCount).toBe(1)
    const browse = (await api(replica.url, key, 'GET', `/api/mem/browse?repo=${enc(REPO)}`)).body
    expect(browse.entries.filter((e: any) => e.content === 'Run make lint before every push').map((e: any) => e.id)).toEqual([storedId])
  })

  it('the session hook answers from the last context it received, marked as such, while the server is unreachable; the prompt hook asks the server', async () => {
    const {key, replica, root, home, mem} = await setup()
    const relay = await tcpRelay(replica.url)
    expect((await mem(['remote', 'set', relay.url, '--key', key, '--repo-id', REPO])).code).toBe(0)
    expect((await mem(['store', 'Migrations run with npm run db:migrate', '-t', 'procedure'])).code).toBe(0)
    // a process of its own, waited for without blocking this one (the replica answers from this process)
    const hook = (session: string, event = 'session-start', prompt?: string) =>
      new Promise<{status: number | null; stdout: string; stderr: string}>((resolve) => {
        const child = spawn(process.execPath, [BIN, 'hook', event, '--host', 'opencode', '--debug'], {cwd: root, env: {...process.env, MEM_HOME: home, MEM_REPO: '', ...CLEAN}})
        let stdout = ''
        let stderr = ''
        child.stdout.on('data', (d: Buffer) => (stdout += d))
        child.stderr.on('data', (d: Buffer) => (stderr += d))
        child.on('close', (status) => resolve({status, stdout, stderr}))
        child.stdin.end(JSON.stringify({session_id: session, cwd: root, ...(prompt ? {prompt} : {})}))
      })
    const online = await hook('s1')
    expect([online.status, online.stderr]).toEqual([0, ''])
    expect(online.stdout).toContain(`team server ${relay.url.replace(/\/$/, '')}`)
    expect(online.stdout).toContain('db:migrate')

    // at prompt time: the server's recall under the local hook's bars; a memory the session's context showed is not shown again
    const prompt = 'how do I run the db migrations with npm?'
    const fresh = await hook('s9', 'prompt', prompt)
    expect([fresh.status, fresh.stderr]).toEqual([0, ''])
    expect(fresh.stdout).toContain('Memories relevant to this prompt (mem, team server)')
    expect(fresh.stdout).toMatch(new RegExp(`\\[P\\] Migrations run with npm run db:migrate \\[memories/${SEGMENT}/procedure/[0-9a-f]{12}\\]`))
    expect((await hook('s9', 'prompt', prompt)).stdout).toBe('')
    expect((await hook('s1', 'prompt', prompt)).stdout).toBe('')
    expect((await hook('s8', 'prompt', 'what colour is the office carpet today?')).stdout).toBe('')

    await relay.down()
    expect((await hook('s7', 'prompt', prompt)).stdout).toBe('')
    const offline = await hook('s2')
    expect(offline.status).toBe(0)
    expect(offline.stderr).toContain('the team server did not answer')
    expect(offline.stdout).toContain('cannot be reached: this is the context it gave at')
    expect(offline.stdout).toContain('db:migrate')
    // the local store was never written: the context came from the server, then from the kept copy
    expect(existsSync(join(root, '.mem', 'mem.db'))).toBe(false)
  })
})

  it('the prompt hook leaves out a memory the agent keeps reporting unused, by the counts the server has', async () => {
    const {key, replica, root, home, mem} = await setup()
    expect((await mem(['remote', 'set', replica.url, '--key', key, '--repo-id', REPO])).code).toBe(0)
    const id = (await mem(['store', 'Migrations run with npm run db:migrate', '-t', 'procedure', '--json'])).json().id as string
    const prompt = (session: string) =>
      new Promise<{status: number | null; stdout: string; stderr: string}>((resolve) => {
        const child = spawn(process.execPath, [BIN, 'hook', 'prompt', '--host', 'opencode', '--debug'], {cwd: root, env: {...process.env, MEM_HOME: home, MEM_REPO: '', ...CLEAN}})
        let stdout = ''
        let stderr = ''
        child.stdout.on('data', (d: Buffer) => (stdout += d))
        child.stderr.on('data', (d: Buffer) => (stderr += d))
        child.on('close', (status) => resolve({status, stdout, stderr}))
        child.stdin.end(JSON.stringify({session_id: session, cwd: root, prompt: 'how do I run the db migrations with npm?'}))
      })
    const feedback = async (wasUsed: boolean) => expect((await api(replica.url, key, 'POST', '/api/mem/feedback', {memoryId: id, wasUsed})).status).toBe(200)
    // shown once (its counts then recorded), reported unused twice: not shown in the next session
    expect((await prompt('s1')).stdout).toContain('Migrations run with npm run db:migrate')
    await feedback(false)
    await feedback(false)
    const skipped = await prompt('s2')
    expect([skipped.status, skipped.stderr, skipped.stdout]).toEqual([0, '', ''])
    // used once since: shown again
    await feedback(true)
    expect((await prompt('s3')).stdout).toContain('Migrations run with npm run db:migrate')
  })

describe('moving in: mem remote push', () => {
  it('moves the live memories, their feedback counts and links once; a second push adds nothing; update chains arrive as their newest version', async () => {
    const {key, replica, mem} = await setup()
    // a local store first: three live memories, one of them the newest of an update chain, with feedback and a link
    const a = (await mem(['store', 'CI runs on GitHub Actions with the ubuntu-latest image', '-t', 'observation', '--json'])).json().id as string
    const b = (await mem(['store', 'Deploys go through ArgoCD from the main branch', '-t', 'procedure', '--json'])).json().id as string
    const old = (await mem(['store', 'Node 18 is the runtime of the API service', '-t', 'observation', '--json'])).json().id as string
    const v2 = (await mem(['edit', old, '--content', 'Node 20 is the runtime of the API service', '--json'])).json().id as string
    expect(v2).not.toBe(old)
    for (const used of ['--used', '--used', '--unused']) expect((await mem(['feedback', a, used])).code).toBe(0)
    expect((await mem(['feedback', b, '--unused'])).code).toBe(0)
    expect((await mem(['links', 'attach', a, b, '--relation', 'related'])).code).toBe(0)

    expect((await mem(['remote', 'set', replica.url, '--key', key, '--repo-id', REPO])).code).toBe(0)
    const push = await mem(['remote', 'push', '--json'])
    expect(push.code).toBe(0)
    expect(push.json()).toEqual({server: replica.url.replace(/\/$/, ''), repo: REPO, exported: 3, imported: 3, skipped: 0, feedback: 4, links: 1})
    const teamEntries = async () => (await api(replica.url, key, 'GET', `/api/mem/browse?repo=${enc(REPO)}`)).body.entries as any[]
    const moved = async () => {
      const entries = await teamEntries()
      const by = (text: string) => entries.find((e) => e.content.startsWith(text))
      const [ta, tb] = [by('CI runs'), by('Deploys go')]
      return {
        contents: entries.map((e) => e.content).sort(),
        counts: [ta.usedCount, ta.unusedCount, tb.usedCount, tb.unusedCount],
        links: ta.links.map((l: any) => [l.targetId === tb.id, l.relation]),
        supersedes: entries.map((e) => e.supersedes),
      }
    }
    const first = await moved()
    expect(first).toEqual({
      contents: ['CI runs on GitHub Actions with the ubuntu-latest image', 'Deploys go through ArgoCD from the main branch', 'Node 20 is the runtime of the API service'],
      counts: [2, 1, 0, 1],
      links: [[true, 'related']],
      // the chain's superseded version stays local: the newest arrives alone
      supersedes: [null, null, null],
    })

    // pushed again: the calls are sent again with the same request ids, and nothing is written twice
    const again = await mem(['remote', 'push', '--json'])
    expect(again.json()).toMatchObject({exported: 3, imported: 0, skipped: 3, feedback: 4, links: 1})
    expect(await moved()).toEqual(first)
    // a report made since the first push moves on the next one, alone
    expect((await mem(['remote', 'unset'])).code).toBe(0)
    expect((await mem(['feedback', a, '--used'])).code).toBe(0)
    expect((await mem(['remote', 'set', replica.url, '--key', key, '--repo-id', REPO])).code).toBe(0)
    expect((await mem(['remote', 'push', '--json'])).json()).toMatchObject({imported: 0, feedback: 5})
    expect((await moved()).counts).toEqual([3, 1, 0, 1])
  })
})
