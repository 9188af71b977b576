// The four notes and the questions that ask about them in other words (issue 30): no word
// of a question is in its note. Shared by the meaning tests of each model.
export const MEANING_NOTES = [
  'Use pnpm, never npm, in this repo',
  'The API returns money as integer cents, never floats',
  'Never log request bodies: they contain customer PII',
  'We deploy to Fly.io from the main branch via GitHub Actions',
]
export const MEANING_QUESTIONS = ['how do I install dependencies', 'what format are prices in', 'privacy rules', 'where is production hosted']
