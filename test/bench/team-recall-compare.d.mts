// Types of team-recall-compare.mjs, for the TypeScript test that runs it on src/.
export interface RecallSetMemory {
  key: string
  type: string
  content: string
  tags?: string[]
  importance?: number
}
export interface RecallSet {
  name: string
  stepMs: number
  memories: RecallSetMemory[]
  questions: string[]
}
export interface RecallCompareIo<C> {
  store(ctx: C, input: {repo: string; type: any; content: string; tags?: string[]; importance?: number}): Promise<{success: boolean; id?: string; duplicateId?: string; reason?: string}>
  recall(ctx: C, input: {repo: string; q: string; limit: number}): Promise<{results: Array<{id: string; score: number}>}>
  openLocal(now: () => Date): {ctx: C; repo: string; close(): Promise<void> | void}
  openReplica(name: string, now: () => Date): Promise<{repo: string; run<T>(fn: (ctx: C) => Promise<T>): Promise<T>; close(): Promise<void> | void}>
}
export interface RecallComparison {
  set: string
  memories: number
  outcomesAgree: number
  outcomeDifferences: Array<{memory: string; local: string; writer: string}>
  questions: number
  agree: number
  /** Questions the local store ranked at least one memory for. */
  answered: number
  differences: Array<{q: string; local: Array<[string, number]>; writer: Array<[string, number]>; cold: Array<[string, number]>}>
}
export function benchSets(): RecallSet[]
export function locomoSet(conv: {name: string; turns: Array<{dia: string; content: string}>; questions: Array<{q: string}>}): RecallSet
export function idTail(id: string): string
export function compareRecall<C>(set: RecallSet, io: RecallCompareIo<C>, options?: {limit?: number; questions?: string[]}): Promise<RecallComparison>
