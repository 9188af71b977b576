// Blind update pairs, set seven: written by a helper session for issue 30 (item 4, update detection),
// 2026-11-27, "updset7".
//
// Written blind: the author read no rule, guard, test or bench output of update detection, and no other
// author's blind set, before writing these, and no rule had been measured on them when they were committed.
// If a rule is ever tuned on this file, say so where its figures are reported: from then on it is not blind.
//
// BLIND7_UPDATES: [older, newer] — two versions of ONE project convention or policy, as a repo's agent
// instructions, contributing guide or style guide might hold them over its history; the newer replaces the older.
// The choice itself changed (not a number, a version, a command or a tool swap). About half flip a "never" into
// a "do" (or back); the rest swap one option for another. Many pairs share only one or two content words.
//
// BLIND7_OTHERS: [a, b] — two conventions a repo holds side by side, both true at once, in like words; neither
// updates the other. Many name options of the same convention for different things, places, file kinds,
// languages, branches, environments or audiences; others are a general rule next to an exception in other words,
// or a "never" next to an "always" about related things. Linking any of these as an update is a wrong link.

export const BLIND7_UPDATES = [
  // code style and language features
  ['Prefer class components for anything that holds state.', 'Write every component as a function with hooks; new class components are not accepted.'],
  ['Functions keep a single exit point, so never return early.', 'Return early on bad input to keep the happy path unindented.'],
  ['Avoid the ternary operator and spell conditions out with if and else.', 'Short conditional assignments should use a ternary expression.'],
  ['End every statement with a semicolon.', 'Leave semicolons out and let the formatter add one where automatic insertion would misread the line.'],

  // naming
  ['Boolean variables carry an is or has prefix, like isReady.', 'Name flags as bare adjectives such as ready or visible, with no is or has in front.'],
  ['Database tables are named in the plural, such as users and orders.', 'Name each table in the singular, after one row of it.'],
  ['Interfaces start with a capital I so they stand out from classes.', 'Do not prefix interface names; a type should read the same whatever declares it.'],
  ['Source files are named in PascalCase after the component they export.', 'Use kebab-case for every file name, whatever the file exports.'],

  // file and folder layout
  ['Keep tests in a top-level test folder that mirrors the source tree.', 'Each spec file sits right beside the module it covers.'],
  ['Group code by layer, with separate folders for controllers, services and models.', 'Organise the source by feature: each feature folder holds its own handlers, logic and storage.'],
  ['Shared helpers belong in the utils module at the root of the source tree.', 'There is no catch-all helpers file any more; a helper lives with the first feature that needs it.'],
  ['Do not add index files that re-export the contents of a folder.', 'Every package exposes its public surface through an index file that re-exports it.'],

  // commits and history
  ['Commit subjects follow conventional commits, with a type such as feat or fix in front.', 'Write commit subjects as plain imperative sentences without a type prefix.'],
  ['Squash a branch into a single commit before it merges.', 'Keep the individual commits of a branch when it lands; history is not squashed away.'],
  ['Rebase your feature branch onto main before asking for review.', 'Catch up with main by merging it into your branch; do not rewrite commits others may have pulled.'],
  ['Every commit needs a Signed-off-by line.', 'Sign-off trailers are no longer required, since the contributor agreement covers authorship.'],

  // review workflow
  ['Any maintainer may merge a pull request once the checks are green.', 'Nobody merges their own pull request; someone else must approve it first.'],
  ['Reviewers push small fixes straight onto the author branch.', 'Leave suggestions as review comments and let the author make every change on their branch.'],
  ['Open a pull request when the work is finished and ready to merge.', 'Open a draft pull request as soon as you start, so others can follow the work.'],

  // branching and release
  ['Releases are cut from long-lived release branches.', 'We ship straight from main and mark each release with a tag; release branches are retired.'],
  ['Production deploys may go out on any weekday.', 'Nothing is deployed to production on a Friday.'],
  ['Unfinished features stay on their own branch until they are complete.', 'Merge unfinished work to trunk every day, hidden behind a feature flag.'],
  ['The maintainer writes the changelog by hand when cutting a release.', 'Each pull request adds its own changelog entry as part of the change.'],

  // API design
  ['JSON fields in API responses use snake_case.', 'Response payloads are camelCase from now on.'],
  ['A failed call still answers with a success status and an error object in the body.', 'Signal failure through the HTTP status code; a success status never carries an error.'],
  ['List endpoints paginate with page and offset parameters.', 'Collections are paged with opaque cursors handed back by the previous page.'],
  ['Breaking changes to the API get a new version prefix in the URL path.', 'Clients choose the API version through a request header, not the path.'],

  // data and time
  ['Timestamps are stored in the server local time zone.', 'Save every time in UTC and convert it at display.'],
  ['Money amounts are kept as decimal strings.', 'Represent prices as integer minor units, never as strings or floats.'],
  ['Primary keys are auto-incrementing integers.', 'New tables get random UUID identifiers rather than sequential ids.'],
  ['Delete rows outright when a user removes something.', 'Records are soft-deleted with a deleted_at column and never physically removed.'],

  // error handling
  ['Functions report failure by throwing an exception.', 'Return a result value carrying ok or error instead of throwing.'],
  ['Catch errors where they happen and log them on the spot.', 'Let failures propagate to the top-level handler; do not catch something just to log it.'],
  ['An unexpected state should fail loudly with an assertion.', 'Do not crash on an unexpected state; record it and carry on with a safe default.'],

  // logging and output
  ['Log messages are free-form English sentences.', 'Emit structured logs as key-value JSON rather than prose.'],
  ['Keep debug logging switched on in production to ease investigations.', 'Production runs at info level, and debug output never ships there.'],
  ['Print progress messages to standard output.', 'Diagnostics and progress belong on stderr so that stdout stays pipeable.'],

  // documentation and comments
  ['Every public function gets a doc comment.', 'Skip doc comments where the name and the signature already say what a function does.'],
  ['Keep design notes in the team wiki.', 'Design decisions are recorded as markdown files in the repository, next to the code.'],
  ['Avoid inline comments, since the code should explain itself.', 'Comment any line whose reason is not obvious from reading it.'],

  // testing
  ['Mock the database in unit tests.', 'Tests run against a real database instance; database mocks are no longer allowed.'],
  ['Snapshot tests are encouraged for rendered output.', 'Do not write snapshot tests; assert on the specific text or attributes that matter.'],
  ['Write tests once the implementation works.', 'Start each change with a failing test, then make it pass.'],
  ['The end-to-end suite runs on every pull request.', 'Browser journeys are exercised nightly rather than per change.'],

  // dependencies
  ['Keep dependency ranges loose with a caret so fixes arrive automatically.', 'Pin every package to an exact release.'],
  ['Vendor third-party code into the repository.', 'Do not commit upstream sources; fetch them through the package manager.'],
  ['Prefer writing a small helper ourselves to adding a dependency.', 'Reach for a maintained library before hand-rolling anything non-trivial.'],
  ['Commit the lockfile with every dependency change.', 'This library ignores its lockfile, so consumers resolve their own versions.'],

  // security
  ['Secrets live in an env file checked into the private repository.', 'Credentials are never committed anywhere; the process reads them from its environment at runtime.'],
  ['Session tokens are kept in local storage.', 'Store session tokens in HttpOnly cookies, never where scripts can read them.'],
  ['Third-party scripts may be loaded from public CDNs.', 'Serve every script from our own origin.'],

  // types
  ['Use the any type when a shape is awkward to express.', 'The any type is banned: take unknown and narrow it.'],
  ['Prefer interfaces for object shapes.', 'Declare object types with type aliases.'],
  ['Use enums for fixed sets of values.', 'Model closed sets as unions of string literals rather than enums.'],

  // modules and imports
  ['Each module exports a single default.', 'Use named exports everywhere; default exports are not allowed.'],
  ['Import with relative paths.', 'Import through the src alias instead of climbing with dot-dot paths.'],

  // configuration
  ['Configuration is read from a YAML file at the repository root.', 'Configure the service through environment variables, with no config file.'],

  // styling and UI
  ['Style components in separate stylesheet files.', 'Styles are written as utility classes in the markup itself.'],
  ['Font sizes are set in pixels.', 'Give type sizes in rem so that they follow the reader setting.'],

  // agent behaviour
  ['Ask the user before running any shell command.', 'You may run read-only shell commands without asking.'],
  ['Leave formatting fixes out of feature changes.', 'Tidy the formatting of any file you touch as part of the same change.'],
  ['Reply to the user in the language they wrote in.', 'Always answer in English, whatever language the question uses.'],

  // localisation
  ['User-facing strings may be written directly in the components.', 'Every piece of visible text goes through the translation catalog.'],

  // database
  ['A migration may be edited after it is merged.', 'Never change a migration once it has landed; write a new one instead.'],
  ['Put business rules into stored procedures.', 'Keep business logic in application code and let the database only store data.'],

  // issues and discussion
  ['Discuss design questions in the issue tracker.', 'Design discussion happens on the pull request, not in a separate issue.'],
];

