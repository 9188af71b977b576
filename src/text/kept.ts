/**
 * What a text was read as, kept for the texts read lately: a store reads its candidates, then
 * links and indexes some of them, and the same subjects come back store after store. At most
 * `max` entries and `maxChars` characters of texts (what a text is read as grows with it: a
 * 16,000-character text's shingles take about a megabyte); the oldest goes first. Callers must not
 * modify what they get.
 */
export function keptBy<T>(read: (text: string) => T, max = 2_048, maxChars = 512_000): (text: string) => T {
  const kept = new Map<string, T>()
  let chars = 0
  return (text) => {
    let v = kept.get(text)
    if (v === undefined) {
      v = read(text)
      if (text.length > maxChars) return v
      while (kept.size >= max || (kept.size > 0 && chars + text.length > maxChars)) {
        const oldest = kept.keys().next().value!
        chars -= oldest.length
        kept.delete(oldest)
      }
      kept.set(text, v)
      chars += text.length
    }
    return v
  }
}
