/**
 * What a text was read as, kept for the texts read lately: a store reads its candidates, then
 * links and indexes some of them, and the same subjects come back store after store. At most
 * `max` entries; the oldest goes first. Callers must not modify what they get.
 */
export function keptBy<T>(read: (text: string) => T, max = 2_048): (text: string) => T {
  const kept = new Map<string, T>()
  return (text) => {
    let v = kept.get(text)
    if (v === undefined) {
      v = read(text)
      if (kept.size >= max) kept.delete(kept.keys().next().value!)
      kept.set(text, v)
    }
    return v
  }
}
