// Adversarial texts of 16,000 characters (issue 28, item 7): the shapes that made text rules
// super-linear, or could. Used by the adversarial benchmark (test/bench/adversarial.mjs) and the
// gate's tests (test/engines/gates/linear.test.ts). Built at run time; nothing here is a secret.

export const N = 16_000
const fill = (unit, n = N) => unit.repeat(Math.ceil(n / unit.length)).slice(0, n)
/** Words `f(0) f(1) …` joined by `sep`, cut at `n` characters. */
function words(f, n = N, sep = ' ') {
  const out = []
  let length = 0
  for (let i = 0; length <= n; i++) {
    const w = f(i)
    out.push(w)
    length += w.length + sep.length
  }
  return out.join(sep).slice(0, n)
}
const letter = (i) => String.fromCharCode(97 + (i % 26))

/** The shapes, each exactly 16,000 characters (the most a memory holds). */
export const ADVERSARIAL = {
  'stop words (a a a …)': fill('a '),
  'stop words, mixed': fill('the of and to in is it that was with '),
  'one word repeated': fill('deploy '),
  'no spaces: letters': fill('a'),
  'no spaces: closing brackets': fill(')', N - 1) + 'x',
  'no spaces: an identifier': fill('a_'),
  'no spaces: dotted': fill('a.b'),
  'every char a word': words((i) => letter(i)),
  'brackets nested': fill('(', N / 2) + fill(')', N / 2),
  'brackets unclosed': fill('[a]('),
  'quotes and backticks': fill('`\'"'),
  'quotes unclosed': fill(' \'a'),
  'quoted values': words((i) => `'v${i}'`),
  'emphasis unclosed': fill(' *a'),
  'code fences': fill('```x '),
  'numbers': words((i) => String(i)),
  'versions': words((i) => `${i % 30}.${i % 7}.${i}`),
  'paths': words((i) => `src/mod${i}/file${i}.ts`),
  'flags': words((i) => `--flag-${i}`),
  'names': words((i) => `Name${letter(i)}${letter(i / 26)}`),
  'identifiers (camelCase)': words((i) => `getValue${letter(i)}${letter(i / 26)}Of`),
  'long URL': `https://example.com/${fill('seg/', N - 20)}`,
  'URLs': words((i) => `https://host${i}.example.com/p/${i}?q=${i}`),
  'a. a. a. …': fill('a.'),
  'short clauses': words((i) => `word${i % 50}x.`),
  'capitals (shouted)': fill('NEVER PUSH TO MAIN ON FRIDAYS '),
  'accents': fill('é'),
  'combining marks': fill('a\u0301\u0301\u0301 '),
  'ligature U+FDFA (NFKD: 18 chars)': fill('\uFDFA'),
  'CJK': fill('漢字かなカナ한글'),
  'Hangul': fill('한국어 '),
  'emoji': fill('🎉 '),
}

export const PROSE = fill(
  'The API server listens on port 3000 and CI runs the unit tests with Vitest on Node 20; deploys go through the Fly CLI, and errors are reported to Sentry. ',
)

/** The text with its last word changed: another value of the same text (an update). */
export function variantOf(text) {
  const last = ' Zeta9'
  const cut = text.lastIndexOf(' ', text.length - 2)
  return `${text.slice(0, Math.min(cut > 0 ? cut : text.length, N - last.length))}${last}`
}
