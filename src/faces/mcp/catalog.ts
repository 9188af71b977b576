/**
 * The MCP tool catalog over the core: one tool per core operation, with a description written for
 * a model, the core's own input schema (as JSON Schema), the HTTP response schema as its output
 * schema, and a readable rendering of the result. Pure data and functions: no MCP SDK here, so
 * the catalog can be listed, documented and tested without loading the SDK.
 */
import {z} from 'zod'
import type {MemContext} from '../../engines/context.js'
import {ops} from '../../operations/catalog/index.js'
import {invoke, type OpDef, outcomeOf} from '../../operations/define.js'
import * as R from './render.js'
import {MemError} from '../../model/errors.js'
import {RECALL_LIMIT_RANGE, RECALL_LIMITS} from '../../model/inputs.js'

export type JsonSchema = Record<string, unknown>

/**
 * How a tool's `repo` argument relates to the session's repository:
 * - `bound`: the operation needs a repo; when the agent leaves `repo` out, the session's is used;
 * - `hint`: the operation finds the repo from the memory id; the session's repo only helps resolve it;
 * - `none`: the operation is not repo-scoped.
 */
type RepoUse = 'bound' | 'hint' | 'none'

export interface ToolDef {
  name: string
  title: string
  description: string
  /** The operation the tool runs: its input schema (the core validates the arguments with it), output schema and outcomes. */
  op: OpDef<any, any, any>
  /** Notes for a model on some arguments; every key must be a property of the operation's input. */
  argNotes?: Record<string, string>
  repo: RepoUse
  /**
   * The lean default set (decisions.md, MCP): at most six tools, listed with `brief` as their
   * description and no output schema, so tools/list stays under 2,000 tokens. The others are
   * listed with `mem mcp --tools all` (or `mcp.tools: all` in the user config).
   */
  lean?: {brief: string}
  /**
   * The argument vocabulary shared by every tool (`id`, `query`, `used`) where the operation's own
   * field has another name: vocabulary name → the operation's field (recall's `q`, feedback's
   * `memoryId` and `wasUsed`). tools/list shows the vocabulary's name; a call may use either.
   */
  rename?: Record<string, string>
  annotations: {readOnlyHint: boolean; destructiveHint?: boolean; idempotentHint?: boolean; openWorldHint: false}
  /** A readable rendering for the model; `args` are as the agent gave them (repo filled in). */
  render(result: never, args: Record<string, unknown>): string
}

/** Runs a tool's operation through `invoke` (usage counted as declared). */
export function runTool(def: ToolDef, ctx: MemContext, args: Record<string, unknown>): Promise<unknown> {
  return invoke(ctx, def.op, args)
}

/** The specification's argument names, taken by every tool as the vocabulary's (decisions.md, MCP). */
export const SPEC_NAMES: Readonly<Record<string, string>> = {q: 'query', memoryId: 'id', wasUsed: 'used'}

/**
 * The arguments a call gave, in the operation's own names: the specification's names (`q`,
 * `memoryId`, `wasUsed`) and the vocabulary's (`query`, `id`, `used`) are both taken; the same
 * argument given twice with different values is refused rather than guessed.
 */
export function toOperationArgs(def: ToolDef, args: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {...args}
  const opFields = new Set(Object.values(def.rename ?? {}))
  for (const [spec, vocab] of Object.entries(SPEC_NAMES)) {
    // a name that is the operation's own field (recall's q) is left for the rename below
    if (!(spec in out) || opFields.has(spec) && !(vocab in out)) continue
    if (vocab in out && out[vocab] !== out[spec]) {
      throw new MemError('invalid_input', `Give ${vocab} or ${spec}, not both: they name the same argument.`, {hint: `Pass only ${vocab}.`})
    }
    out[vocab] ??= out[spec]
    delete out[spec]
  }
  for (const [vocab, field] of Object.entries(def.rename ?? {})) {
    if (!(vocab in out)) continue
    if (field in out && out[field] !== out[vocab]) {
      throw new MemError('invalid_input', `Give ${vocab} or ${field}, not both: they name the same argument.`, {hint: `Pass only ${vocab}.`})
    }
    out[field] ??= out[vocab]
    delete out[vocab]
  }
  return out
}

