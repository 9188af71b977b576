/**
 * The wire shapes of the HTTP API (spec sections 2 and 4, decisions.md), for clients: the types of
 * the schemas the server answers with (src/model/shapes), imported as types only, so the client
 * library loads nothing but itself and runs anywhere `fetch` exists. A few shapes are the client's
 * own: the store and edit outcomes flatten the three answers into one object with optional fields.
 */
import type {z} from 'zod'
import type {ErrorResponse} from '../model/shapes/common.js'
import type * as I from '../model/shapes/insight.js'
import type * as M from '../model/shapes/memories.js'
import type * as O from '../model/shapes/operations.js'
import type * as S from '../model/shapes/sharing.js'
import type * as Sys from '../model/shapes/system.js'

export type MemoryType = M.MemoryEntry['type']

export type StoreRequest = z.input<typeof M.StoreInput>
export type EditRequest = Omit<z.input<typeof M.EditInput>, 'id' | 'repo'>

/**
 * What a store came to. Stored: `success` and `id`. Duplicate: `duplicateId` (nothing stored).
 * Rejected by the secret scanner or content gate: `error` (= `reason`, nothing stored).
 */
export interface StoreOutcome {
  success: boolean
  id?: string
  duplicateId?: string
  error?: string
  reason?: string
}

/** A content edit gives the new `id` and the old one in `superseded`; a metadata edit `superseded: null`. */
export interface EditOutcome extends StoreOutcome {
  superseded?: string | null
}

export type RecallItem = M.RecallItem
export type MemoryEntry = M.MemoryEntry
export type ChainItem = M.HistoryResult['chain'][number]
export type Stats = M.StatsResult
export type BrowsePage = M.BrowseResult
export type ContextPreview = M.ContextPreview
export type RepoItem = M.RepoItem
export type ReposResult = M.ReposResult

export type GraphNode = O.GraphNode
export type GraphEdge = O.GraphEdge
export type Graph = O.GraphResult
export type IntakeResult = O.IntakeResult
export type ConsolidateResult = O.ConsolidateResult
export type MaintenanceReport = O.MaintenanceReport
export type MaintenanceRun = O.MaintenanceRun
/** POST /api/maintenance beyond the 30 s window: 202 with the run to poll. */
export type MaintenanceAccepted = O.MaintenanceAccepted
export type ScheduledTask = O.ScheduledTask

export type Health = Sys.HealthResult
export type Status = Sys.StatusResult
export type EnrichmentStatus = I.EnrichmentStatus

export type OperationUsage = I.OperationUsage
export type Usage = I.UsageResult
export type DailyUsage = I.DailyBucket
export type UsageTimeseries = I.UsageTimeseries
export type UsageHourly = I.UsageHourly
export type QualityIssue = I.QualityIssue
export type Quality = I.QualityReport
export type Portal = I.PortalResult
export type EnrichOutcome = I.EnrichResult

export type ErrorBody = ErrorResponse

export type PackImportResult = S.PackImportResult
export type Layer = S.Layer
export type LayerSync = S.SyncResult
export type RepoLink = S.RepoLink
