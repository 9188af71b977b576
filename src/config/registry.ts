import {existsSync, mkdirSync, readFileSync} from 'node:fs'
import {join} from 'node:path'
import {writeAtomic} from '../storage/files.js'
import {loadYaml} from './yaml.js'

/**
 * The user-wide registry of repositories mem has touched (`MEM_HOME/repos.yaml`: repo id → path),
 * which `mem repos` and `GET /api/mem/repos` list and the server uses to find a repo by id.
 * Entries are written one per line as JSON-quoted YAML, so checking for an entry is a substring test
 * and the YAML parser is loaded only when the file must change or was edited by hand.
 */
export class Registry {
  readonly file: string

  constructor(readonly home: string) {
    this.file = join(home, 'repos.yaml')
  }

  private static line(id: string, path: string): string {
    return `${JSON.stringify(id)}: ${JSON.stringify(path)}`
  }

  private readText(): string {
    try {
      return readFileSync(this.file, 'utf8')
    } catch {
      return ''
    }
  }

  /** Is `id → path` recorded? (the cheap test done on every command) */
  has(id: string, path: string): boolean {
    return this.readText().split('\n').includes(Registry.line(id, path))
  }

  async entries(): Promise<Map<string, string>> {
    const text = this.readText()
    const out = new Map<string, string>()
    if (!text.trim()) return out
    const {parse} = await loadYaml()
    const doc = parse(text) as Record<string, unknown> | null
    if (doc && typeof doc === 'object') {
      for (const [id, path] of Object.entries(doc)) if (typeof path === 'string') out.set(id, path)
    }
    return out
  }

  async lookup(id: string): Promise<string | undefined> {
    const text = this.readText()
    if (!text.includes(JSON.stringify(id))) return undefined
    return (await this.entries()).get(id)
  }

  /** Records `id → path` (under a lock, so concurrent processes never drop each other's entries). */
  async register(id: string, path: string): Promise<void> {
    if (this.has(id, path)) return
    await this.change((entries) => {
      entries.set(id, path)
    })
  }

  /**
   * Gives `path` the first of `candidates` that no other folder holds (`heldByAnother(registered)`
   * says whether the folder an entry names still owns its id), records it, and returns it: under the
   * registry's lock, so two processes never hand one id to two folders (config/repo-identity.ts).
   * An entry that already maps a candidate to `path` is kept as it is.
   */
  async claim(candidates: string[], path: string, heldByAnother: (registeredPath: string | undefined) => boolean): Promise<string> {
    for (const id of candidates) if (this.has(id, path)) return id
    let chosen: string | undefined
    await this.change((entries) => {
      chosen = candidates.find((id) => !heldByAnother(entries.get(id)))
      if (chosen === undefined) throw new Error(`no free repo id for ${path}`)
      entries.set(chosen, path)
    })
    return chosen as string
  }

  /** Rewrites the registry under its lock with what `edit` makes of its entries. */
  private async change(edit: (entries: Map<string, string>) => void): Promise<void> {
    mkdirSync(this.home, {recursive: true})
    if (!existsSync(this.file)) writeAtomic(this.file, Buffer.from(`${HEADER}\n`))
    // loaded only when the registry changes: most commands find their entry already there
    const {default: lockfile} = await import('proper-lockfile')
    const release = await lockfile.lock(this.file, {
      stale: 5_000,
      retries: {retries: 200, factor: 1.2, minTimeout: 2, maxTimeout: 50, randomize: true},
    })
    try {
      const entries = await this.entries()
      edit(entries)
      const lines = [HEADER]
      for (const [k, v] of [...entries].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) lines.push(Registry.line(k, v))
      writeAtomic(this.file, Buffer.from(`${lines.join('\n')}\n`))
    } finally {
      await release()
    }
  }
}

const HEADER = '# mem: repositories this user has stored memories for (repo id: path)'
