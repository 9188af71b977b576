/**
 * The commands a text gives and the tasks they are for: "Run the tests with `npm test`", "Apply
 * migrations with rake db:migrate", "Before committing, run just fmt". A project has one command
 * for a task at a time, so two texts giving another command for one task are that rule changed —
 * "Install dependencies with `npm install`" → "Set up node_modules by running `pnpm i`" — in words
 * that may share nothing but what the task is: what the same-command rule of currency compares
 * (engines/currency/rules.ts). A command is a quoted span that starts with a program, or, unquoted,
 * a program of the trade's vocabulary (PROGRAMS) and the arguments after it; its tasks are read from
 * its own words and from the words around it (TASKS). Pure functions.
 */
import {STOP_WORDS} from './stopwords.js'
import {oncePer} from './once.js'

/** What the commands of a text are read from: its words, its quoted values and where its clauses end (values.ts FactShape). */
type Words = {sequence: readonly string[]; values: readonly string[]; breaks: readonly number[]}

export interface CommandMention {
  /** The command as the text writes it. */
  shown: string
  /** The command compared: its words lowercased, one space apart. */
  key: string
  /** Its program, lowercased (`npm`, `make`, `bin/rails`, `./scripts/gen-client.sh`). */
  program: string
  /** Where it stands in the text's word sequence: its first word and the index after its last. */
  at: number
  end: number
}

/**
 * Programs whose name is no common word: a command wherever they stand before their arguments.
 * Build tools, package managers, test runners, linters, formatters, deployers of the trade.
 */
const PROGRAMS = new Set(
  `npm npx pnpm pnpx yarn bun bunx deno cargo rustup python python3 pip pip3 pipx uv uvx poetry pdm hatch tox nox pytest
rake rails bundle rspec docker docker-compose podman tilt skaffold kamal helm kubectl terraform tofu pulumi ansible-playbook
mkdocs sphinx-build tsc vue-tsc eslint prettier biome ruff isort flake8 mypy pyright golangci-lint gofmt rustfmt mvn mvnw
gradle gradlew dotnet composer artisan iex xcodebuild fastlane flutter dart cmake ctest ninja bazel turbo nx lerna changeset
pre-commit husky lefthook vercel netlify flyctl heroku wrangler firebase serverless sls supabase prisma drizzle-kit alembic
django-admin manage.py hugo jekyll zola phpunit pest vitest jest playwright cypress stylelint jsdoc typedoc storybook
ng nuxi vite expo eas sbt rebar3 dune cabal zig gleam cdk gcloud psql liquibase flyway dbmate swiftlint swiftformat
ktlint detekt rubocop semgrep trivy hadolint shellcheck shfmt actionlint tflint webpack rollup esbuild tauri wasm-pack ts-node
karma mocha php ruby javac meson conan vcpkg`
    .split(/\s+/)
    .filter(Boolean),
)

/** Programs whose name is also a word ("make sure", "just once", "go to"): a command only after a word that introduces one. */
const WORD_PROGRAMS = new Set(['make', 'just', 'task', 'mage', 'mix', 'node', 'cap', 'fly'])
/** Words a command follows: "… with make test", "run just fmt", "… by running make seed", "… via docker compose up". */
const INTRODUCERS = new Set(['with', 'via', 'by', 'run', 'running', 'runs', 'use', 'using', 'call', 'calling', 'through', 'execute', 'invoke', 'type', 'is', 'are'])
/** What `go` runs as a program ("go test ./...") rather than the verb ("go to the wiki"). */
const GO_COMMANDS = new Set(['test', 'build', 'run', 'vet', 'mod', 'generate', 'fmt', 'install', 'get', 'work', 'tool'])
/** Words after a word program that are not its target: "make sure", "just once". */
const NOT_TARGETS = new Set(['sure', 'it', 'sense', 'changes', 'room', 'once', 'now', 'one', 'two', 'us'])
/** Stop words that are arguments of a command: "docker compose up", "make all" (not "in": "… publish in CI"). */
const ARGUMENT_WORDS = new Set(['up', 'down', 'all'])

