/**
 * Token counting with a real BPE tokenizer (cl100k_base, as gpt-tokenizer ships it), loaded on
 * first use only: it costs ~0.3 s to load, which `mem recall` and the server's hot paths never pay.
 */
type Counter = (text: string) => number
let loading: Promise<Counter> | undefined

export function loadTokenCounter(): Promise<Counter> {
  loading ??= import('gpt-tokenizer/encoding/cl100k_base').then((m) => (text: string) => m.countTokens(text))
  return loading
}
