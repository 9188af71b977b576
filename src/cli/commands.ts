/**
 * Every command, by id, for oclif's explicit command discovery: the CLI is bundled into one
 * entry (plus lazily loaded chunks) so a command starts without resolving hundreds of modules.
 */
import Browse from '../../commands/browse.js'
import Context from '../../commands/context.js'
import Edit from '../../commands/edit.js'
import Feedback from '../../commands/feedback.js'
import Forget from '../../commands/forget.js'
import Get from '../../commands/get.js'
import History from '../../commands/history.js'
import Recall from '../../commands/recall.js'
import Repos from '../../commands/repos.js'
import Stats from '../../commands/stats.js'
import Store from '../../commands/store.js'

export const COMMANDS = {
  browse: Browse,
  context: Context,
  edit: Edit,
  feedback: Feedback,
  forget: Forget,
  get: Get,
  history: History,
  recall: Recall,
  repos: Repos,
  stats: Stats,
  store: Store,
}

export {execute} from '@oclif/core'
