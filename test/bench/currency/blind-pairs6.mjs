// Blind update pairs, set six: written by a helper session for issue 30 (item 4, update detection),
// 2026-11-27, "updset6". Written blind, before any rule was measured on it: its author read no code
// under src/, no engine or unit test, no other author's pair set, no currency doc and no bench output.
// If a rule is ever tuned on this set, say so here (and in the commit that does it): from then on it
// is no longer a held-out set, and its figures are no longer a blind measure.
//
// BLIND6_UPDATES: two versions of ONE project convention or policy, as a repo's agent-instruction file,
// contributing guide or style guide might hold them over its history; the second (newer) replaces the
// first (older). What changed is the CHOICE itself: not a number, a version, a command or a swap of one
// tool or library for another. About half turn a prohibition into a positive rule (or the reverse); the
// rest swap one option for another. Many pairs share only one or two content words. At most four pairs
// come from any one area.
//
// BLIND6_OTHERS: two conventions one repo holds SIDE BY SIDE, both true at once, in like words: the same
// choice for two different things, different choices for different things in one sentence shape, a rule
// and its exception, a "never" beside an "always" about related things, a policy for one branch,
// environment, language or package beside another's. None of them is an update of the other.
//
// Every text is one sentence under 120 characters, with no digits.

export const BLIND6_UPDATES = [
  // language-feature preferences
  ['Prefer classes for stateful modules so behaviour and data stay together.', 'Write stateful modules as plain functions over records; new classes are no longer accepted.'],
  ['Never use default exports; every module exports named bindings only.', 'Each component file has a single default export named after the file.'],
  ['Avoid TypeScript enums and model closed sets as string literal unions.', 'Closed sets of values are declared as enums.'],
  ['Write asynchronous code with async and await rather than promise chains.', 'Prefer explicit then and catch chains over async functions.'],

  // formatting
  ['Indent with tabs so each developer can pick their own width.', 'Indentation is spaces only; the formatter rejects tabs.'],
  ['Always end statements with a semicolon.', 'Leave semicolons out and let automatic insertion handle line ends.'],
  ['String literals use double quotes throughout the project.', 'Single quotes are the house style for strings.'],
  ['Do not put a trailing comma after the last element of a multiline literal.', 'Multiline arrays, objects and parameter lists always end with a trailing comma.'],

  // naming
  ['Name source files in camelCase to match the symbol they export.', 'File names are kebab-case whatever they export.'],
  ['Prefix interface names with a capital I.', 'Interfaces are named with plain nouns and no prefix letter.'],
  ['Boolean fields read as adjectives, such as enabled or visible.', 'Every boolean name starts with is, has or should.'],
  ['Database tables take singular names.', 'Name each table in the plural, after the collection of rows it holds.'],

  // file and folder layout
  ['Group source by kind, with top-level folders for components, hooks and services.', 'Organise code by feature, keeping its components, hooks and services in one folder.'],
  ['Tests live in a separate tests directory that mirrors the source tree.', 'Put each test file right beside the module it covers.'],
  ['Do not add barrel index files that re-export a folder.', 'Every package folder exposes its public surface through an index file.'],
  ['Shared types belong in the central types module.', 'Declare a type beside the code that owns it rather than in a common file.'],

  // commit messages and history
  ['Commit messages follow the conventional commits format with a type prefix.', 'Write commit subjects as plain imperative sentences without any type prefix.'],
  ['Squash a branch into a single commit when merging it.', 'Merge with a merge commit so every individual commit stays in the history.'],
  ['Every commit must carry a sign-off trailer certifying the origin of the code.', 'Contributors no longer need to sign off their commits.'],
  ['Reference the issue in each commit subject.', 'Issue links belong in the pull request description, not in commit messages.'],

  // review workflow
  ['Authors merge their own pull requests once they are approved.', 'Only the reviewer who approved a change may press merge.'],
  ['Keep pull requests small, one per logical change.', 'Bundle all the work for a feature into one pull request.'],
  ['Draft pull requests are not reviewed until they are marked ready.', 'Reviewers should comment on drafts early, before the author asks for review.'],
  ['Resolve review threads yourself after pushing the fix.', 'Leave conversations open for the reviewer to close once satisfied.'],

  // branching and releases
  ['All work happens on long-lived develop and release branches.', 'We practise trunk-based development: short branches merge straight into main.'],
  ['Releases are cut on a fixed calendar whether or not features are ready.', 'Ship whenever a feature is finished instead of waiting for a release train.'],
  ['Hotfixes branch from the release tag and are merged back to main afterwards.', 'Fix production bugs on main first, then cherry-pick the fix onto the release branch.'],
  ['Do not edit the changelog by hand; it is generated from commit messages.', 'Each pull request adds its own entry to the hand-written changelog.'],

  // API design
  ['JSON fields in API responses use snake_case.', 'Response payloads use camelCase property names.'],
  ['Version the public API in the URL path.', 'API versions are negotiated through a request header, never in the path.'],
  ['Paginate list endpoints with page and offset parameters.', 'Collections are paged with opaque cursors only.'],
  ['Updates are sent as partial PATCH requests that change only the given fields.', 'Clients always replace the whole resource with PUT; partial updates are not supported.'],

  // data and time
  ['Store timestamps in the local time zone of the server.', 'Persist every instant in UTC and convert only for display.'],
  ['Primary keys are auto-incrementing integers.', 'Identify rows by random UUIDs generated in the application.'],
  ['Delete a row outright when a user removes a record.', 'Never hard-delete user data; flag it with a deleted-at column instead.'],
  ['Dates in the interface are written day first.', 'Show calendar dates in ISO order, year first, everywhere on screen.'],

  // error handling
  ['Functions signal failure by throwing exceptions.', 'Expected failures come back as a result value; do not throw for them.'],
  ['Never catch an error only to log it and carry on.', 'Catch and log recoverable errors where they happen so the request can proceed.'],
  ['Crash the process on an unhandled promise rejection.', 'An unhandled rejection is logged and the service keeps running.'],
  ['Messages shown to users include the internal error code.', 'Keep internal error codes out of anything a user can read.'],

  // logging
  ['Log free-form, human-readable lines.', 'Every log entry is a structured JSON object.'],
  ['Do not emit debug-level logs in production.', 'Debug logging stays switched on in production so incidents can be traced.'],
  ['Scripts may print their diagnostics straight to the console.', 'Never write to the console directly; all diagnostics go through the shared logger.'],
  ['Audit records include the full email address of the acting user.', 'Audit logs identify people by an opaque id, never by their email.'],

  // documentation
  ['Every exported function needs a doc comment.', 'Write doc comments only where behaviour is not obvious from the signature.'],
  ['Architecture decisions are recorded on the team wiki.', 'Keep decision records as markdown files inside the repository.'],
  ['Comments should walk through what the code does, step by step.', 'Comments explain why, never what; the code must show what on its own.'],
  ['Do not commit the generated API reference.', 'The generated reference pages are checked in alongside the code they describe.'],

  // testing
  ['Mock the database in unit tests.', 'Tests run against a real database; never fake the data layer.'],
  ['Snapshot tests are not allowed for UI components.', 'Cover every component with a snapshot.'],
  ['Write tests once the implementation has settled.', 'Write the failing test first, then the code that makes it pass.'],
  ['Flaky tests are retried automatically in CI.', 'A flaky test is quarantined and fixed; retries are never added.'],

  // dependency policy
  ['Pin every dependency to an exact release.', 'Declare dependencies with caret ranges so patch releases flow in.'],
  ['Vendor third-party code into the repository.', 'Never copy dependencies into the tree; install them from the registry.'],
  ['Prefer writing a small helper ourselves over adding a package.', 'Reach for a well-maintained library before writing a utility by hand.'],
  ['Dependency upgrades are batched and applied by hand at the end of each quarter.', 'Merge the automated upgrade pull request for each package as soon as it appears.'],

  // security policy
  ['Keep secrets in a local dotenv file that each developer copies by hand.', 'Credentials never live on disk; the app fetches them from the vault at startup.'],
  ['The session cookie is readable from scripts so the client can refresh it.', 'Session cookies are HTTP-only and invisible to page scripts.'],
  ['Validate input only at the outer edge of the system.', 'Every module checks its own arguments rather than trusting the caller.'],
  ['The public API allows cross-origin requests from any origin.', 'Cross-origin calls are accepted only from an explicit allow-list.'],

  // configuration and flags
  ['Configuration lives in a settings file committed to the repo.', 'Read configuration from environment variables only; there are no config files.'],
  ['Remove a feature flag as soon as its rollout is complete.', 'Keep feature flags permanently as kill switches.'],
  ['Defaults for every setting are defined in code.', 'Each setting must be spelled out explicitly; code holds no fallback values.'],

  // instructions to coding agents
  ['Ask before running any command that modifies files.', 'Go ahead and run file-changing commands without asking for confirmation.'],
  ['Agents may commit their changes directly.', 'Never commit; leave the changes staged for a human to review.'],
  ['Keep replies terse and skip explanations unless asked.', 'Explain your reasoning before each edit you make.'],
  ['Mark every generated change with a comment naming the assistant.', 'Do not add comments saying who or what wrote the code.'],

  // front end
  ['Style components with utility classes written in the markup.', 'Keep styles in a stylesheet next to each component; no utility classes in templates.'],
  ['Set font sizes in pixels.', 'Typography is sized in rem so it follows the reader setting.'],
  ['Components fetch their own data.', 'Only route-level containers load data; components receive it through props.'],

  // architecture
  ['Keep all application state in one global store.', 'State lives in the component that owns it; there is no global store.'],
  ['Business logic belongs in the controllers.', 'Controllers stay thin and hand every decision to a service module.'],
  ['Services call each other directly over HTTP.', 'Services communicate only by publishing events to the message bus.'],

  // imports
  ['Use relative imports between modules.', 'Import through the path alias from the source root, never with long dotted paths.'],
  ['Sort import statements alphabetically.', 'Order imports in groups: built-ins, external packages, then local files.'],
  ['Import a whole module under a namespace.', 'Import only the named members you actually use.'],

  // schema migrations and queries
  ['A merged migration may be edited as long as no environment has run it.', 'Never edit a merged migration; write a new one instead.'],
  ['Every migration must include a down step.', 'Migrations are forward-only and have no rollback.'],
  ['All queries go through the ORM.', 'Write queries as plain SQL; no ORM in this service.'],

  // wording, text and planning
  ['User-facing text is written inline in the components.', 'All visible strings go through translation keys.'],
  ['Documentation uses American spelling.', 'Docs follow British spelling conventions.'],
  ['Assign an issue to yourself before starting on it.', 'Do not self-assign; the lead hands out issues at planning.'],
  ['Design discussions happen in issues.', 'Hold design debates in the pull request, where the code is.'],
]