/** Outcomes that are answers but not successes (a rejected store) are tool errors, as the declaration says. */
export function isToolError(def: ToolDef, result: unknown): boolean {
  return outcomeOf(def.op, result).failed
}

const READ = {readOnlyHint: true, idempotentHint: true, openWorldHint: false} as const
const WRITE = {readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false} as const

const REPO_NOTE =
  'Repository path or repo id. Leave it out to use this session\'s repository (the one `mem mcp --repo` or the client\'s first root names, else the working directory).'

function tool<D extends OpDef<any, any, any>>(def: Omit<ToolDef, 'op' | 'render'> & {op: D; render(result: D extends OpDef<any, infer O, any> ? O : never, args: Record<string, unknown>): string}): ToolDef {
  return def as unknown as ToolDef
}

/** Every tool, in the order `tools/list` shows them. */
export const TOOLS: ToolDef[] = [
  tool({
    name: 'memory_context',
    op: ops.context,
    title: 'Load the session context',
    description:
      'Call once at the start of a session, before working: returns this repository\'s memory digest (under 600 tokens by default): a counts line, then one line per memory, best first, prefixed [I] insight, [P] procedure, [H] heuristic, [O] observation. Read it as background knowledge about the project; use memory_recall for anything specific.',
    argNotes: {tokens: 'Token budget of the context (default 600).'},
    repo: 'bound',
    lean: {brief: 'Call once at session start: this repo\'s memory digest (< 600 tokens), one line per memory, best first: [I] insight, [P] procedure, [H] heuristic, [O] observation, each ending with its [ref] (give it to memory_feedback or memory_get as id).'},
    annotations: READ,
    render: (r) => r.context,
  }),
  tool({
    name: 'memory_recall',
    op: ops.recall,
    title: 'Recall memories',
    description:
      'Search this repository\'s memories before a task, or whenever you wonder how something works here, why it was done, or what went wrong last time. Ask in your own words (e.g. "how do I run the integration tests?"). Returns the best matches first, each with its id, type, score (0..1), full content and age; a staleness warning means nobody confirmed it recently, so verify it. Afterwards report with memory_feedback whether each memory you read helped.',
    argNotes: {q: 'The question or keywords, in natural language.', limit: `How many results (${RECALL_LIMIT_RANGE}, default ${RECALL_LIMITS.defaultLimit}).`, type: 'Only memories of this type.'},
    repo: 'bound',
    rename: {query: 'q'},
    lean: {brief: 'Search this repo\'s memories before a task or when you wonder how something works here or what went wrong before. Ask in your own words. Best matches first, each with id, type, score, content, age; verify one with a staleness warning. Then report each one you read with memory_feedback.'},
    annotations: {...READ, idempotentHint: false},
    render: (r, args) => R.renderRecall(r.results, String(args.q ?? '')),
  }),
  tool({
    name: 'memory_store',
    op: ops.store,
    title: 'Store a memory',
    description:
      'Save a lesson that will help in a later session: how the build or tests really work, a flaky test and its cause, a decision and its reason, a command that works, a pitfall. One self-contained fact per memory, short, in plain words, with tags. Pick the type: observation (something seen once), insight (a conclusion drawn from several observations), procedure (steps that work), heuristic (a rule of thumb). Never store secrets, tokens or personal data: content the secret scanner flags is rejected. A memory that repeats a stored one is not stored again: the answer names the existing id (duplicateId). To replace an outdated memory, pass its id as supersedes (or use memory_edit).',
    argNotes: {
      content: 'The memory text (up to 16,000 characters); one fact, self-contained.',
      tags: 'A few lowercase keywords (e.g. ["ci", "tests"]).',
      importance: '0.0 to 1.0 (default 0.5); raise it for things that cost real time when forgotten.',
      source: 'Who stored it (default "claude-session").',
      sessionId: 'Your session id, if you have one.',
      supersedes: 'Id (or ref) of a live memory this one replaces.',
    },
    repo: 'bound',
    lean: {brief: 'Save one short, self-contained lesson a later session needs (how the build or tests really work, a flaky test and its cause, a decision and why, a command that works, a pitfall), with tags and a type: observation (seen once), insight (a conclusion), procedure (steps that work), heuristic (a rule of thumb). Never secrets. A repeat is not stored (duplicateId).'},
    annotations: WRITE,
    render: (r) => R.renderStore(r),
  }),
  tool({
    name: 'memory_feedback',
    op: ops.feedback,
    title: 'Report whether a memory helped',
    description:
      'After using memories from memory_recall or memory_context, report for each one you read whether it was actually useful (wasUsed true) or not (false). Used memories rank higher next time; memories that keep being unhelpful sink. Returns applied: false for a memory that was forgotten or replaced.',
    argNotes: {memoryId: 'The id of the recalled memory, or its ref (a unique key prefix, as the context shows).', wasUsed: 'true if it helped with the task, false if not.'},
    repo: 'hint',
    rename: {id: 'memoryId', used: 'wasUsed'},
    lean: {brief: 'After a task, report for each memory you read (from memory_recall or the context) whether it helped: used true or false. Useful ones rise; unhelpful ones stop being shown.'},
    annotations: WRITE,
    render: (r, args) => (r.applied ? `Feedback recorded for ${args.memoryId}: ${args.wasUsed ? 'used' : 'not used'}.` : `Not applied: ${args.memoryId} was forgotten or superseded.`),
  }),
  tool({
    name: 'memory_get',
    op: ops.get,
    title: 'Read one memory',
    description:
      'Read one memory by id with all its fields: content, type, tags, importance, usage counts, and whether it was superseded (then supersededBy names the newer version) or forgotten. Works for superseded and forgotten memories too.',
    repo: 'hint',
    lean: {brief: 'Read one memory with all its fields, by id or by the ref a context line ends with.'},
    annotations: READ,
    render: (r) => R.renderMemory(r),
  }),
  tool({
    name: 'memory_edit',
    op: ops.edit,
    title: 'Correct a memory',
    description:
      'Correct or update a memory that is wrong or outdated. New content creates a new version with a new id that supersedes the old one (the answer gives both ids; history keeps the old text); changing only tags or importance updates it in place. Give at least one of content, tags, importance.',
    argNotes: {content: 'The corrected text: creates a new version.', tags: 'Replaces the tags.', importance: '0.0 to 1.0.'},
    repo: 'hint',
    lean: {brief: 'Correct a wrong or outdated memory (by id or ref): new content makes a new version that replaces it; tags or importance alone change in place.'},
    annotations: WRITE,
    render: (r) => R.renderEdit(r),
  }),
  tool({
    name: 'memory_forget',
    op: ops.forget,
    title: 'Forget a memory',
    description:
      'Forget a memory that is wrong and should not be corrected, or no longer applies. It stops appearing in recall, context and browse but stays readable by id and in history (soft delete). Give a short reason.',
    argNotes: {reason: 'Why it is forgotten (kept with the memory).'},
    repo: 'hint',
    annotations: {readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false},
    render: (r, args) => (r.forgotten ? `Forgot ${args.id}.` : `${args.id} was already forgotten.`),
  }),
  tool({
    name: 'memory_history',
    op: ops.history,
    title: 'Version history of a memory',
    description: 'The version chain of a memory, newest first, from the id of any version: how a lesson was corrected over time.',
    repo: 'hint',
    annotations: READ,
    render: (r) => R.renderHistory(r.chain),
  }),
  tool({
    name: 'memory_browse',
    op: ops.browse,
    title: 'List memories',
    description:
      'List this repository\'s live memories, newest first, a page at a time (skip/take), optionally of one type. Use it to review or tidy the store; to find something specific use memory_recall. `count` is the total matching, not the page size.',
    argNotes: {skip: 'How many to skip (default 0).', take: 'Page size, 1 to 500 (default 50).', type: 'Only memories of this type.'},
    repo: 'bound',
    annotations: READ,
    render: (r) => R.renderBrowse(r),
  }),
  tool({
    name: 'memory_stats',
    op: ops.stats,
    title: 'Count memories',
    description: 'How many live memories this repository holds, by type. Cheap; use it to see whether there is anything to recall.',
    repo: 'bound',
    annotations: READ,
    render: (r) => `${r.repo}: ${r.summary}`,
  }),
  tool({
    name: 'memory_repos',
    op: ops.repos,
    title: 'List repositories',
    description: 'Every repository this machine\'s mem has memories for, with its repo id and path. Pass one as `repo` to another tool to read a different project\'s memories.',
    repo: 'none',
    annotations: READ,
    render: (r) => R.renderRepos(r.repos),
  }),
  tool({
    name: 'memory_intake',
    op: ops.intake,
    title: 'Seed memories from the project files',
    description:
      'Read this repository\'s project files (AGENTS.md, CLAUDE.md, README.md, CONTRIBUTING.md, package.json scripts, Makefile targets, tsconfig, pyproject.toml, Cargo.toml, go.mod, .editorconfig, …) and store what an agent needs from them as small seed memories: build and test commands as procedures, conventions as heuristics, project facts as observations. Safe to call again: unchanged files write nothing (skippedCount), changed ones replace their old seeds. Call it once in a new repository, or after its docs or scripts changed.',
    repo: 'bound',
    annotations: {readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false},
    render: (r) =>
      `Intake: ${r.newCount} new (${r.replacedCount} replacing changed seeds), ${r.skippedCount} skipped.` +
      r.files.map((f) => `\n- ${f.path}: ${f.seeds} seeds, ${f.newCount} new, ${f.skippedCount} skipped${f.removedCount ? `, ${f.removedCount} removed` : ''}${f.leftOut ? `, ${f.leftOut} more not read (the most a file gives)` : ''}`).join(''),
  }),
  tool({
    name: 'memory_graph',
    op: ops.graph,
    title: 'Knowledge graph of the memories',
    description:
      'The most important memories of this repository as graph nodes (id, type, label, importance, tags) and their relations as edges: derived (an insight and the observations it was drawn from), supersedes (a newer version and the one it replaced, with history true) and memory links (named by their relation). Use it to see how lessons connect; use memory_recall to find something specific.',
    argNotes: {limit: 'How many memories (1 to 2000, default 200).', history: 'Also include earlier versions, so supersedes edges show.'},
    repo: 'bound',
    annotations: READ,
    render: (r) => {
      const byId = new Map(r.nodes.map((n) => [n.id, n.label]))
      const lines = [`${r.nodes.length} memories, ${r.edges.length} relations.`]
      for (const e of r.edges.slice(0, 50)) lines.push(`- ${byId.get(e.from)} —${e.relation}→ ${byId.get(e.to)}`)
      if (r.edges.length > 50) lines.push(`… and ${r.edges.length - 50} more`)
      return lines.join('\n')
    },
  }),
  tool({
    name: 'memory_export',
    op: ops.exportMarkdown,
    title: 'Export the memories as markdown',
    description:
      'Every live memory of this repository as one markdown document, organised by type (procedures, heuristics, insights, observations), in a stable order. Use it to review everything at once or to hand the knowledge to a person; for a question, memory_recall is cheaper.',
    repo: 'bound',
    annotations: READ,
    render: (r) => r.markdown,
  }),
  // ---- sharing (packs are files: `mem pack export|import` and the HTTP routes carry them) ----
  tool({
    name: 'memory_layers',
    op: ops.layers,
    title: 'List memory layers',
    description:
      'The layers this repository reads: itself (local, read-write) and mounted shared or base layers (read-only team or organisation memories synced from git), with their memory counts and last sync. Layer memories come back in memory_recall with repoId layer-<id>, ranked below local ones.',
    repo: 'bound',
    annotations: READ,
    render: (r) => R.renderLayers(r),
  }),
  tool({
    name: 'memory_layer_sync',
    op: ops.syncLayer,
    title: 'Sync a memory layer',
    description: 'Pull a mounted shared or base layer from its source (git) so recall sees the team\'s latest memories. Reports how many memories were added, updated and removed.',
    argNotes: {layerId: 'The layer id, as memory_layers lists it.'},
    repo: 'bound',
    annotations: {readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false},
    render: (r) => `Layer ${r.layerId} synced: ${r.added} added, ${r.updated} updated, ${r.removed} removed.`,
  }),
  tool({
    name: 'memory_links',
    op: ops.links,
    title: 'List linked repositories',
    description: 'The repositories this one is linked to (cross-repo links). Memories of a linked, registered repository come back in memory_recall, ranked below local ones.',
    repo: 'bound',
    annotations: READ,
    render: (r) => R.renderLinks(r),
  }),
  tool({
    name: 'memory_link_repo',
    op: ops.linkRepo,
    title: 'Link another repository',
    description:
      'Link this repository to another one mem already knows (memory_repos lists them), with a note on how they relate (e.g. "the app calls this API"). Afterwards recall here also searches that repository. An unknown repository is refused.',
    argNotes: {targetRepo: 'The repo id (or absolute path) of the repository to link.', note: 'How the repositories relate.'},
    repo: 'bound',
    annotations: WRITE,
    render: (r) => `Linked ${r.from} → ${r.to} (${r.id}).`,
  }),
  tool({
    name: 'memory_link',
    op: ops.linkMemory,
    title: 'Link two memories',
    description:
      'Record that one memory relates to another (e.g. an insight explained-by a procedure, a fix depends-on a decision). The link shows in memory_get under links and in the knowledge graph. A second link to the same target replaces its relation.',
    argNotes: {targetId: 'The memory this one links to.', relation: 'One word for the relation (default "related"), e.g. depends-on, explains, contradicts.'},
    repo: 'hint',
    annotations: {...WRITE, idempotentHint: true},
    render: (_r, args) => `Linked ${args.id} → ${args.targetId} (${args.relation ?? 'related'}).`,
  }),
  tool({
    name: 'memory_unlink',
    op: ops.unlinkMemory,
    title: 'Remove a memory link',
    description: 'Remove the link from one memory to another. Answers removed: false when there was no such link.',
    repo: 'hint',
    annotations: {readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false},
    render: (r, args) => (r.removed ? `Removed the link ${args.id} → ${args.targetId}.` : `${args.id} had no link to ${args.targetId}.`),
  }),
  // ---- quality, usage, enrichment ----
  tool({
    name: 'memory_quality',
    op: ops.quality,
    title: 'Check memory quality',
    description:
      'How well this repository\'s memories serve recall: echo ratio (recalled memories mostly reported used), fizzle ratio (mostly reported unused), stale memories (30+ days without a recall) and dead ones (60+ days, or repeatedly unused), a score from 0 to 100, and each issue with example ids and what to do. Use it when tidying the store: edit or forget the examples it names.',
    repo: 'bound',
    annotations: READ,
    render: (r) => R.renderQuality(r),
  }),
  tool({
    name: 'memory_usage',
    op: ops.usage,
    title: 'Memory usage statistics',
    description:
      'How this repository\'s memories were used over the last days (default 30): calls per operation (store, recall, context, feedback, …) with mean and 95th-percentile duration and mean result count.',
    argNotes: {days: 'Window in UTC days, 1 to 365 (default 30).'},
    repo: 'bound',
    annotations: {...READ, idempotentHint: false},
    render: (r) => R.renderUsage(r),
  }),
  tool({
    name: 'memory_enrich',
    op: ops.enrich,
    title: 'Enrich a memory',
    description:
      'Write a one-liner, a short summary, a foresight hint (when it will matter) and the entities named, for one memory, through the local language-model runtime the user configured, else a deterministic heuristic (provider "heuristic"). The memory\'s content never changes. Fails, leaving the memory unchanged, when the runtime does not answer.',
    repo: 'hint',
    annotations: {readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false},
    render: (r) => R.renderEnrich(r),
  }),
]

