import {z} from 'zod'
import {renderMarkdown} from '../ops/export-markdown.js'
import {liveForExport} from '../storage/graph.js'
import type {MemContext} from './mem-context.js'
import {track} from './track.js'
import {RepoRef} from './schemas.js'
import {parseInput} from './validate.js'

export const ExportInput = z.object({repo: RepoRef})
export type ExportInput = z.input<typeof ExportInput>

export interface ExportResult {
  repo: string
  /** Live memories in the document. */
  count: number
  markdown: string
}

/**
 * The repo's live memories as one markdown document, by type (procedures, heuristics, insights,
 * observations), each in creation order: deterministic and diff-friendly. Read-only. Secrets
 * never reach it: they are refused at store time and never stored.
 */
export async function exportMarkdown(ctx: MemContext, raw: ExportInput): Promise<ExportResult> {
  const done = track(ctx, 'export')
  const input = parseInput(ExportInput, raw)
  const handle = await ctx.repo(input.repo, 'read')
  const rows = handle.store.read((db) => liveForExport(db))
  done(handle, rows.length)
  return {repo: handle.id, count: rows.length, markdown: renderMarkdown(handle.id, rows)}
}
