import type {MemContext} from './mem-context.js'

const NOOP = (): void => undefined

/**
 * Starts counting one operation for the usage statistics; call the returned function with the
 * repo and the number of results once the operation has answered (failed calls are not counted).
 * Costs a clock read and a map update: no I/O (see runtime/usage-recorder.ts).
 */
export function track(ctx: MemContext, operation: string): (repo: {root: string}, resultCount: number) => void {
  return ctx.usage?.start(operation) ?? NOOP
}
