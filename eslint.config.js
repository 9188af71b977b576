// The linter: a second wall beside test/architecture/layers.test.ts (which holds the import graph).
// Type-aware (floating promises need the types): src/ and test/ through tsconfig.lint.json, the web
// UI through its own tsconfig (DOM, bundler resolution). `npm run lint`; `npm test` runs it first.
// Every rule is an error: the branch carries zero findings, so any finding is new.
import reactHooks from 'eslint-plugin-react-hooks'
import regexp from 'eslint-plugin-regexp'
import tseslint from 'typescript-eslint'

/** The layers below the faces (ranks 0–3 in the architecture test): they return data and throw; they never print or read the process. */
const BELOW_THE_FACES = ['src/model', 'src/text', 'src/config', 'src/storage', 'src/engines', 'src/operations', 'src/runtime'].map((d) => `${d}/**/*.{ts,tsx}`)

const FACES_ONLY = 'belongs to the faces (src/faces, src/client): below them, take it as an argument (openMem({env, cwd, now}) builds the context) and return data instead of printing'

export default tseslint.config(
  {ignores: ['dist/**', 'node_modules/**', '**/*.d.ts', 'test/**/fixtures/**']},
  {
    files: ['src/**/*.{ts,tsx}', 'test/**/*.{ts,tsx}'],
    plugins: {'@typescript-eslint': tseslint.plugin},
    languageOptions: {
      parser: tseslint.parser,
      parserOptions: {
        project: ['./tsconfig.lint.json', './src/faces/ui/tsconfig.json'],
        tsconfigRootDir: import.meta.dirname,
      },
    },
    linterOptions: {reportUnusedDisableDirectives: 'error'},
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', {
        args: 'none', // a handler's unused parameters keep its signature readable
        caughtErrors: 'none',
        ignoreRestSiblings: true, // const {secret, ...rest} = x drops a field on purpose
        varsIgnorePattern: '^_',
      }],
      '@typescript-eslint/no-floating-promises': ['error', {ignoreVoid: true}],
      eqeqeq: ['error', 'always', {null: 'ignore'}],
    },
  },
  {
    // No pattern whose time grows with the square of its input or worse, in all of src/: a memory's
    // text (up to 16,000 characters), a repository's files that intake and setup read (written by
    // anyone), queries, URLs. A lookbehind scanning back from every position made a 14 kB store
    // take 250 ms; a TOML header pattern held mem intake for days on one 250 kB line
    // (docs/security.md, "Hostile text costs linear time").
    files: ['src/**/*.{ts,tsx}'],
    plugins: {regexp},
    rules: {
      'regexp/no-super-linear-move': 'error',
      'regexp/no-super-linear-backtracking': 'error',
    },
  },
  {
    // the scripts, benchmarks and helpers written as plain JavaScript: the rules that need no types
    files: ['**/*.{js,mjs}'],
    rules: {
      'no-unused-vars': ['error', {args: 'none', caughtErrors: 'none', ignoreRestSiblings: true, varsIgnorePattern: '^_'}],
      eqeqeq: ['error', 'always', {null: 'ignore'}],
    },
  },
  {
    // the two React faces: the web UI and the terminal browser
    files: ['src/faces/ui/**/*.{ts,tsx}', 'src/faces/tui/**/*.{ts,tsx}'],
    plugins: {'react-hooks': reactHooks},
    rules: {
      'react-hooks/rules-of-hooks': 'error',
      'react-hooks/exhaustive-deps': 'error',
    },
  },
  {
    files: BELOW_THE_FACES,
    rules: {
      'no-restricted-globals': ['error',
        {name: 'process', message: `process ${FACES_ONLY}.`},
        {name: 'console', message: `console ${FACES_ONLY}.`},
      ],
      'no-restricted-properties': ['error',
        {object: 'globalThis', property: 'process', message: `process ${FACES_ONLY}.`},
        {object: 'globalThis', property: 'console', message: `console ${FACES_ONLY}.`},
      ],
      'no-restricted-imports': ['error', {paths: [
        {name: 'node:process', message: `process ${FACES_ONLY}.`},
        {name: 'process', message: `process ${FACES_ONLY}.`},
        {name: 'node:console', message: `console ${FACES_ONLY}.`},
        {name: 'console', message: `console ${FACES_ONLY}.`},
      ]}],
    },
  },
)
