// The issue's four notes (issue 30), and questions that ask about them in other words. Shared by the
// meaning tests of each model.
export const MEANING_NOTES = [
  'Use pnpm, never npm, in this repo',
  'The API returns money as integer cents, never floats',
  'Never log request bodies: they contain customer PII',
  'We deploy to Fly.io from the main branch via GitHub Actions',
]
/**
 * The issue's own four questions, one per note. Words alone answer them: the developer thesaurus
 * (engines/search/thesaurus-groups.ts) three, prices → money/cents, privacy → PII, hosted → Fly.io,
 * and the roles' words (text/roles.ts) the first, install dependencies → the package managers → pnpm.
 */
export const ISSUE_QUESTIONS = ['how do I install dependencies', 'what format are prices in', 'privacy rules', 'where is production hosted']
/** One question per note that neither the note's words nor the thesaurus reach: only a model can answer them. */
export const MEANING_QUESTIONS = ['which tool fetches our third-party code', 'how are sums of cash sent back to callers', 'what must stay out of our diagnostics output', 'which company keeps our site up']
