import {z} from 'zod'
import {renderMarkdown} from '../engines/export/markdown.js'
import {liveForExport} from '../storage/graph.js'
import type {MemContext} from '../engines/context.js'
import {RepoRef} from '../model/schemas.js'
import {parseInput} from '../model/validate.js'
import type {ExportResult} from '../model/shapes/operations.js'
export type {ExportResult} from '../model/shapes/operations.js'

export const ExportInput = z.object({repo: RepoRef})
export type ExportInput = z.input<typeof ExportInput>

/**
 * The repo's live memories as one markdown document, by type (procedures, heuristics, insights,
 * observations), each in creation order: deterministic and diff-friendly. Read-only. Secrets
 * never reach it: they are refused at store time and never stored.
 */
export async function exportMarkdown(ctx: MemContext, raw: ExportInput): Promise<ExportResult> {
  const input = parseInput(ExportInput, raw)
  const handle = await ctx.repo(input.repo, 'read')
  const rows = handle.store.read((db) => liveForExport(db))
  return {repo: handle.id, count: rows.length, markdown: renderMarkdown(handle.id, rows)}
}
