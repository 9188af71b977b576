import {existsSync, mkdirSync, readFileSync} from 'node:fs'
import {join} from 'node:path'
import lockfile from 'proper-lockfile'
import {z} from 'zod'
import {MemError} from '../model/errors.js'
import {writeAtomic} from '../storage/files.js'
import {loadYaml} from './yaml.js'
import {MAX_EMBED_DIMS} from './limits.js'
import {isAbsolute} from 'node:path'

export const SCOPES = ['read', 'write', 'admin'] as const
export type Scope = (typeof SCOPES)[number]

export const DEFAULT_REGISTRY = 'https://registry.npmjs.org'

/** One API key as stored: never the key itself, only its sha-256. */
export interface ApiKeyRecord {
  name: string
  scope: Scope
  /** sha-256 of the key, hex. */
  hash: string
  /** The key's first characters, to tell keys apart in `mem keys list`. */
  prefix: string
  created: string
}

/** The user config (`MEM_HOME/config.yaml`) as the code uses it: every setting resolved. */
export interface UserConfig {
  auth: {enabled: boolean; keys: ApiKeyRecord[]}
  update: {check: boolean; registry: string}
  /** The enrichment runtime; null when enrichment is off (the default). */
  enrichment: EnrichmentConfig | null
  /** MCP: which tools `mem mcp` and `POST /mcp` list (the lean default set, or all); `--tools` wins. */
  mcp: {tools: 'lean' | 'all'}
  /**
   * The meaning model (engines/meaning): `meaning.model` builtin (the default), off, local (with
   * `meaning.dir`) or runtime; without a `meaning:` key, the enrichment runtime's embedding model
   * when `enrichment.embeddings.enabled` is true, else the built-in one.
   */
  meaning: MeaningSetting
  /** The team store's Postgres URL (`store:`), or null (local mode). `--store` and MEM_STORE win over it. */
  store: string | null
  /** Team mode: the most repos a replica keeps hot (`hotRepos:`), or null for the default. MEM_HOT_REPOS wins over it. */
  hotRepos: number | null
}

/**
 * Which model recall and update detection use for meaning (engines/meaning): the built-in model
 * (the default), none (`off`: exactly the lexical behaviour), a local model directory the user
 * brings, or the embedding model of the enrichment runtime.
 */
export type MeaningSetting = ({model: 'off'} | {model: 'static'} | {model: 'builtin'} | {model: 'local'; dir: string} | {model: 'runtime'}) & {
  /**
   * `meaning.floor`: the least cosine with the question a memory that holds none of its words needs
   * to be returned (MeaningModel.onlyFloor); unset, the model's own (docs/meaning.md).
   */
  floor?: number
}

export const ENRICH_PROVIDERS = ['ollama', 'openai'] as const
export type EnrichProvider = (typeof ENRICH_PROVIDERS)[number]

/** A local language-model runtime: Ollama's API or any OpenAI-compatible endpoint. */
export interface EnrichmentConfig {
  provider: EnrichProvider
  /** Base URL, e.g. http://127.0.0.1:11434 (Ollama) or http://127.0.0.1:8080/v1 (OpenAI-compatible). */
  url: string
  model: string
  /** Per request, in milliseconds. */
  timeoutMs: number
  /**
   * Embeddings from the same runtime as a second recall signal; absent or null when off (the
   * default). See docs/enrichment.md (Embeddings).
   */
  embeddings?: EmbeddingsConfig | null
}

/** An embedding model on the enrichment runtime (same provider and URL). */
export interface EmbeddingsConfig {
  model: string
  /** The vector length the model must answer with; null takes whatever it answers (consistently). */
  dims: number | null
  /** How long recall waits for the query's vector before it answers without it, in milliseconds. */
  timeoutMs: number
}

export const ENRICH_DEFAULTS = {
  ollama: {url: 'http://127.0.0.1:11434', model: 'llama3.2'},
  openai: {url: 'http://127.0.0.1:8080/v1', model: 'default'},
  timeoutMs: 30_000,
  embeddings: {ollama: 'nomic-embed-text', openai: 'default', timeoutMs: 2_000},
} as const