export const BLIND7_OTHERS = [
  // one convention, two options, for different things
  ['Name React component files in PascalCase.', 'Name hook and utility files in camelCase.'],
  ['Database columns use snake_case.', 'TypeScript properties use camelCase.'],
  ['Use single quotes in TypeScript source.', 'Use double quotes in YAML files.'],
  ['Squash-merge feature branches into main.', 'Release branches are merged back into main with a merge commit.'],
  ['Library packages use named exports.', 'Page files in the app router export their component as the default.'],
  ['Services return result objects for expected failures.', 'Programming errors throw and fail the request.'],
  ['Unit tests mock the network.', 'Integration tests talk to real services started in containers.'],
  ['Public API functions carry doc comments.', 'Internal helpers go without comments when their names are clear.'],
  ['Unit tests sit next to the file they cover.', 'Browser end-to-end tests live in their own top-level folder.'],
  ['Environment variables are written in upper snake case.', 'Command-line flags are written in kebab-case.'],
  ['Python modules use snake_case file names.', 'Go packages use short lowercase names without underscores.'],
  ['Services log JSON lines in production.', 'Local development prints coloured, human-readable log lines.'],
  ['Timestamps are stored in UTC.', 'Dates shown to users are formatted in their own time zone.'],
  ['Our API responses use camelCase fields.', 'Webhook payloads we relay keep the sender snake_case fields untouched.'],
  ['Production deploys need a manual approval.', 'Staging deploys happen automatically on every merge.'],
  ['Application packages pin exact dependency versions.', 'Libraries declare their peer dependencies as ranges.'],
  ['Debug logging is on in development.', 'Production logs at warning level.'],
  ['Indent Go files with tabs.', 'Indent Python files with spaces.'],
  ['Application code uses ESM imports.', 'Tool config files at the root stay CommonJS.'],
  ['Soft-delete user records.', 'Hard-delete session rows when they expire.'],
  ['Public identifiers are UUIDs.', 'Join tables keep integer surrogate keys.'],
  ['Money is stored as integer cents.', 'Exchange rates are stored as decimals with full precision.'],
  ['Error messages shown to users are translated.', 'Log messages stay in English.'],
  ['Snapshot tests are fine for the CLI help output.', 'UI components are tested by asserting on visible text rather than snapshots.'],
  ['The backend raises exceptions for errors.', 'The Go services return errors as values.'],
  ['Python code uses snake_case names.', 'The JavaScript client uses camelCase names.'],
  ['Release tags are annotated and signed.', 'Nightly builds get lightweight tags.'],
  ['The web app keeps its session in an HttpOnly cookie.', 'The CLI keeps its token in the system keychain.'],
  ['Secrets come from the vault in production.', 'Local development reads secrets from an untracked env file.'],
  ['Public endpoints paginate with cursors.', 'Admin reports use page numbers so staff can jump ahead.'],
  ['Version the public API in the URL path.', 'Internal endpoints are not versioned.'],
  ['REST endpoints report errors through HTTP status codes.', 'The GraphQL endpoint returns errors inside the response body.'],
  ['Migrations run automatically when staging deploys.', 'Production migrations are applied by hand by the on-call engineer.'],
  ['Answer users in the language they wrote in.', 'Write code comments and commit messages in English.'],
  ['Use rem for font sizes.', 'Use pixels for borders and hairlines.'],
  ['Web components are styled with utility classes.', 'Email templates use inline styles because mail clients strip stylesheets.'],
  ['Use interfaces for public object shapes.', 'Use type aliases for unions and mapped types.'],
  ['Prefer string unions over enums for states.', 'Permission bit flags are modelled with a numeric enum.'],
  ['Import across features through the src alias.', 'Within a folder, import siblings with a relative path.'],
  ['Name booleans with an is prefix.', 'Name event handler props with an on prefix.'],
  ['Structured JSON logs are the norm for services.', 'The CLI prints plain sentences meant for people.'],
  ['Progress output goes to standard error.', 'Command results go to standard output.'],
  ['Design decisions live in the docs decisions folder.', 'Meeting notes stay in the wiki.'],
  ['Mock the payment provider in tests.', 'Use the real database in tests.'],
  ['Run the end-to-end suite nightly.', 'Run the smoke tests on every pull request.'],
  ['Hotfix branches start from the latest release tag.', 'Feature branches start from main.'],
  ['Rust crates return errors as Result values.', 'The TypeScript layer throws typed error classes.'],
  ['The web package targets evergreen browsers.', 'The server package targets the current Node LTS.'],
  ['The core package has no runtime dependencies.', 'The CLI package may depend on any well-kept library.'],
  ['Use camelCase for JavaScript variables.', 'Use snake_case for SQL aliases.'],
  ['Keep README files short and task-focused.', 'Keep the architecture document complete and detailed.'],
  ['Frontend dates are formatted with the user locale.', 'Dates in log lines are always ISO formatted.'],
  ['Keep tests in a top-level folder for the Python package.', 'The Rust crates keep unit tests inline in each module.'],
  ['Merge pull requests to main with squash.', 'Sync the vendored fork from upstream with a plain merge.'],
  ['Name SQL tables in the plural.', 'Name model classes in the singular.'],
  ['Write commit subjects in the imperative mood.', 'Write changelog entries in the past tense.'],
  ['The public API uses snake_case query parameters.', 'The internal RPC schema uses camelCase field names.'],
  ['Async code in the server uses async and await.', 'Stream handlers use callbacks, as the stream API expects.'],

  // a general rule and an exception in other words
  ['Prefer function components everywhere.', 'Error boundaries are written as classes, since hooks cannot catch render errors.'],
  ['The any type is not allowed.', 'Generated API clients may contain any; leave them as generated.'],
  ['Do not commit generated code.', 'The generated protocol stubs are checked in so consumers need no toolchain.'],
  ['Main is protected and every change needs a review.', 'Typo fixes in the docs folder may be merged by their author.'],
  ['Rebase your branch freely while it is private.', 'Once teammates build on a branch, merge main into it instead of rebasing.'],
  ['Database tables are named in the plural.', 'Lookup tables for enumerations take singular names.'],
  ['Files use kebab-case names.', 'Top-level markdown files keep upper-case names like README and LICENSE.'],
  ['Every user-visible change gets a changelog entry.', 'Refactors and test-only changes skip the changelog.'],
  ['Dependencies come from the package registry.', 'The patched parser is vendored under the third_party folder.'],
  ['Prefer a maintained library to hand-written code.', 'Date parsing for legacy imports is hand-written, as the libraries mishandle those formats.'],
  ['Let errors reach the top-level handler.', 'Background workers catch each job failure themselves and retry it.'],
  ['Crash on invariant violations in development builds.', 'Release builds report invariant violations and keep running.'],
  ['Reviewers leave suggestions rather than pushing commits.', 'Maintainers may push fixups onto contributor branches left stale for weeks.'],
  ['Open a draft pull request early.', 'Security fixes are prepared in a private fork and opened when the advisory is published.'],
  ['Sign-off lines are required from outside contributors.', 'Core team commits go without a sign-off.'],
  ['Request handlers must not read files synchronously.', 'Startup code may load config files synchronously.'],
  ['Every exported function needs a test.', 'Prototypes in the spikes folder need no tests.'],
  ['Write the failing test first for bug fixes.', 'Exploratory spikes may be written without tests and thrown away.'],
  ['Deploy to production on weekdays during working hours.', 'Security patches may go out at any hour, weekends included.'],
  ['Keep pull requests small and focused.', 'Mechanical renames across the tree may land as one large change.'],
  ['Unit tests never touch the file system.', 'Integration tests write into a temporary directory they create.'],
  ['Scripts are served from our own origin.', 'Web fonts are loaded from the public font service.'],
  ['Do not use default exports.', 'Storybook story files keep the default export their loader requires.'],
  ['Keep functions free of side effects where possible.', 'The logging module writes to disk as its whole purpose.'],
  ['All times are stored in UTC.', 'Birthdays and other calendar dates are stored as plain dates without a zone.'],
  ['Agents may create new files without asking.', 'Ask the user before deleting any file.'],
  ['Agents may run read-only commands freely.', 'Ask before installing or upgrading packages.'],
  ['Use the shared logger for diagnostics.', 'The install script may print straight to the terminal before the logger exists.'],
  ['Squash-merge pull requests into main.', 'Reverts are merged as they are, with their original message.'],
  ['Comments explain why, never what.', 'Regular expressions get a comment spelling out what they match.'],

  // a "never X" beside an "always Y" about related things
  ['Never store passwords in plain text.', 'Always hash passwords with a per-user salt.'],
  ['Never log request bodies.', 'Always log the request id and route of each request.'],
  ['Never push directly to main.', 'Always delete your branch after its pull request merges.'],
  ['Never commit secrets.', 'Always commit the example env file with placeholder values.'],
  ['Never log tokens.', 'Always log the user id on failed sign-ins.'],
  ['Never disable the linter for a whole file.', 'Always give a reason when disabling a lint rule on a single line.'],
  ['Never edit a merged migration.', 'Always write a down step for each migration.'],
  ['Never catch an error and ignore it.', 'Always attach the original error as the cause when wrapping one.'],
  ['Never use floats for money.', 'Always round currency at the last step, when it is displayed.'],
  ['Never force-push to main.', 'Always force-push with lease when updating your own branch after a rebase.'],
  ['Never call the database from a React component.', 'Always fetch data through the loader of the route.'],
  ['Never expose internal ids in public URLs.', 'Always use the slug in links that users share.'],
  ['Never return stack traces to API clients.', 'Always include a correlation id in error responses.'],
  ['Never hard-code user-facing text in components.', 'Always give translation keys a dotted namespace by screen.'],
  ['Never mutate props.', 'Always copy state before changing it.'],

  // one policy per branch, environment, language or package
  ['On main, every commit must pass CI.', 'On experiment branches, red builds are tolerated.'],
  ['The mobile app ships from a release branch that the store reviews.', 'The web frontend ships from main on every merge.'],
  ['Security updates of dependencies are applied the same day.', 'Feature upgrades of dependencies wait for the monthly maintenance window.'],
  ['Production data is never copied to developer machines.', 'Staging is seeded with synthetic data each night.'],
  ['The Python service is formatted by black.', 'The TypeScript packages are formatted by prettier.'],
  ['Java code uses checked exceptions for recoverable failures.', 'Kotlin modules use sealed result types for recoverable failures.'],
  ['The public SDK follows strict semantic versioning.', 'Internal packages are released from the head of main without versions.'],
  ['Preview environments use a fake mail sender.', 'Production sends mail through the real provider.'],
  ['The docs site deploys from the docs branch.', 'The application deploys from main.'],
  ['In the server, log at info level by default.', 'In the desktop client, log at warning level by default.'],
  ['Backend pull requests need a review from the platform team.', 'Frontend pull requests need a review from the design system team.'],
  ['The admin panel may use server-side sessions.', 'The public API authenticates every request with a bearer token.'],
  ['Shell scripts stop at the first failing command.', 'Cleanup hooks keep going past failures so every step runs.'],
];