export const BLIND6_OTHERS = [
  // the same choice for two different things
  ['File names are kebab-case.', 'URL paths are kebab-case.'],
  ['Store timestamps in UTC.', 'Log timestamps are written in UTC.'],
  ['Never hard-delete user accounts; flag them with a deleted-at column.', 'Never hard-delete orders; mark them cancelled instead.'],
  ['Interface names are plain nouns without a prefix letter.', 'Type alias names are plain nouns without a prefix letter.'],
  ['Exported functions carry a doc comment.', 'Public classes carry a doc comment too.'],
  ['Each unit test sits right beside the module it covers.', 'Each story file sits right beside the component it shows.'],
  ['Squash feature branches when merging them.', 'Squash dependency upgrade branches when merging them.'],
  ['Session cookies are HTTP-only.', 'The refresh-token cookie is HTTP-only as well.'],
  ['Validate request bodies against a schema.', 'Validate environment variables against a schema at startup.'],
  ['Decision records are markdown files kept in the repository.', 'Runbooks are markdown files kept in the repository as well.'],

  // different choices for different things, in one sentence shape
  ['JSON fields in API responses use camelCase.', 'Database columns use snake_case.'],
  ['Environment variable names are upper snake case.', 'CSS class names are lower kebab case.'],
  ['Name database tables in the plural.', 'Name model classes in the singular.'],
  ['Primary keys are random UUIDs.', 'Lookup tables use short text codes as keys.'],
  ['Paginate list endpoints with opaque cursors.', 'Paginate admin reports with page numbers.'],
  ['Indent source files with spaces.', 'Indent makefiles with tabs, as make requires.'],
  ['Application code uses single quotes for strings.', 'JSON fixtures use double quotes, as the format requires.'],
  ['Log entries from services are structured JSON.', 'Output from command-line tools is plain human-readable text.'],
  ['Style components with utility classes.', 'Style emails with inline styles.'],
  ['Set font sizes in rem.', 'Set border widths in pixels.'],
  ['Commit subjects are imperative sentences.', 'Pull request titles are short noun phrases.'],
  ['Dates on screen are shown year first.', 'Dates in exported spreadsheets use the locale of the reader.'],

  // a rule and its exception
  ['Never use default exports.', 'Route page files are the one place a default export is required.'],
  ['Avoid the any type.', 'Tests may use any when building deliberately malformed input.'],
  ['Do not mock the database in tests.', 'Mock the payment gateway in every test.'],
  ['Never edit a merged migration.', 'A migration that has not yet shipped in a release may still be amended.'],
  ['A pull request holds one logical change and stays small.', 'Mechanical renames may touch many files in one pull request.'],
  ['Do not commit generated files.', 'The lockfile is generated but is always committed.'],
  ['Do not add new dependencies without review.', 'Type-only development dependencies can be added without review.'],
  ['Never log request bodies.', 'Webhook payloads with secrets removed may be logged for debugging.'],
  ['Agents never push to the remote.', 'Agents may push to their own scratch branches.'],
  ['Comments explain why, never what.', 'Regular expressions get a comment saying what they match.'],
  ['Every migration is forward-only.', 'Migrations that only add an index include a down step anyway.'],
  ['Do not disable lint rules inline.', 'Generated code may carry an inline directive disabling the linter.'],

  // a never beside an always, about related things
  ['Never commit directly to main.', 'Always open a pull request from a feature branch.'],
  ['Never throw for expected failures.', 'Always throw when an invariant is broken.'],
  ['Never catch an error only to log it.', 'Always attach the original error as the cause when rethrowing.'],
  ['Never store plaintext passwords.', 'Always hash passwords with a slow, salted algorithm.'],
  ['Never print secrets in error messages.', 'Always include the offending field name in validation errors.'],
  ['Never force-push to main.', 'Always rebase your feature branch before asking for review.'],
  ['Never use floating point for money.', 'Always store amounts as integer minor units with a currency code.'],
  ['Never share a database between services.', 'Always go through the owning service to read its data.'],
  ['Never use relative imports across packages.', 'Always use relative imports inside a package.'],
  ['Never skip a failing test.', 'Always quarantine a flaky test with a linked issue.'],
  ['Never run destructive commands without asking.', 'Always run the formatter before committing.'],
  ['Never silence a compiler warning.', 'Always treat lint warnings as errors in CI.'],

  // a policy for one branch, environment, language or package beside another
  ['On main, every commit must pass CI before merge.', 'On release branches, only fixes already on main may land.'],
  ['Debug logging is off in production.', 'Debug logging is on in the staging environment.'],
  ['The public API accepts cross-origin requests only from an allow-list.', 'The internal API rejects all cross-origin requests.'],
  ['Python code uses snake_case for functions.', 'TypeScript code uses camelCase for functions.'],
  ['The web package bundles its dependencies.', 'The server package keeps its dependencies external.'],
  ['Production deploys need approval from an on-call engineer.', 'Preview deploys happen automatically for every pull request.'],
  ['The CLI package follows semantic versioning.', 'The internal tooling package is never published.'],
  ['Feature flags in the mobile app are removed after rollout.', 'Feature flags in the backend stay as kill switches.'],
  ['In the frontend, components fetch data through hooks.', 'In the backend, handlers fetch data through repositories.'],
  ['Staging data is reset every night.', 'Production data is never reset.'],
  ['Library code must not log to the console.', 'Scripts under the tools folder may print to the console.'],
  ['Go code returns errors as values.', 'Java code signals failures with exceptions.'],

  // layout, workflow and style side by side
  ['Organise application code by feature.', 'Organise shared utilities by kind under a common folder.'],
  ['Shared types live in the contracts package.', 'Types used by one module are declared inside that module.'],
  ['Merge feature branches with a squash.', 'Merge release branches back with a merge commit.'],
  ['The author of a pull request resolves review threads about typos.', 'The reviewer resolves review threads about design.'],
  ['Hotfixes branch from the release tag.', 'Features branch from main.'],
  ['The changelog is generated from commit messages.', 'Release notes for users are written by hand.'],
  ['Reference the issue in the pull request description.', 'Reference the pull request in the changelog entry.'],
  ['Assign issues to yourself before starting work.', 'The lead assigns security issues directly.'],
  ['Docs use British spelling.', 'Identifiers in code use American spelling.'],
  ['Visible strings go through translation keys.', 'Log messages are written in English and never translated.'],
  ['Write the failing test first for bug fixes.', 'Spikes and prototypes need no tests at all.'],
  ['Pin application dependencies to exact releases.', 'Library packages declare peer dependencies with ranges.'],
  ['Sort imports in groups: built-ins, external, local.', 'Sort object keys in configuration files alphabetically.'],
  ['Controllers stay thin and delegate to services.', 'Services stay free of HTTP types.'],
  ['Services publish domain events to the message bus.', 'Queries between services go over direct HTTP calls.'],
  ['Keep server state in the query cache.', 'Keep form state local to the form component.'],
  ['Agents ask before deleting files.', 'Agents may create new files without asking.'],
  ['Keep replies terse in chat.', 'Explain your reasoning in the pull request description.'],
  ['Secrets for production come from the vault.', 'Local development reads placeholder secrets from a dotenv file.'],
  ['Credentials never appear in the repository.', 'Example configuration with dummy values is committed for reference.'],
]
