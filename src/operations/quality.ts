import {z} from 'zod'
import {liveWithRelation, qualityExamples, qualityFigures, type QualityKind} from '../storage/quality.js'
import {newestVersions, UPDATED_BY} from '../engines/currency.js'
import type {MemContext, RepoHandle} from '../engines/context.js'
import {RepoRef} from '../model/schemas.js'
import {parseInput} from '../model/validate.js'
import type {QualityIssue, QualityReport} from '../model/shapes/insight.js'
import {getMemory} from '../storage/memories.js'
import {hookDir, injectionPrecision} from './agent-hooks.js'
export type {QualityIssue, QualityReport} from '../model/shapes/insight.js'

const DAY_MS = 24 * 60 * 60 * 1000
export const STALE_DAYS = 30
export const DEAD_DAYS = 60

export const QualityInput = z.object({repo: RepoRef})
export type QualityInput = z.input<typeof QualityInput>

export type Severity = 'info' | 'warning' | 'critical'
export type IssueKind = QualityKind | 'empty' | 'unused' | 'conflict'

const ADVICE: Record<IssueKind, string> = {
  fizzle:
    'These memories are recalled but reported unhelpful more often than helpful: they crowd out better results. Correct them (`mem edit ID --content …`, memory_edit) or forget the ones that no longer apply (`mem forget ID`).',
  dead: 'Nobody recalled these in 60 days, or they keep being reported unused (3+ times, over twice as often as used). Review and forget them (`mem forget ID`), or run `mem maintain`: retention and decay retire old unused observations.',
  stale:
    'Older than 30 days and not recalled or used in 30: recall marks them with a staleness warning. Check they still hold, then confirm the good ones (`mem feedback ID --used`) and correct or forget the rest.',
  'no-feedback':
    'Memories are recalled but no feedback was ever reported, so ranking cannot learn which ones help. After a task, report each recalled memory you read: `mem feedback ID --used|--unused` or the memory_feedback tool.',
  conflict:
    'These memories state a value a newer memory changed (the same subject, another value): recall ranks the newer first and warns on these, and the session context shows only the newer. Confirm each: store the current text with `--supersedes OLD_ID` (or `mem forget OLD_ID`); if the two are separate facts, say so with `mem links attach NEW_ID OLD_ID --relation distinct`.',
  'missing-one-liner': 'These have no one-liner, so the session context cannot show them compactly. Run `mem enrich --all` or `mem maintain --stage enrichment`.',
  empty: 'No memories yet. Store lessons as you learn them (`mem store`, memory_store); the report fills in once they are recalled and rated.',
  unused:
    'No agent has recalled any of these memories yet, so there is nothing to score: have agents recall at session start (`mem context`, memory_context) and when a question comes up (`mem recall`, memory_recall), and report what helped (`mem feedback`). A person browsing or searching in the TUI or web UI does not count.',
}

const ORDER: Record<Severity, number> = {critical: 0, warning: 1, info: 2}

const round = (n: number) => Math.round(n * 10_000) / 10_000

/**
 * How well the repo's memories serve recall, from feedback and activity (decisions.md):
 * echo = a recalled memory mostly reported used, fizzle = mostly reported unused (both as a share
 * of the recalled memories); stale = older than 30 days and not recalled or used in 30; dead =
 * not recalled or used in 60 days (and older than that), or reported unused ≥ 3 times and over
 * twice as often as used. Each problem found is an issue with up to five example ids and what to
 * do; `score` (0..100) weighs fizzle, dead and stale shares and missing feedback, and is null while
 * no memory has been recalled (an empty or unused store has served nobody, so it scores nothing).
 */
export async function quality(ctx: MemContext, raw: QualityInput): Promise<QualityReport> {
  const input = parseInput(QualityInput, raw)
  const handle = await ctx.repo(input.repo, 'read')
  const report = qualityOf(handle, ctx.now(), input.repo, hookDir(ctx, handle.root))
  return report
}

/** The report for an open repo (the portal includes it); `hooks` is the repo's hook-state folder (agent-hooks.ts hookDir). */
export function qualityOf(handle: RepoHandle, now: Date, repo: string, hooks: string | null): QualityReport {
  const staleBefore = new Date(now.getTime() - STALE_DAYS * DAY_MS).toISOString()
  const deadBefore = new Date(now.getTime() - DEAD_DAYS * DAY_MS).toISOString()
  return handle.store.read((db) => {
    const f = qualityFigures(db, staleBefore, deadBefore)
    const echoRatio = f.recalled > 0 ? f.echo / f.recalled : 0
    const fizzleRatio = f.recalled > 0 ? f.fizzle / f.recalled : 0
    const share = (n: number) => (f.total > 0 ? n / f.total : 0)
    const issues: QualityIssue[] = []
    // live memories a newer live memory updates: conflicts a person or agent should confirm
    const outdated = newestVersions(db, liveWithRelation(db, UPDATED_BY))
    const add = (kind: IssueKind, count: number, severity: Severity) => {
      const exampleIds = kind === 'empty' || kind === 'unused' ? [] : kind === 'conflict' ? [...outdated.keys()].slice(0, 5) : qualityExamples(db, kind, staleBefore, deadBefore)
      issues.push({kind, severity, count, exampleIds, advice: ADVICE[kind]})
    }
    if (f.total === 0) add('empty', 0, 'info')
    else if (f.recalled === 0) add('unused', f.total, 'warning')
    if (f.fizzle > 0) add('fizzle', f.fizzle, fizzleRatio >= 0.5 ? 'critical' : fizzleRatio >= 0.25 ? 'warning' : 'info')
    if (f.dead > 0) add('dead', f.dead, share(f.dead) >= 0.5 ? 'critical' : share(f.dead) >= 0.2 ? 'warning' : 'info')
    if (f.stale > 0) add('stale', f.stale, share(f.stale) >= 0.5 ? 'warning' : 'info')
    if (outdated.size > 0) add('conflict', outdated.size, share(outdated.size) >= 0.2 ? 'warning' : 'info')
    if (f.recalled > 0 && f.feedback === 0) add('no-feedback', f.recalled, 'warning')
    if (f.withoutOneLiner > 0) add('missing-one-liner', f.withoutOneLiner, 'info')
    issues.sort((a, b) => ORDER[a.severity] - ORDER[b.severity])

    const penalty = 35 * fizzleRatio + 30 * share(f.dead) + 15 * share(f.stale) + 5 * share(f.withoutOneLiner) + (f.recalled > 0 && f.feedback === 0 ? 10 : 0)
    return {
      repo,
      totalMemories: f.total,
      recalled: f.recalled,
      echoRatio: round(echoRatio),
      fizzleRatio: round(fizzleRatio),
      staleCount: f.stale,
      deadCount: f.dead,
      issues,
      // a store nobody has recalled from has served no one: no score rather than a perfect one
      score: f.recalled === 0 ? null : Math.max(0, Math.min(100, Math.round(100 - penalty))),
      // issue 18: how often memories the prompt hook injected were then reported used
      injection: injectionPrecision(hooks, (id) => getMemory(db, id)),
    }
  })
}