// The file as written: everything optional, unknown keys kept (other features own them).
const KeyRecordSchema = z.object({
  name: z.string().min(1),
  scope: z.enum(SCOPES),
  hash: z.string().regex(/^[0-9a-f]{64}$/, 'must be a sha-256 in hex'),
  prefix: z.string().default(''),
  created: z.string().default(''),
})
const WrittenConfig = z.looseObject({
  store: z.string().min(1, 'must be a postgres:// URL').nullish(),
  hotRepos: z.number({error: 'must be a whole number from 1 to 100000'}).int('must be a whole number from 1 to 100000').min(1, 'must be a whole number from 1 to 100000').max(100_000, 'must be a whole number from 1 to 100000').nullish(),
  auth: z.looseObject({enabled: z.boolean().optional(), keys: z.array(KeyRecordSchema).optional()}).nullish(),
  update: z.looseObject({check: z.boolean().optional(), registry: z.url().optional()}).nullish(),
  mcp: z.looseObject({tools: z.enum(['lean', 'all'], {error: 'must be lean or all'}).optional()}).nullish(),
  meaning: z
    .looseObject({
      model: z.enum(['static', 'builtin', 'off', 'local', 'runtime'], {error: 'must be static, builtin, off, local or runtime'}).optional(),
      dir: z.string().min(1).refine((d) => isAbsolute(d), 'must be an absolute path').optional(),
      floor: z.number({error: 'must be a number from 0 to 1'}).min(0, 'must be a number from 0 to 1').max(1, 'must be a number from 0 to 1').optional(),
    })
    .refine((m) => m.model !== 'local' || m.dir !== undefined, {message: 'model local needs dir: the absolute path of the model directory', path: ['dir']})
    .nullish(),
  enrichment: z
    .looseObject({
      enabled: z.boolean().optional(),
      provider: z.enum([...ENRICH_PROVIDERS, 'off'], {error: 'must be ollama, openai or off'}).optional(),
      url: z.url({protocol: /^https?$/, error: 'must be an http(s) URL'}).optional(),
      model: z.string().min(1).optional(),
      timeoutMs: z.number().int().min(100, 'must be at least 100').max(600_000, 'must be at most 600000').optional(),
      embeddings: z
        .looseObject({
          enabled: z.boolean().optional(),
          model: z.string().min(1).optional(),
          dims: z.number().int().min(1, 'must be at least 1').max(MAX_EMBED_DIMS, `must be at most ${MAX_EMBED_DIMS}`).optional(),
          timeoutMs: z.number().int().min(50, 'must be at least 50').max(600_000, 'must be at most 600000').optional(),
        })
        .nullish(),
    })
    .nullish(),
})

export function userConfigPath(home: string): string {
  return join(home, 'config.yaml')
}

/**
 * Reads and resolves the user config. A missing file means every default; an unreadable or
 * invalid one is an error that names the file (never silently ignored: it holds the API keys).
 * Auth is on when `auth.enabled` says so, else as soon as a key exists.
 */
export async function readUserConfig(home: string): Promise<UserConfig> {
  return readUserConfigWith(home, (await loadYaml()).parse)
}

/** `readUserConfig` with the YAML parser at hand: synchronous, for checks on every request. */
export function readUserConfigWith(home: string, parse: (text: string) => unknown): UserConfig {
  const file = userConfigPath(home)
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return resolveConfig({})
    throw new MemError('unavailable', `Cannot read ${file}: ${(err as Error).message}`, {hint: 'Check its permissions.'})
  }
  let doc: unknown
  try {
    doc = parse(text) ?? {}
  } catch (err) {
    throw invalidConfig(file, (err as Error).message.split('\n')[0])
  }
  const parsed = WrittenConfig.safeParse(doc)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    throw invalidConfig(file, `${issue.path.join('.')}: ${issue.message}`)
  }
  return resolveConfig(parsed.data)
}

