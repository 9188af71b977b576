/**
 * Every operation, declared once (see ../define.ts): the faces read this catalog. A new operation
 * is its implementation (a file of src/operations), its declaration in one of these groups, and at
 * most a line per face (an MCP tool's description, a CLI command's presentation).
 *
 * A CLI command imports only the group it needs (each loads zod and the schemas). The quick
 * `mem recall` path (src/faces/cli/fast.ts) calls the implementation and imports none of them.
 */
import type {OpDef} from '../define.js'
import {insightOps} from './insight.js'
import {memoryOps} from './memories.js'
import {operationOps} from './operations.js'
import {sharingOps} from './sharing.js'
import {agentOps} from './agents.js'

export const ops = {...memoryOps, ...operationOps, ...insightOps, ...sharingOps, ...agentOps}
export type Ops = typeof ops

/** Every declared operation, in the catalog's order. */
export const OPERATIONS: ReadonlyArray<OpDef<any, any, any>> = Object.values(ops)