const FLAG = /^--?[\w-]+(=\S*)?$/
const ARGUMENT = /^[a-z0-9@][\w:.@/=-]*$/
/** A script run by its path: `./format.sh`, `bin/rails`, `scripts/seed.js`, `tools/gen-client.sh` (not a file named: "tests/conftest.py"). */
const PATH_PROGRAM = /^(\.\/|bin\/|scripts\/)|\.sh$/

/** Whether a word is a program by its name or its path (`./format.sh`, `bin/rails`, `scripts/seed.js`). */
const isProgram = (word: string) => PROGRAMS.has(word) || (PATH_PROGRAM.test(word) && /[a-z]/.test(word))

/** Words a program runs as its subcommand, besides the words of a task (TASKS): "npm run", "uv sync", "docker compose". */
const SUBCOMMANDS = new Set(
  `run exec x dlx i install ci sync add remove update upgrade outdated audit tidy init setup new apply plan diff push pull
login logout compose up down start stop restart serve dev watch status show list ls db manage.py revision head prune cache
package verify validate check all bundle nextest rails rake test tests spec specs lint fmt format build compile deploy publish
release migrate seed generate gen codegen docs clean typecheck bench e2e coverage vet clippy`.split(/\s+/).filter(Boolean),
)

/**
 * Whether the word after an unquoted program makes it a command: a flag, a path, a word joined by
 * `:` or `-` ("db:migrate", "generate-client"), or a subcommand ("run", "test", "fmt"). A program
 * named as a tool is followed by other words ("pytest with coverage", "pre-commit hook checks").
 */
const startsArguments = (word: string) => FLAG.test(word) || word.includes('/') || word.startsWith('.') || /[\w][:-][\w]/.test(word) || SUBCOMMANDS.has(word)

/** A text's commands, in order. Read once per sequence (a fact shape's): callers must not modify what they get. */
export const commandsIn: (shape: Words) => readonly CommandMention[] = oncePer(readCommands)

function readCommands({sequence, values, breaks}: Words): CommandMention[] {
  const words = sequence.map((w) => w.toLowerCase())
  const out: CommandMention[] = []
  const taken = new Set<number>()
  // quoted: a span the text quotes that starts with a program
  for (const v of values) {
    if (!v.startsWith('q:')) continue
    const quoted = v.slice(2).trim().split(/\s+/)
    const program = quoted[0].toLowerCase()
    if (!isProgram(program) && !WORD_PROGRAMS.has(program) && !(program === 'go' && GO_COMMANDS.has(quoted[1]?.toLowerCase() ?? ''))) continue
    const at = words.findIndex((w, i) => w === program && !taken.has(i))
    if (at < 0) continue
    const end = Math.min(at + quoted.length, words.length)
    for (let i = at; i < end; i++) taken.add(i)
    out.push({shown: v.slice(2).trim(), key: quoted.map((w) => w.toLowerCase()).join(' '), program, at, end})
  }
  // unquoted: a program of the vocabulary and the arguments after it, to the clause's end
  for (let i = 0; i < words.length; i++) {
    if (taken.has(i)) continue
    const w = words[i]
    const next = words[i + 1] ?? ''
    const clauseEnd = breaks.find((b) => b > i) ?? words.length
    // typed as a command: lowercase ("Gradle", "Husky" name the tool), and arguments after it
    // a path is a program wherever it stands (`./format.sh`, bin/clear-cache)
    const path = PATH_PROGRAM.test(w) && /[a-z]/.test(w)
    if (sequence[i] !== w || (!path && (i + 1 >= clauseEnd || !startsArguments(next)))) continue
    const program =
      isProgram(w) ||
      (w === 'go' && GO_COMMANDS.has(next)) ||
      (WORD_PROGRAMS.has(w) && i > 0 && INTRODUCERS.has(words[i - 1]) && !STOP_WORDS.has(next) && !NOT_TARGETS.has(next))
    if (!program) continue
    let end = i + 1
    while (end < clauseEnd && end - i < 6 && !taken.has(end) && isArgument(words[end])) end++
    for (let j = i; j < end; j++) taken.add(j)
    out.push({shown: sequence.slice(i, end).join(' '), key: words.slice(i, end).join(' '), program: w, at: i, end})
  }
  return out.sort((a, b) => a.at - b.at)
}