function resolveConfig(written: z.output<typeof WrittenConfig>): UserConfig {
  const keys = (written.auth?.keys ?? []) as ApiKeyRecord[]
  return {
    auth: {enabled: written.auth?.enabled ?? keys.length > 0, keys},
    update: {check: written.update?.check ?? true, registry: (written.update?.registry ?? DEFAULT_REGISTRY).replace(/(?<!\/)\/+$/, '')},
    enrichment: resolveEnrichment(written.enrichment),
    mcp: {tools: written.mcp?.tools ?? 'lean'},
    meaning: resolveMeaning(written),
    store: written.store ?? null,
    hotRepos: written.hotRepos ?? null,
  }
}

function resolveMeaning(written: z.output<typeof WrittenConfig>): MeaningSetting {
  const m = written.meaning
  const floor = m?.floor === undefined ? {} : {floor: m.floor}
  if (m?.model === 'local') return {model: 'local', dir: m.dir!, ...floor}
  if (m?.model) return {model: m.model, ...floor}
  // without a model named: the enrichment runtime's embedding model when that is on, else the
  // built-in model (on by default: docs/meaning.md)
  if (resolveEnrichment(written.enrichment)?.embeddings) return {model: 'runtime', ...floor}
  return {model: 'builtin', ...floor}
}

/** Enrichment is on when a provider is set and `enabled` is not false. */
function resolveEnrichment(e: z.output<typeof WrittenConfig>['enrichment']): EnrichmentConfig | null {
  if (!e || !e.provider || e.provider === 'off' || e.enabled === false) return null
  const defaults = ENRICH_DEFAULTS[e.provider]
  const embeddings = resolveEmbeddings(e.provider, e.embeddings)
  return {
    provider: e.provider,
    url: (e.url ?? defaults.url).replace(/(?<!\/)\/+$/, ''),
    model: e.model ?? defaults.model,
    timeoutMs: e.timeoutMs ?? ENRICH_DEFAULTS.timeoutMs,
    // present only when on, so a config without embeddings resolves exactly as before
    ...(embeddings ? {embeddings} : {}),
  }
}

/** Embeddings are on only when `enrichment.embeddings.enabled` is true (off by default). */
function resolveEmbeddings(provider: EnrichProvider, e: NonNullable<z.output<typeof WrittenConfig>['enrichment']>['embeddings']): EmbeddingsConfig | null {
  if (!e || e.enabled !== true) return null
  return {model: e.model ?? ENRICH_DEFAULTS.embeddings[provider], dims: e.dims ?? null, timeoutMs: e.timeoutMs ?? ENRICH_DEFAULTS.embeddings.timeoutMs}
}

function invalidConfig(file: string, why: string): MemError {
  return new MemError('invalid_input', `The config ${file} is not valid: ${why}`, {hint: 'Fix the file by hand; nothing was changed.'})
}

/**
 * Changes the user config under a lock, keeping every other setting and comment: `change`
 * receives the parsed YAML document (the `yaml` package's Document) and edits it in place.
 * The file is replaced atomically.
 */
export async function updateUserConfig<T>(home: string, change: (doc: import('yaml').Document, config: UserConfig) => T): Promise<T> {
  const file = userConfigPath(home)
  mkdirSync(home, {recursive: true})
  if (!existsSync(file)) writeAtomic(file, Buffer.from('# mem user configuration\n'))
  const release = await lockfile.lock(file, {
    stale: 5_000,
    retries: {retries: 100, factor: 1.2, minTimeout: 5, maxTimeout: 100, randomize: true},
  })
  try {
    const config = await readUserConfig(home)
    const {parseDocument} = await loadYaml()
    const doc = parseDocument(readFileSync(file, 'utf8'))
    const result = change(doc, config)
    writeAtomic(file, Buffer.from(doc.toString()))
    return result
  } finally {
    await release()
  }
}
