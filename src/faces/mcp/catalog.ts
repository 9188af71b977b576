/**
 * The MCP tool catalog over the core: one tool per core operation, with a description written for
 * a model, the core's own input schema (as JSON Schema), the HTTP response schema as its output
 * schema, and a readable rendering of the result. Pure data and functions: no MCP SDK here, so
 * the catalog can be listed, documented and tested without loading the SDK.
 */
import {z} from 'zod'
import {browse, BrowseInput} from '../../operations/browse.js'
import {context, ContextInput} from '../../operations/context.js'
import {edit, EditInput} from '../../operations/edit.js'
import {exportMarkdown, ExportInput} from '../../operations/export.js'
import {graph, GraphInput} from '../../operations/graph.js'
import {intake, IntakeInput} from '../../operations/intake.js'
import {feedback, FeedbackInput} from '../../operations/feedback.js'
import {forget, ForgetInput} from '../../operations/forget.js'
import {get, GetInput} from '../../operations/get.js'
import {history, HistoryInput} from '../../operations/history.js'
import type {MemContext} from '../../engines/context.js'
import {recall} from '../../operations/recall.js'
import {RecallInput} from '../../model/schemas.js'
import {repos} from '../../operations/repos.js'
import {StatsInput} from '../../model/schemas.js'
import {stats} from '../../operations/stats.js'
import {isRejected, store, StoreInput} from '../../operations/store.js'
import {enrich, EnrichInput} from '../../operations/enrich.js'
import {quality, QualityInput} from '../../operations/quality.js'
import {usage, UsageInput} from '../../operations/usage.js'
import {EnrichResponse, QualityResponse, UsageResponse} from '../server/routes/insight.js'
import * as S from '../server/schemas.js'
import * as SO from '../server/schemas-ops.js'
import {listLayers, ListLayersInput, syncLayer, LayerRefInput} from '../../operations/layers.js'
import {linkMemory, LinkMemoryInput, linkRepo, LinkRepoInput, listLinks, ListLinksInput, unlinkMemory, UnlinkMemoryInput} from '../../operations/links.js'
import * as Share from '../server/routes/sharing.js'
import * as R from './render.js'

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
  /** The core's input schema: the tool's arguments are validated by the core with it. */
  input: z.ZodObject
  /** Notes for a model on some arguments; every key must be a property of `input`. */
  argNotes?: Record<string, string>
  /** The HTTP response schema of the same operation (the structured content's shape). */
  output: z.ZodType
  repo: RepoUse
  annotations: {readOnlyHint: boolean; destructiveHint?: boolean; idempotentHint?: boolean; openWorldHint: false}
  run(ctx: MemContext, args: Record<string, unknown>): Promise<unknown>
  /** A readable rendering for the model; `args` are as the agent gave them (repo filled in). */
  render(result: never, args: Record<string, unknown>): string
  /** Outcomes that are answers but not successes (a rejected store) are tool errors. */
  isError?(result: never): boolean
}

const READ = {readOnlyHint: true, idempotentHint: true, openWorldHint: false} as const
const WRITE = {readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false} as const

const REPO_NOTE =
  'Repository path or repo id. Leave it out to use this session\'s repository (the one `mem mcp --repo` or the client\'s first root names, else the working directory).'

function tool<I extends z.ZodObject, T>(def: Omit<ToolDef, 'run' | 'render' | 'isError' | 'input'> & {
  input: I
  run(ctx: MemContext, args: Record<string, unknown>): Promise<T>
  render(result: T, args: Record<string, unknown>): string
  isError?(result: T): boolean
}): ToolDef {
  return def as unknown as ToolDef
}

const NoInput = z.object({})