function isArgument(word: string): boolean {
  if (FLAG.test(word) || word.includes('/') || word.startsWith('.')) return true
  return ARGUMENT.test(word) && (!STOP_WORDS.has(word) || ARGUMENT_WORDS.has(word)) && !ARGUMENT_ENDS.has(word)
}
/** Words that end a command's arguments, unquoted: "run make seed locally", "npm test first". */
const ARGUMENT_ENDS = new Set(['locally', 'first', 'instead', 'again', 'now', 'before', 'after', 'whenever', 'every', 'each', 'inside', 'against'])

/**
 * Tasks and the words that name them, in a command (its words split at `:`, `/`, `.`, `_`, `=`
 * and `-`: "db:migrate", "gen-client.sh") or around it. `prefix`: a word starting so names the task;
 * `exact`: the whole word does. Narrow on purpose: "check" alone says nothing of what is checked,
 * and `gate` (a task that runs the checks before a review: `make check`, `just ci`) is read in a
 * command only.
 */
const TASKS: Readonly<Record<string, {prefix?: readonly string[]; exact?: readonly string[]; commandOnly?: readonly string[]}>> = {
  test: {prefix: ['test', 'spec', 'suite', 'pytest', 'vitest', 'jest', 'rspec', 'nextest', 'unittest', 'minitest', 'phpunit', 'mocha', 'ctest', 'coverage'], exact: ['e2e']},
  lint: {prefix: ['lint', 'clippy', 'eslint', 'flake8', 'pylint', 'golangci', 'rubocop', 'staticcheck', 'credo', 'oxlint', 'stylelint'], exact: ['vet', 'static']},
  format: {prefix: ['format', 'prettier', 'gofmt', 'rustfmt', 'isort', 'fixer'], exact: ['fmt', 'black', 'style']},
  typecheck: {prefix: ['typecheck', 'tsc', 'mypy', 'pyright'], exact: ['types', 'type', 'typing']},
  build: {prefix: ['build', 'compil']},
  // not "local" or "development": a scope of many tasks ("Local Kafka topics are created by …")
  dev: {exact: ['dev', 'serve', 'watch'], commandOnly: ['start', 'up']},
  deploy: {prefix: ['deploy', 'ship', 'rollout']},
  release: {prefix: ['releas', 'publish']},
  migrate: {prefix: ['migrat']},
  seed: {prefix: ['seed', 'loaddata', 'fixture'], exact: ['sample']},
  deps: {prefix: ['dependenc', 'node_modules', 'lockfile'], exact: ['deps', 'packages']},
  codegen: {prefix: ['codegen', 'generat', 'regenerat'], exact: ['gen']},
  docs: {prefix: ['mkdocs', 'docusaurus', 'sphinx'], exact: ['docs', 'doc', 'documentation']},
  clean: {prefix: ['clean', 'clear', 'reset', 'purge']},
  hooks: {prefix: ['hook', 'precommit', 'husky', 'lefthook']},
  gate: {commandOnly: ['check', 'ci', 'verify', 'validate']},
  bench: {prefix: ['bench']},
}
/** The tasks a command can be for, by name. */
export const TASK_NAMES: readonly string[] = Object.keys(TASKS)
/** A task that names what another's verb acts on ("Build the docs", "Install the hooks"): the text is for it alone. */
const ABSORBS: Readonly<Record<string, readonly string[]>> = {docs: ['build', 'codegen', 'dev', 'deploy'], hooks: ['deps'], seed: ['dev']}
/** Programs that install a project's dependencies with these commands ("npm install", "pnpm i", "uv sync"). */
const PACKAGE_MANAGERS = new Set(['npm', 'pnpm', 'yarn', 'bun', 'pip', 'pip3', 'uv', 'poetry', 'pdm', 'bundle', 'composer', 'cargo'])
const INSTALL_COMMANDS = new Set(['install', 'i', 'ci', 'sync'])

/** The tasks a word of a command names (after commandParts). */
export function tasksOfCommandWord(word: string, program?: string): Set<string> {
  const tasks = new Set<string>()
  tasksOfWord(word, true, tasks)
  if (program !== undefined && PACKAGE_MANAGERS.has(program) && INSTALL_COMMANDS.has(word)) tasks.add('deps')
  return tasks
}