/** JSON Schema (draft-07, as the SDK emits for its own tools) of a zod schema. */
function toJson(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  return z.toJSONSchema(schema, {target: 'draft-7', io, unrepresentable: 'any'}) as JsonSchema
}

/** Which tools a server lists: the lean default set, or every tool. */
export type ToolSet = 'lean' | 'all'

/** The tools of a set, in the order `tools/list` shows them. */
export function toolsOf(set: ToolSet): ToolDef[] {
  return set === 'all' ? TOOLS : TOOLS.filter((t) => t.lean)
}

const LEAN_REPO_NOTE = 'Repository path or id; default: this session\'s.'
/** Arguments a lean listing leaves out: they serve people, not agents (recall's touch). */
const LEAN_HIDDEN = new Set(['touch'])

export interface ToolListing {
  name: string
  title: string
  description: string
  inputSchema: JsonSchema & {type: 'object'}
  outputSchema?: JsonSchema & {type: 'object'}
  annotations: ToolDef['annotations'] & {title?: string}
}

/**
 * The `tools/list` entry of a tool: the core's input schema as JSON Schema, with `repo` made
 * optional where the session binds it, the vocabulary's argument names (`query`, `id`, `used`), the
 * argument notes added as descriptions, and (in the full listing) the HTTP response schema as the
 * output schema (an object at the top, as MCP requires). The lean listing carries the tool's brief
 * description and no output schema (results still carry structured content).
 */