/** Every tool, in the order `tools/list` shows them. */
export const TOOLS: ToolDef[] = [
  tool({
    name: 'memory_context',
    title: 'Load the session context',
    description:
      'Call once at the start of a session, before working: returns this repository\'s memory digest (under 600 tokens by default): a counts line, then one line per memory, best first, prefixed [I] insight, [P] procedure, [H] heuristic, [O] observation. Read it as background knowledge about the project; use memory_recall for anything specific.',
    input: ContextInput,
    argNotes: {tokens: 'Token budget of the context (default 600).'},
    output: S.ContextResponse,
    repo: 'bound',
    annotations: READ,
    run: (ctx, args) => context(ctx, args as never),
    render: (r) => r.context,
  }),
  tool({
    name: 'memory_recall',
    title: 'Recall memories',
    description:
      'Search this repository\'s memories before a task, or whenever you wonder how something works here, why it was done, or what went wrong last time. Ask in your own words (e.g. "how do I run the integration tests?"). Returns the best matches first, each with its id, type, score (0..1), full content and age; a staleness warning means nobody confirmed it recently, so verify it. Afterwards report with memory_feedback whether each memory you read helped.',
    input: RecallInput,
    argNotes: {q: 'The question or keywords, in natural language.', limit: 'How many results (1 to 100, default 10).', type: 'Only memories of this type.'},
    output: S.RecallResponse,
    repo: 'bound',
    annotations: {...READ, idempotentHint: false},
    run: (ctx, args) => recall(ctx, args as never),
    render: (r, args) => R.renderRecall(r.results, String(args.q ?? '')),
  }),
  tool({
    name: 'memory_store',
    title: 'Store a memory',
    description:
      'Save a lesson that will help in a later session: how the build or tests really work, a flaky test and its cause, a decision and its reason, a command that works, a pitfall. One self-contained fact per memory, short, in plain words, with tags. Pick the type: observation (something seen once), insight (a conclusion drawn from several observations), procedure (steps that work), heuristic (a rule of thumb). Never store secrets, tokens or personal data: content the secret scanner flags is rejected. A memory that repeats a stored one is not stored again: the answer names the existing id (duplicateId). To replace an outdated memory, pass its id as supersedes (or use memory_edit).',
    input: StoreInput,
    argNotes: {
      content: 'The memory text (up to 16,000 characters); one fact, self-contained.',
      tags: 'A few lowercase keywords (e.g. ["ci", "tests"]).',
      importance: '0.0 to 1.0 (default 0.5); raise it for things that cost real time when forgotten.',
      source: 'Who stored it (default "claude-session").',
      sessionId: 'Your session id, if you have one.',
      supersedes: 'Id of a live memory this one replaces.',
    },
    output: S.Stored.or(S.Duplicate).or(S.Rejected),
    repo: 'bound',
    annotations: WRITE,
    run: (ctx, args) => store(ctx, args as never),
    render: (r) => R.renderStore(r),
    isError: (r) => isRejected(r),
  }),
  tool({
    name: 'memory_feedback',
    title: 'Report whether a memory helped',
    description:
      'After using memories from memory_recall or memory_context, report for each one you read whether it was actually useful (wasUsed true) or not (false). Used memories rank higher next time; memories that keep being unhelpful sink. Returns applied: false for a memory that was forgotten or replaced.',
    input: FeedbackInput,
    argNotes: {memoryId: 'The id of the recalled memory.', wasUsed: 'true if it helped with the task, false if not.'},
    output: S.FeedbackResponse,
    repo: 'hint',
    annotations: WRITE,
    run: (ctx, args) => feedback(ctx, args as never),
    render: (r, args) => (r.applied ? `Feedback recorded for ${args.memoryId}: ${args.wasUsed ? 'used' : 'not used'}.` : `Not applied: ${args.memoryId} was forgotten or superseded.`),
  }),
  tool({
    name: 'memory_get',
    title: 'Read one memory',
    description:
      'Read one memory by id with all its fields: content, type, tags, importance, usage counts, and whether it was superseded (then supersededBy names the newer version) or forgotten. Works for superseded and forgotten memories too.',
    input: GetInput,
    output: S.MemoryEntry,
    repo: 'hint',
    annotations: READ,
    run: (ctx, args) => get(ctx, args as never),
    render: (r) => R.renderMemory(r),
  }),
  tool({
    name: 'memory_edit',
    title: 'Correct a memory',
    description:
      'Correct or update a memory that is wrong or outdated. New content creates a new version with a new id that supersedes the old one (the answer gives both ids; history keeps the old text); changing only tags or importance updates it in place. Give at least one of content, tags, importance.',
    input: EditInput,
    argNotes: {content: 'The corrected text: creates a new version.', tags: 'Replaces the tags.', importance: '0.0 to 1.0.'},
    output: S.Edited.or(S.Duplicate).or(S.Rejected),
    repo: 'hint',
    annotations: WRITE,
    run: (ctx, args) => edit(ctx, args as never),
    render: (r) => R.renderEdit(r),
    isError: (r) => isRejected(r),
  }),
  tool({
    name: 'memory_forget',
    title: 'Forget a memory',
    description:
      'Forget a memory that is wrong and should not be corrected, or no longer applies. It stops appearing in recall, context and browse but stays readable by id and in history (soft delete). Give a short reason.',
    input: ForgetInput,
    argNotes: {reason: 'Why it is forgotten (kept with the memory).'},
    output: S.ForgetResponse,
    repo: 'hint',
    annotations: {readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false},
    run: (ctx, args) => forget(ctx, args as never),
    render: (r, args) => (r.forgotten ? `Forgot ${args.id}.` : `${args.id} was already forgotten.`),
  }),
  tool({
    name: 'memory_history',
    title: 'Version history of a memory',
    description: 'The version chain of a memory, newest first, from the id of any version: how a lesson was corrected over time.',
    input: HistoryInput,
    output: S.HistoryResponse,
    repo: 'hint',
    annotations: READ,
    run: (ctx, args) => history(ctx, args as never),
    render: (r) => R.renderHistory(r.chain),
  }),
  tool({
    name: 'memory_browse',
    title: 'List memories',
    description:
      'List this repository\'s live memories, newest first, a page at a time (skip/take), optionally of one type. Use it to review or tidy the store; to find something specific use memory_recall. `count` is the total matching, not the page size.',
    input: BrowseInput,
    argNotes: {skip: 'How many to skip (default 0).', take: 'Page size, 1 to 500 (default 50).', type: 'Only memories of this type.'},
    output: S.BrowseResponse,
    repo: 'bound',
    annotations: READ,
    run: (ctx, args) => browse(ctx, args as never),
    render: (r) => R.renderBrowse(r),
  }),
  tool({
    name: 'memory_stats',
    title: 'Count memories',
    description: 'How many live memories this repository holds, by type. Cheap; use it to see whether there is anything to recall.',
    input: StatsInput,
    output: S.StatsResponse,
    repo: 'bound',
    annotations: READ,
    run: (ctx, args) => stats(ctx, args as never),
    render: (r) => `${r.repo}: ${r.summary}`,
  }),
  tool({
    name: 'memory_repos',
    title: 'List repositories',
    description: 'Every repository this machine\'s mem has memories for, with its repo id and path. Pass one as `repo` to another tool to read a different project\'s memories.',
    input: NoInput,
    output: S.ReposResponse,
    repo: 'none',
    annotations: READ,
    run: (ctx) => repos(ctx),
    render: (r) => R.renderRepos(r.repos),
  }),
  tool({
    name: 'memory_intake',
    title: 'Seed memories from the project files',
    description:
      'Read this repository\'s project files (AGENTS.md, CLAUDE.md, README.md, CONTRIBUTING.md, package.json scripts, Makefile targets, tsconfig, pyproject.toml, Cargo.toml, go.mod, .editorconfig, …) and store what an agent needs from them as small seed memories: build and test commands as procedures, conventions as heuristics, project facts as observations. Safe to call again: unchanged files write nothing (skippedCount), changed ones replace their old seeds. Call it once in a new repository, or after its docs or scripts changed.',
    input: IntakeInput,
    output: SO.IntakeResponse,
    repo: 'bound',
    annotations: {readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false},
    run: (ctx, args) => intake(ctx, args as never),
    render: (r) =>
      `Intake: ${r.newCount} new (${r.replacedCount} replacing changed seeds), ${r.skippedCount} skipped.` +
      r.files.map((f) => `\n- ${f.path}: ${f.seeds} seeds, ${f.newCount} new, ${f.skippedCount} skipped${f.removedCount ? `, ${f.removedCount} removed` : ''}`).join(''),
  }),
  tool({
    name: 'memory_graph',
    title: 'Knowledge graph of the memories',
    description:
      'The most important memories of this repository as graph nodes (id, type, label, importance, tags) and their relations as edges: derived (an insight and the observations it was drawn from), supersedes (a newer version and the one it replaced, with history true) and memory links (named by their relation). Use it to see how lessons connect; use memory_recall to find something specific.',
    input: GraphInput,
    argNotes: {limit: 'How many memories (1 to 2000, default 200).', history: 'Also include earlier versions, so supersedes edges show.'},
    output: SO.GraphResponse,
    repo: 'bound',
    annotations: READ,
    run: (ctx, args) => graph(ctx, args as never),
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
    title: 'Export the memories as markdown',
    description:
      'Every live memory of this repository as one markdown document, organised by type (procedures, heuristics, insights, observations), in a stable order. Use it to review everything at once or to hand the knowledge to a person; for a question, memory_recall is cheaper.',
    input: ExportInput,
    output: SO.ExportResponse,
    repo: 'bound',
    annotations: READ,
    run: (ctx, args) => exportMarkdown(ctx, args as never),
    render: (r) => r.markdown,
  }),
  // ---- sharing (packs are files: `mem pack export|import` and the HTTP routes carry them) ----
  tool({
    name: 'memory_layers',
    title: 'List memory layers',
    description:
      'The layers this repository reads: itself (local, read-write) and mounted shared or base layers (read-only team or organisation memories synced from git), with their memory counts and last sync. Layer memories come back in memory_recall with repoId layer-<id>, ranked below local ones.',
    input: ListLayersInput,
    output: Share.LayersResponse,
    repo: 'bound',
    annotations: READ,
    run: (ctx, args) => listLayers(ctx, args as never),
    render: (r) => R.renderLayers(r),
  }),
  tool({
    name: 'memory_layer_sync',
    title: 'Sync a memory layer',
    description: 'Pull a mounted shared or base layer from its source (git) so recall sees the team\'s latest memories. Reports how many memories were added, updated and removed.',
    input: LayerRefInput,
    argNotes: {layerId: 'The layer id, as memory_layers lists it.'},
    output: Share.SyncResponse,
    repo: 'bound',
    annotations: {readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false},
    run: (ctx, args) => syncLayer(ctx, args as never),
    render: (r) => `Layer ${r.layerId} synced: ${r.added} added, ${r.updated} updated, ${r.removed} removed.`,
  }),
  tool({
    name: 'memory_links',
    title: 'List linked repositories',
    description: 'The repositories this one is linked to (cross-repo links). Memories of a linked, registered repository come back in memory_recall, ranked below local ones.',
    input: ListLinksInput,
    output: Share.LinksResponse,
    repo: 'bound',
    annotations: READ,
    run: (ctx, args) => listLinks(ctx, args as never),
    render: (r) => R.renderLinks(r),
  }),
  tool({
    name: 'memory_link_repo',
    title: 'Link another repository',
    description:
      'Link this repository to another one mem already knows (memory_repos lists them), with a note on how they relate (e.g. "the app calls this API"). Afterwards recall here also searches that repository. An unknown repository is refused.',
    input: LinkRepoInput,
    argNotes: {targetRepo: 'The repo id (or absolute path) of the repository to link.', note: 'How the repositories relate.'},
    output: Share.LinkCreated,
    repo: 'bound',
    annotations: WRITE,
    run: (ctx, args) => linkRepo(ctx, args as never),
    render: (r) => `Linked ${r.from} → ${r.to} (${r.id}).`,
  }),
  tool({
    name: 'memory_link',
    title: 'Link two memories',
    description:
      'Record that one memory relates to another (e.g. an insight explained-by a procedure, a fix depends-on a decision). The link shows in memory_get under links and in the knowledge graph. A second link to the same target replaces its relation.',
    input: LinkMemoryInput,
    argNotes: {targetId: 'The memory this one links to.', relation: 'One word for the relation (default "related"), e.g. depends-on, explains, contradicts.'},
    output: Share.LinkedResponse,
    repo: 'hint',
    annotations: {...WRITE, idempotentHint: true},
    run: (ctx, args) => linkMemory(ctx, args as never),
    render: (_r, args) => `Linked ${args.id} → ${args.targetId} (${args.relation ?? 'related'}).`,
  }),
  tool({
    name: 'memory_unlink',
    title: 'Remove a memory link',
    description: 'Remove the link from one memory to another. Answers removed: false when there was no such link.',
    input: UnlinkMemoryInput,
    output: Share.RemovedResponse,
    repo: 'hint',
    annotations: {readOnlyHint: false, destructiveHint: true, idempotentHint: true, openWorldHint: false},
    run: (ctx, args) => unlinkMemory(ctx, args as never),
    render: (r, args) => (r.removed ? `Removed the link ${args.id} → ${args.targetId}.` : `${args.id} had no link to ${args.targetId}.`),
  }),
  // ---- quality, usage, enrichment ----
  tool({
    name: 'memory_quality',
    title: 'Check memory quality',
    description:
      'How well this repository\'s memories serve recall: echo ratio (recalled memories mostly reported used), fizzle ratio (mostly reported unused), stale memories (30+ days without a recall) and dead ones (60+ days, or repeatedly unused), a score from 0 to 100, and each issue with example ids and what to do. Use it when tidying the store: edit or forget the examples it names.',
    input: QualityInput,
    output: QualityResponse,
    repo: 'bound',
    annotations: READ,
    run: (ctx, args) => quality(ctx, args as never),
    render: (r) => R.renderQuality(r),
  }),
  tool({
    name: 'memory_usage',
    title: 'Memory usage statistics',
    description:
      'How this repository\'s memories were used over the last days (default 30): calls per operation (store, recall, context, feedback, …) with mean and 95th-percentile duration and mean result count.',
    input: UsageInput,
    argNotes: {days: 'Window in UTC days, 1 to 365 (default 30).'},
    output: UsageResponse,
    repo: 'bound',
    annotations: {...READ, idempotentHint: false},
    run: (ctx, args) => usage(ctx, args as never),
    render: (r) => R.renderUsage(r),
  }),
  tool({
    name: 'memory_enrich',
    title: 'Enrich a memory',
    description:
      'Write a one-liner, a short summary, a foresight hint (when it will matter) and the entities named, for one memory, through the local language-model runtime the user configured, else a deterministic heuristic (provider "heuristic"). The memory\'s content never changes. Fails, leaving the memory unchanged, when the runtime does not answer.',
    input: EnrichInput,
    output: EnrichResponse,
    repo: 'hint',
    annotations: {readOnlyHint: false, destructiveHint: false, idempotentHint: true, openWorldHint: false},
    run: (ctx, args) => enrich(ctx, args as never),
    render: (r) => R.renderEnrich(r),
  }),
]