function tasksOfWord(word: string, inCommand: boolean, into: Set<string>): void {
  for (const [task, {prefix = [], exact = [], commandOnly = []}] of Object.entries(TASKS)) {
    if (exact.includes(word) || prefix.some((p) => word.startsWith(p)) || (inCommand && commandOnly.includes(word))) into.add(task)
  }
}

/** The words of a command as tasks are read in them: "type-check" and "pre-commit" whole, the rest split at punctuation. */
export const commandParts = (word: string) => word.replace(/type[-_]check/g, 'typecheck').replace(/pre[-_]commit/g, 'precommit').split(/[:/._=-]+/).filter(Boolean)

/**
 * The tasks of a text that gives one command: read in the command and in the words around it. Empty
 * when the text gives no command or more than one.
 */
export const commandTasks: (shape: Words) => ReadonlySet<string> = oncePer(readTasks)

function readTasks(shape: Words): Set<string> {
  const commands = commandsIn(shape)
  const tasks = new Set<string>()
  if (commands.length !== 1) return tasks
  const [command] = commands
  const parts = command.key.split(' ')
  for (const word of parts) for (const part of commandParts(word)) tasksOfWord(part, true, tasks)
  if (PACKAGE_MANAGERS.has(command.program) && INSTALL_COMMANDS.has(parts[1] ?? '') && parts.length === 2) tasks.add('deps')
  shape.sequence.forEach((w, i) => {
    if (i < command.at || i >= command.end) tasksOfWord(w.toLowerCase(), false, tasks)
  })
  for (const [task, absorbed] of Object.entries(ABSORBS)) if (tasks.has(task)) for (const a of absorbed) tasks.delete(a)
  return tasks
}

/**
 * The ecosystem a program belongs to, for the programs of one language's or platform's toolchain:
 * `cargo fmt` formats Rust, `terraform fmt` Terraform, `composer format` PHP. Programs of any
 * project (make, just, docker, a script) have none.
 */
const ECOSYSTEMS: Readonly<Record<string, readonly string[]>> = {
  javascript: ['npm', 'npx', 'pnpm', 'pnpx', 'yarn', 'bun', 'bunx', 'deno', 'node', 'tsc', 'vue-tsc', 'eslint', 'prettier', 'biome', 'vitest', 'jest', 'playwright', 'cypress', 'stylelint', 'turbo', 'nx', 'lerna', 'changeset', 'husky', 'prisma', 'drizzle-kit', 'jsdoc', 'typedoc', 'storybook', 'qunit', 'mocha', 'ember'],
  python: ['python', 'python3', 'pip', 'pip3', 'pipx', 'uv', 'uvx', 'poetry', 'pdm', 'hatch', 'tox', 'nox', 'pytest', 'ruff', 'isort', 'flake8', 'mypy', 'pyright', 'alembic', 'django-admin', 'manage.py', 'mkdocs', 'sphinx-build'],
  rust: ['cargo', 'rustup', 'rustfmt'],
  ruby: ['rake', 'rails', 'bin/rails', 'bin/rake', 'bundle', 'rspec', 'cap', 'kamal'],
  go: ['go', 'gofmt', 'golangci-lint'],
  jvm: ['mvn', 'mvnw', './mvnw', 'gradle', 'gradlew', './gradlew'],
  dotnet: ['dotnet'],
  php: ['composer', 'artisan', 'phpunit', 'pest'],
  elixir: ['mix', 'iex'],
  dart: ['dart', 'flutter'],
  apple: ['xcodebuild', 'fastlane'],
  native: ['cmake', 'ctest', 'ninja'],
  terraform: ['terraform', 'tofu'],
}
const ECOSYSTEM_OF = new Map(Object.entries(ECOSYSTEMS).flatMap(([e, programs]) => programs.map((p) => [p, e] as const)))
/**
 * The ecosystem of a command's program, or null for a program of any project. A wrapper in the
 * project's bin folder is its tool's (`bin/rspec`, `./bin/flutter`, `bin/qunit`); other scripts
 * have none.
 */
export const ecosystemOf = (program: string): string | null => {
  const direct = ECOSYSTEM_OF.get(program)
  if (direct) return direct
  const wrapped = /^(?:\.\/)?bin\/([a-z][\w-]*)$/.exec(program)
  return wrapped ? (ECOSYSTEM_OF.get(wrapped[1]) ?? null) : null
}
