/**
 * Request and response shapes of intake, the markdown export and the graph (see schemas.ts for
 * the conventions: requests are the core's schemas, responses are strict).
 */
import {z} from 'zod'
import {MEMORY_TYPES} from '../../model/memory.js'
import {ExportInput} from '../../operations/export.js'
import {GraphInput} from '../../operations/graph.js'
import {IntakeInput} from '../../operations/intake.js'

export const IntakeQuery = IntakeInput
export const ExportQuery = ExportInput
export const GraphQuery = GraphInput

export const IntakeFile = z.strictObject({
  path: z.string().describe('Repo-relative path of the file'),
  seeds: z.number().int().describe('Seeds the file gave this run'),
  newCount: z.number().int(),
  skippedCount: z.number().int(),
  replacedCount: z.number().int(),
  removedCount: z.number().int().describe('Seeds of lines (or files) that are gone, forgotten'),
  rejectedCount: z.number().int().describe('Seeds the secret scanner or content gate refused (also in skippedCount)'),
})
export const IntakeResponse = z.strictObject({
  newCount: z.number().int().describe('Memories written: new seeds and new versions of changed ones'),
  skippedCount: z.number().int().describe('Seeds that wrote nothing: unchanged, duplicates, rejected'),
  replacedCount: z.number().int().describe('Of newCount, those that superseded an older seed'),
  files: z.array(IntakeFile),
})

export const GraphNodeSchema = z.strictObject({
  id: z.string(),
  type: z.enum(MEMORY_TYPES),
  label: z.string().describe('The one-liner, else the first 80 characters'),
  importance: z.number(),
  tags: z.array(z.string()),
})
export const GraphEdgeSchema = z.strictObject({
  from: z.string().describe('Memory id'),
  to: z.string().describe('Memory id'),
  relation: z.string().describe('`derived` (insight → observation), `supersedes` (new → old version), or a memory-link relation'),
})
export const GraphResponse = z.strictObject({
  repo: z.string(),
  nodes: z.array(GraphNodeSchema),
  edges: z.array(GraphEdgeSchema),
})

/** The MCP export tool's structured result (HTTP answers the markdown itself). */
export const ExportResponse = z.strictObject({repo: z.string(), count: z.number().int(), markdown: z.string()})
