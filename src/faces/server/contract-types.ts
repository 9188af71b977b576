/**
 * Compile-time contract: what the core returns fits the response schemas the routes and OpenAPI
 * publish, and those fit the client library's types. A change on any side that breaks the chain
 * fails `tsc` (and so `npm run build`). Nothing here runs.
 */
import type {z} from 'zod'
import type * as Client from '../../client/types.js'
import type {BrowseResult} from '../../operations/browse.js'
import type {ContextPreview} from '../../operations/context.js'
import type {EditResult} from '../../operations/edit.js'
import type {HistoryResult} from '../../operations/history.js'
import type {RecallResult} from '../../operations/recall.js'
import type {ReposResult} from '../../operations/repos.js'
import type {StatsResult} from '../../operations/stats.js'
import type {StoreResult} from '../../operations/store.js'
import type {Memory} from '../../model/memory.js'
import type * as S from './schemas.js'
import type * as Share from './routes/sharing.js'
import type {Layer, SyncResult} from '../../operations/layers.js'
import type {RepoLink} from '../../operations/links.js'
import type {PackImportResult} from '../../operations/pack-import.js'
import type * as I from './routes/insight.js'
import type {EnrichResult} from '../../operations/enrich.js'
import type {PortalResult} from '../../operations/portal.js'
import type {QualityReport} from '../../operations/quality.js'
import type {UsageHourly, UsageResult, UsageTimeseries} from '../../operations/usage.js'

type Fits<A, B> = [A] extends [B] ? true : false
type Chain<Core, Schema extends z.ZodType, Wire> = Fits<Core, z.output<Schema>> extends true ? Fits<z.output<Schema>, Wire> : false
type StoreSchemas = typeof S.Stored | typeof S.Duplicate | typeof S.Rejected

export const contract: {
  memory: Chain<Memory, typeof S.MemoryEntry, Client.MemoryEntry>
  recall: Chain<RecallResult, typeof S.RecallResponse, {results: Client.RecallItem[]}>
  store: Chain<StoreResult, StoreSchemas, Client.StoreOutcome>
  edit: Chain<EditResult, typeof S.Edited | StoreSchemas, Client.EditOutcome>
  preview: Chain<ContextPreview, typeof S.ContextPreviewResponse, Client.ContextPreview>
  history: Chain<HistoryResult, typeof S.HistoryResponse, {chain: Client.ChainItem[]}>
  stats: Chain<StatsResult, typeof S.StatsResponse, Client.Stats>
  browse: Chain<BrowseResult, typeof S.BrowseResponse, Client.BrowsePage>
  repos: Chain<ReposResult, typeof S.ReposResponse, {repos: Array<{repoId: string}>}>
  health: Fits<z.output<typeof S.HealthResponse>, Client.Health>
  status: Fits<z.output<typeof S.StatusResponse>, Client.Status>
  error: Fits<z.output<typeof S.ErrorResponse>, Client.ErrorBody>
  layers: Chain<{repo: string; layers: Layer[]}, typeof Share.LayersResponse, {repo: string; layers: Client.Layer[]}>
  sync: Chain<SyncResult, typeof Share.SyncResponse, Client.LayerSync>
  links: Chain<{repo: string; links: RepoLink[]}, typeof Share.LinksResponse, {repo: string; links: Client.RepoLink[]}>
  packImport: Chain<PackImportResult, typeof Share.PackImportResponse, Client.PackImportResult>
  usage: Chain<UsageResult, typeof I.UsageResponse, Client.Usage>
  timeseries: Chain<UsageTimeseries, typeof I.UsageTimeseriesResponse, Client.UsageTimeseries>
  hourly: Chain<UsageHourly, typeof I.UsageHourlyResponse, Client.UsageHourly>
  quality: Chain<QualityReport, typeof I.QualityResponse, Client.Quality>
  portal: Chain<PortalResult, typeof I.PortalResponse, Client.Portal>
  enrich: Chain<EnrichResult, typeof I.EnrichResponse, Client.EnrichOutcome>
} = {
  memory: true,
  recall: true,
  store: true,
  edit: true,
  preview: true,
  history: true,
  stats: true,
  browse: true,
  repos: true,
  health: true,
  status: true,
  error: true,
  layers: true,
  sync: true,
  links: true,
  packImport: true,
  usage: true,
  timeseries: true,
  hourly: true,
  quality: true,
  portal: true,
  enrich: true,
}