/** JSON Schema (draft-07, as the SDK emits for its own tools) of a zod schema. */
function toJson(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  return z.toJSONSchema(schema, {target: 'draft-7', io, unrepresentable: 'any'}) as JsonSchema
}

/**
 * The `tools/list` entry of a tool: the core's input schema as JSON Schema, with `repo` made
 * optional where the session binds it, the argument notes added as descriptions, and the HTTP
 * response schema as the output schema (an object at the top, as MCP requires).
 */
export function toolListing(def: ToolDef): {
  name: string
  title: string
  description: string
  inputSchema: JsonSchema & {type: 'object'}
  outputSchema: JsonSchema & {type: 'object'}
  annotations: ToolDef['annotations'] & {title: string}
} {
  const input = toJson(def.input, 'input')
  const props = (input.properties ?? {}) as Record<string, JsonSchema>
  input.properties = props
  for (const [name, note] of Object.entries(def.argNotes ?? {})) {
    if (!props[name]) throw new Error(`tool ${def.name}: a note for ${name}, which its input schema lacks`)
    props[name] = {...props[name], description: note}
  }
  if (def.repo !== 'none') {
    if (!props.repo) throw new Error(`tool ${def.name}: its input schema has no repo`)
    props.repo = {...props.repo, description: def.repo === 'bound' ? REPO_NOTE : 'Repository path or repo id; by default the repo the memory id names.'}
    if (Array.isArray(input.required)) input.required = input.required.filter((r) => r !== 'repo')
  }
  const output = toJson(def.output, 'output')
  if (output.type !== 'object') output.type = 'object'
  return {
    name: def.name,
    title: def.title,
    description: def.description,
    inputSchema: input as JsonSchema & {type: 'object'},
    outputSchema: output as JsonSchema & {type: 'object'},
    annotations: {title: def.title, ...def.annotations},
  }
}

export function findTool(name: string): ToolDef | undefined {
  return TOOLS.find((t) => t.name === name)
}
