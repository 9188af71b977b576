/**
 * Every command, by id, for oclif's explicit command discovery: the CLI is bundled into one
 * entry (plus lazily loaded chunks) so a command starts without resolving hundreds of modules.
 */
import Browse from './commands/browse.js'
import Consolidate from './commands/consolidate.js'
import Context from './commands/context.js'
import Edit from './commands/edit.js'
import Export from './commands/export.js'
import Enrich from './commands/enrich.js'
import Feedback from './commands/feedback.js'
import Forget from './commands/forget.js'
import Get from './commands/get.js'
import History from './commands/history.js'
import Hook from './commands/hook.js'
import HooksInstall from './commands/hooks/install.js'
import HooksUninstall from './commands/hooks/uninstall.js'
import Init from './commands/init.js'
import Intake from './commands/intake.js'
import KeysAuth from './commands/keys/auth.js'
import KeysCreate from './commands/keys/create.js'
import KeysList from './commands/keys/list.js'
import KeysRevoke from './commands/keys/revoke.js'
import LayersList from './commands/layers/list.js'
import LayersMount from './commands/layers/mount.js'
import LayersSync from './commands/layers/sync.js'
import LayersUnmount from './commands/layers/unmount.js'
import LinksAdd from './commands/links/add.js'
import LinksAttach from './commands/links/attach.js'
import LinksList from './commands/links/list.js'
import LinksRemove from './commands/links/remove.js'
import PackExport from './commands/pack/export.js'
import PackImport from './commands/pack/import.js'
import Maintain from './commands/maintain.js'
import Mcp from './commands/mcp.js'
import Quality from './commands/quality.js'
import Recall from './commands/recall.js'
import RemotePush from './commands/remote/push.js'
import RemoteSet from './commands/remote/set.js'
import RemoteStatus from './commands/remote/status.js'
import RemoteSync from './commands/remote/sync.js'
import RemoteUnset from './commands/remote/unset.js'
import Repos from './commands/repos.js'
import Serve from './commands/serve.js'
import Setup from './commands/setup.js'
import Stats from './commands/stats.js'
import Status from './commands/status.js'
import Store from './commands/store.js'
import TeamCreate from './commands/team/create.js'
import TeamList from './commands/team/list.js'
import Usage from './commands/usage.js'

export const COMMANDS = {
  browse: Browse,
  consolidate: Consolidate,
  context: Context,
  edit: Edit,
  export: Export,
  enrich: Enrich,
  feedback: Feedback,
  forget: Forget,
  get: Get,
  history: History,
  hook: Hook,
  'hooks:install': HooksInstall,
  'hooks:uninstall': HooksUninstall,
  init: Init,
  intake: Intake,
  'keys:auth': KeysAuth,
  'keys:create': KeysCreate,
  'keys:list': KeysList,
  'keys:revoke': KeysRevoke,
  'layers:list': LayersList,
  'layers:mount': LayersMount,
  'layers:sync': LayersSync,
  'layers:unmount': LayersUnmount,
  'links:add': LinksAdd,
  'links:attach': LinksAttach,
  'links:list': LinksList,
  'links:remove': LinksRemove,
  'pack:export': PackExport,
  'pack:import': PackImport,
  maintain: Maintain,
  mcp: Mcp,
  quality: Quality,
  recall: Recall,
  'remote:push': RemotePush,
  'remote:set': RemoteSet,
  'remote:status': RemoteStatus,
  'remote:sync': RemoteSync,
  'remote:unset': RemoteUnset,
  repos: Repos,
  serve: Serve,
  setup: Setup,
  stats: Stats,
  status: Status,
  store: Store,
  'team:create': TeamCreate,
  'team:list': TeamList,
  usage: Usage,
}

export {execute} from '@oclif/core'
export {notFound} from './not-found.js'
