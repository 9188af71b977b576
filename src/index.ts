/**
 * mem as a library: open a context over MEM_HOME (the same stores the CLI and `mem serve` use)
 * and call the operations. The HTTP client is the `./client` export.
 *
 *   import {openMem, store, recall} from '<package>'
 *   const mem = openMem({env: process.env})
 *   await store(mem, {repo: '/path/to/repo', content: 'Run the e2e suite with npm run e2e', type: 'procedure'})
 *   console.log((await recall(mem, {repo: '/path/to/repo', q: 'how do I run e2e tests?'})).results)
 *   await mem.close()
 */
export {openMem, type MemRuntime, type OpenMemOptions} from './runtime/open-mem.js'
export {MemError, ERROR_CODES, type ErrorBody, type ErrorCode} from './model/errors.js'
export {MEMORY_TYPES, type Memory, type MemoryType} from './model/memory.js'
export {store} from './operations/store.js'
export {recall} from './operations/recall.js'
export {context, contextPreview} from './operations/session-context.js'
export {get} from './operations/get.js'
export {edit} from './operations/edit.js'
export {forget} from './operations/forget.js'
export {feedback} from './operations/feedback.js'
export {history} from './operations/history.js'
export {stats} from './operations/stats.js'
export {browse} from './operations/browse.js'
export {repos} from './operations/repos.js'
export {consolidate} from './operations/consolidate.js'
export {maintain} from './operations/maintain.js'
export {intake} from './operations/intake.js'
export {exportMarkdown} from './operations/export.js'
export {quality} from './operations/quality.js'
// Every operation as declared (schemas, scope, outcomes), and `invoke`, which runs one the way the
// CLI, the server and MCP do (counted in the usage statistics).
export {ops, OPERATIONS} from './operations/catalog/index.js'
export {invoke, outcomeOf, type OpDef} from './operations/define.js'
