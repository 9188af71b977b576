import {getExtra} from '../../storage/memories.js'
import type {Db} from '../../storage/db.js'

/**
 * Whether two live memories are both intake seeds as intake wrote them (`extra.intake`; a person's
 * edit is a new version without it): lines the project's files hold now, as of the last intake run
 * (it forgets the seed of a line that is gone), so both true at once, whatever their words say.
 * Intake itself makes a seed's new version when its line changes; nothing else links two of them
 * (maintenance, and the links meaning finds after a store: gates/admit.ts planMeaningLinks).
 */
export function bothInFiles(db: Db, a: string, b: string): boolean {
  return getExtra(db, a).intake !== undefined && getExtra(db, b).intake !== undefined
}
