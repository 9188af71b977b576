/** Operations on a whole repository: intake, the markdown export, the graph, consolidation, maintenance, init. */
import {z} from 'zod'
import * as O from '../../model/shapes/operations.js'

import {defineOp, type OpDef} from '../define.js'
import {consolidate, ConsolidateInput} from '../consolidate.js'
import {exportMarkdown, ExportInput} from '../export.js'
import {graph, GraphInput} from '../graph.js'
import {init, InitInput} from '../init.js'
import {HooksInstallInput, HooksUninstallInput, installHooks, uninstallHooks} from '../hooks.js'
import {intake, IntakeInput} from '../intake.js'
import {maintain, MaintainInput} from '../maintain.js'


export const operationOps = {
  intake: defineOp({
    name: 'intake',
    summary: 'Seed memories from the project files',
    description:
      'Scans agent instruction files, README.md, CONTRIBUTING.md, .editorconfig, package.json, tsconfig.json, Makefile, pyproject.toml, Cargo.toml, go.mod and version files, and stores small seed memories (tags `intake`, `source:<path>`). A second run writes nothing (`skippedCount`); a changed file supersedes its old seeds. `repo` must be a path (or a registered id) of a working tree.',
    access: 'write',
    input: IntakeInput,
    output: O.IntakeResult,
    track: {count: (r) => r.newCount + r.replacedCount},
    run: intake,
    http: {method: 'POST', path: '/api/mem/intake', answer: 'Counts, and what each file gave', tag: 'operations', query: IntakeInput, errors: {404: 'No working tree for that repo'}},
  }),
  exportMarkdown: defineOp({
    name: 'exportMarkdown',
    summary: 'The memories as markdown, organised by type',
    description: 'Procedures, heuristics, insights, observations; each in creation order. The same store gives the same bytes.',
    access: 'read',
    input: ExportInput,
    output: O.ExportResult,
    track: {as: 'export', count: (r) => r.count},
    run: exportMarkdown,
    http: {method: 'GET', path: '/api/mem/export', tag: 'operations', reply: {contentType: 'text/markdown; charset=utf-8', description: 'Markdown', body: (r) => (r as O.ExportResult).markdown}},
  }),
  graph: defineOp({
    name: 'graph',
    summary: 'The knowledge graph: memories as nodes, their relations as edges',
    description:
      'Nodes: the top `limit` (1 to 2000, default 200) live memories by importance, then recency. Edges only between returned nodes: `derived` (insight → observation) and `supersedes` (new → old; with `history=true` earlier versions are added as nodes).',
    access: 'read',
    input: GraphInput,
    output: O.GraphResult,
    track: {count: (r) => r.nodes.length},
    run: graph,
    http: {method: 'GET', path: '/api/mem/graph', answer: 'Nodes and edges', tag: 'memories'},
  }),
  consolidate: defineOp({
    name: 'consolidate',
    summary: 'Group related observations into insights',
    description: '`candidates` counts clusters considered; a cluster that would only restate one of its observations is counted and skipped; a converged corpus answers all zeros.',
    access: 'write',
    input: ConsolidateInput,
    output: O.ConsolidateResult,
    track: {count: (r) => r.insightsCreated + r.insightsBoosted},
    run: consolidate,
    http: {
      method: 'POST',
      path: '/api/mem/consolidate',
      answer: 'Counts',
      tag: 'operations',
      query: z.object({
        repo: ConsolidateInput.shape.repo,
        dry_run: z.boolean().optional().describe('Report the candidate clusters and write nothing (default false).'),
        clusters: z.string().max(8_000).optional().describe('Comma-separated cluster ids from a dry run: apply only these (default: all).'),
      }),
      input: ({query}) => ({
        repo: query.repo as string,
        dryRun: (query.dry_run as boolean | undefined) ?? false,
        ...(typeof query.clusters === 'string' ? {clusters: query.clusters.split(',').map((c) => c.trim()).filter(Boolean)} : {}),
      }),
      errors: {404: 'A cluster id that is no current candidate', 409: 'Another process is running a maintenance pass on the repo'},
    },
  }),
  maintain: defineOp({
    name: 'maintain',
    summary: 'Run the maintenance pipeline',
    access: 'admin',
    input: MaintainInput,
    output: O.MaintenanceReport,
    // a stage that failed is reported (the others ran): the pass is answered, and the CLI exits 1
    outcomes: [{when: (r) => r.stages.some((s) => s.error !== undefined), status: 200, exit: 1}],
    // counted by the pipeline itself, which the server's scheduler also runs
    track: false,
    run: maintain,
  }),
  hooksInstall: defineOp({
    name: 'hooksInstall',
    summary: 'Install the git hooks that run intake after commits, merges and checkouts',
    access: 'write',
    input: HooksInstallInput,
    output: z.strictObject({
      repo: z.string(),
      hooksPath: z.string(),
      hooks: z.array(z.strictObject({name: z.string(), action: z.enum(['created', 'chained', 'wrapped', 'updated', 'unchanged', 'skipped']), reason: z.string().optional()})),
    }),
    // a hook left alone (not a shell script we may chain into) is reported: the CLI exits 1
    outcomes: [{when: (r) => r.hooks.some((h) => h.action === 'skipped'), status: 200, exit: 1}],
    track: false,
    run: installHooks,
  }),
  hooksUninstall: defineOp({
    name: 'hooksUninstall',
    summary: 'Remove the git hooks mem installed (existing hooks are restored)',
    access: 'write',
    input: HooksUninstallInput,
    output: z.strictObject({
      repo: z.string(),
      hooksPath: z.string(),
      hooks: z.array(z.strictObject({name: z.string(), action: z.enum(['removed', 'restored', 'absent'])})),
    }),
    track: false,
    run: uninstallHooks,
  }),
  init: defineOp({
    name: 'init',
    summary: 'Keep memories in a folder that is not a git repository',
    access: 'write',
    input: InitInput,
    output: z.strictObject({repoId: z.string(), path: z.string(), created: z.boolean(), adopted: z.number().int().optional().describe('With adopt: memories signed as this user\'s')}),
    track: false,
    run: init,
  }),
} satisfies Record<string, OpDef<any, any, any>>