export function toolListing(def: ToolDef, set: ToolSet = 'all'): ToolListing {
  const lean = set === 'lean' && def.lean !== undefined
  const input = toJson(def.op.input, 'input')
  let props = (input.properties ?? {}) as Record<string, JsonSchema>
  for (const [name, note] of Object.entries(def.argNotes ?? {})) {
    if (!props[name]) throw new Error(`tool ${def.name}: a note for ${name}, which its input schema lacks`)
    props[name] = {...props[name], description: note}
  }
  if (def.repo !== 'none') {
    if (!props.repo) throw new Error(`tool ${def.name}: its input schema has no repo`)
    props.repo = {...props.repo, description: lean ? LEAN_REPO_NOTE : def.repo === 'bound' ? REPO_NOTE : 'Repository path or repo id; by default the repo the memory id names.'}
    if (Array.isArray(input.required)) input.required = input.required.filter((r) => r !== 'repo')
  }
  // the vocabulary's names in place of the operation's (recall's q shows as query)
  const fieldToVocab = new Map(Object.entries(def.rename ?? {}).map(([vocab, field]) => [field, vocab]))
  props = Object.fromEntries(
    Object.entries(props)
      .filter(([name]) => !(lean && LEAN_HIDDEN.has(name)))
      .map(([name, schema]) => [fieldToVocab.get(name) ?? name, schema]),
  )
  input.properties = props
  if (Array.isArray(input.required)) input.required = input.required.map((r) => fieldToVocab.get(r as string) ?? r)
  if (lean) {
    return {name: def.name, title: def.title, description: def.lean!.brief, inputSchema: input as ToolListing['inputSchema'], annotations: def.annotations}
  }
  const output = toJson(def.op.output, 'output')
  if (output.type !== 'object') output.type = 'object'
  return {
    name: def.name,
    title: def.title,
    description: def.description,
    inputSchema: input as ToolListing['inputSchema'],
    outputSchema: output as ToolListing['outputSchema'],
    annotations: {title: def.title, ...def.annotations},
  }
}

let byName: Map<string, ToolDef> | undefined

export function findTool(name: string): ToolDef | undefined {
  return (byName ??= new Map(TOOLS.map((t) => [t.name, t]))).get(name)
}
