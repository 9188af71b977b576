// Provider token formats for the secret gate: one rule per credential format of gitleaks' default
// rule set that the secretlint recommended preset (pinned 12.0.0) does not cover, plus formats issue
// 19 names as slipping through (Azure connection strings and SAS URLs, Telegram bot tokens without a
// keyword, Twilio auth tokens beside an account SID) and Discord bot tokens and webhooks.
//
// Two shapes, as in gitleaks:
//   - token rules: a distinctive prefix or layout (`dop_v1_` + 64 hex) found anywhere;
//   - keyed rules: a generic-looking value (32 hex, a UUID) that is a secret only when a key naming
//     the provider is assigned it (`HEROKU_API_KEY=<uuid>`, `"mailgun": "key-..."`).
// Every rule lists lower-case keywords; `scanFormats` walks the lower-cased text once looking them
// up and runs only the rules one of whose keywords occurs. Ordinary notes contain few keywords, so
// for most texts that walk is the whole cost.

import {AZURITE_KEY_PREFIX, DUMMY_TOKEN, KEYBOARD_RUN, entropy, isPlaceholder} from './secret-values.js'

export interface FormatRule {
  /** Short stable id (gitleaks' id where the format is one of its rules). */
  id: string
  /** Noun phrase for the message, e.g. "a PyPI upload token". */
  kind: string
  /** Lower-case substrings one of which must occur in the lower-cased text for the rule to run. */
  keywords: readonly string[]
  hit(text: string): boolean
}

interface ValueOptions {
  /** Minimum Shannon entropy of the secret body, bits per character (default by length). */
  minEntropy?: number
  /** Whether the body must hold both a letter and a digit (default true). */
  mixed?: boolean
  /** A further check on the body. */
  check?: (body: string) => boolean
  /** The random part of the body when it has a fixed filler (`AAAAAAAAAA`) the checks would reject. */
  core?: (body: string) => string
}

/**
 * Whether a matched body looks generated rather than written by hand for documentation: no dummy
 * marker or keyboard run, letters and digits mixed (random alphanumerics of 12+ characters almost
 * always are; words and numbers aren't), and enough entropy.
 */
function plausible(matched: string, options: ValueOptions): boolean {
  const body = options.core ? options.core(matched) : matched
  if (DUMMY_TOKEN.test(body) || KEYBOARD_RUN.test(body)) return false
  if (options.mixed !== false && !(/[0-9]/.test(body) && /[A-Za-z]/.test(body))) return false
  const needed = options.minEntropy ?? (body.length >= 24 ? 3 : 2.5)
  if (entropy(body) < needed) return false
  return options.check ? options.check(body) : true
}

// A token must not be glued to a word before it or continue after it.
const START = '(?<![A-Za-z0-9_])'
const STOP = '(?![A-Za-z0-9_-])'

interface TokenOptions extends ValueOptions {
  /** Extra RegExp flags, e.g. 'i'. */
  flags?: string
  /** Use `source` as it is, without the START/STOP boundaries. */
  raw?: boolean
}

/**
 * A token rule: `source` matched anywhere. Its first capture group, if any, is the random body the
 * value checks apply to (the prefix would make every body look "mixed").
 */
function token(id: string, kind: string, keywords: string[], source: string, options: TokenOptions = {}): FormatRule {
  const re = new RegExp(options.raw ? source : `${START}(?:${source})${STOP}`, `g${options.flags ?? ''}`)
  return {
    id,
    kind,
    keywords,
    hit(text) {
      for (const m of text.matchAll(re)) {
        // The first group that took part in the match (alternatives each have their own).
        if (plausible(m.slice(1).find((g) => g !== undefined) ?? m[0], options)) return true
      }
      return false
    },
  }
}

// Key fragments that name an identifier or a location rather than a credential: `HEROKU_APP_ID`,
// `sentry release`, `discord channel`. A value assigned to them is not a secret even in the right
// shape (a UUID, a SHA-256 digest, an 18-digit snowflake).
const ID_LIKE_KEY =
  /(?:^|[^a-z])(?:id|ids|uuid|guid|name|names|url|uri|host|hostname|region|zone|version|release|build|commit|sha|sha1|sha256|hash|digest|checksum|ref|tag|branch|path|file|dir|org|organization|project|team|channel|guild|server|user|username|email|account|site|env|environment|domain|endpoint|dashboard|monitor|issue|ticket|app|application|workspace|plan|count|limit|timeout|cluster|topic|instance|index|bucket|queue|database|db|schema|table)s?$/i

interface KeyedOptions extends ValueOptions {
  /** Keywords for the pre-filter when `names` holds regex syntax. */
  keywords?: string[]
  /** The key must match this (client ids: `ADOBE_CLIENT_ID`); the id-like key guard is then off. */
  keyMust?: RegExp
}

/**
 * A keyed rule in gitleaks' "semi-generic" shape: a provider name, up to 25 more key characters
 * (`_API_KEY`, ` api key`), an assignment (`=`, `:`, `=>`, `:=`, `,`, or prose `is`) and a value of
 * the given shape ending at a token boundary. Case-insensitive, like gitleaks.
 */
function keyed(id: string, kind: string, names: string[], value: string, options: KeyedOptions = {}): FormatRule {
  const re = new RegExp(
    String.raw`(?:${names.join('|')})([ \t\w.-]{0,25}?)[ \t'"\x60]{0,3}(?:=>|:{1,3}=?|\?=|=|,|\bis\b|\bwas\b)[ \t'"\x60=]{0,5}(${value})(?![\w+/=-])`,
    'gi',
  )
  return {
    id,
    kind,
    keywords: options.keywords ?? names,
    hit(text) {
      for (const m of text.matchAll(re)) {
        const key = (m[1] ?? '').trim()
        if (options.keyMust ? !options.keyMust.test(key) : ID_LIKE_KEY.test(key)) continue
        if (plausible(m[2] ?? '', options)) return true
      }
      return false
    },
  }
}

/** One rule id made of several shapes (e.g. an Atlassian token with or without its keyword). */
function anyOf(id: string, kind: string, parts: FormatRule[]): FormatRule {
  return {
    id,
    kind,
    keywords: [...new Set(parts.flatMap((p) => p.keywords))],
    hit: (text) => {
      const lower = text.toLowerCase()
      return parts.some((p) => p.keywords.some((k) => lower.includes(k)) && p.hit(text))
    },
  }
}

const HEX = '[a-f0-9]'
const UUID = `${HEX}{8}-${HEX}{4}-${HEX}{4}-${HEX}{4}-${HEX}{12}`
const CLIENT = /client/i

// --- custom shapes ----------------------------------------------------------------------------

const AZURE_SAS_SIG = /[?&]sig=((?:[A-Za-z0-9+/]|%2[BbFf]){30,}(?:=|%3[Dd]){0,2})/g

/** An Azure SAS URL: a `sig=` signature in the same URL as a `sv=YYYY-MM-DD` service version. */
function hasAzureSas(text: string): boolean {
  for (const m of text.matchAll(AZURE_SAS_SIG)) {
    const start = Math.max(text.lastIndexOf(' ', m.index), text.lastIndexOf('\n', m.index)) + 1
    const url = text.slice(start, m.index + m[0].length)
    if (/[?&]sv=\d{4}-\d\d-\d\d/.test(url) && plausible(m[1] ?? '', {})) return true
  }
  return false
}

const TWILIO_SID = /(?<![A-Za-z0-9])AC[a-f0-9]{32}(?![A-Za-z0-9])/
const HEX32 = /(?<![A-Za-z0-9])[a-f0-9]{32}(?![A-Za-z0-9])/g

/**
 * A Twilio auth token is 32 hex characters with nothing to mark it; beside an account SID
 * (`AC` + 32 hex, an identifier) in the same text, as in `curl -u AC...:<token>` or an env file,
 * any other standalone 32-hex value is taken for it.
 */
function hasTwilioAuthToken(text: string): boolean {
  if (!TWILIO_SID.test(text)) return false
  for (const [value] of text.matchAll(HEX32)) if (plausible(value, {})) return true
  return false
}

const K8S_SECRET_KIND = /\bkind:[ \t]*["']?secret\b/i
const K8S_DATA_BLOCK = /^([ \t]*)(data|stringData):[ \t]*\n((?:\1[ \t][^\n]*(?:\n|$))+)/gm
const K8S_ENTRY = /^[ \t]+[\w.-]+:[ \t]*["']?([^"'\s]+)["']?[ \t]*$/gm

/**
 * A Kubernetes Secret manifest with its values inline: `data:` entries are base64 of the secret,
 * `stringData:` entries the secret itself. Templated (`{{ .Values.x }}`), empty or placeholder
 * values are not secrets.
 */
function hasK8sSecretData(text: string): boolean {
  if (!K8S_SECRET_KIND.test(text)) return false
  for (const block of text.matchAll(K8S_DATA_BLOCK)) {
    const base64 = block[2] === 'data'
    for (const [, value = ''] of (block[3] ?? '').matchAll(K8S_ENTRY)) {
      if (value.startsWith('{{') || isPlaceholder(value)) continue
      if (base64 ? /^[A-Za-z0-9+/]{8,}={0,2}$/.test(value) : value.length >= 4) return true
    }
  }
  return false
}

// the gap from `curl` to its -u is bounded (400 characters): unbounded, every `curl` of a long line
// rescanned the rest of it (16 KB of "curl curl …" took 110 ms in the scanner)
const CURL_USER = /\bcurl\b[^\n]{0,400}?[ \t](?:-u|--user)(?:=|[ \t]+)(["']?)([^\s"'\x60:]{0,100}):([^\s"'\x60]{3,200})\1/g

/** `curl -u name:...`: the password inline on the command line. */
function hasCurlUser(text: string): boolean {
  for (const [, , user = '', raw = ''] of text.matchAll(CURL_USER)) {
    const password = raw.replace(/(?<![.,;:!?)\]}>])[.,;:!?)\]}>]+$/, '')
    if (password === user || password.length < 3 || isPlaceholder(password)) continue
    if (/^\$|^<.*>$|^%.*%$/.test(password)) continue
    return true
  }
  return false
}

const NUGET_PASSWORD = /<add\s+key=["'](?:ClearText)?Password["']\s+value=["']([^"']{4,})["']/gi

function hasNugetPassword(text: string): boolean {
  for (const [, value = ''] of text.matchAll(NUGET_PASSWORD)) if (!isPlaceholder(value)) return true
  return false
}

const JWT_BASE64 = /(?<![A-Za-z0-9+/])ZXlK[A-Za-z0-9+/]{60,}={0,2}/g

/** A JWT that was base64-encoded once more (as in Kubernetes secrets and some config files). */
function hasBase64Jwt(text: string): boolean {
  for (const [value] of text.matchAll(JWT_BASE64)) {
    try {
      if (/^eyJ[\w-]{8,}\.eyJ[\w-]{8,}\.[\w-]{16,}/.test(atob(value))) return true
    } catch {
      // Not valid base64 after all.
    }
  }
  return false
}

// --- the rules --------------------------------------------------------------------------------

export const PROVIDER_RULES: readonly FormatRule[] = [
  token('1password-secret-key', 'a 1Password account secret key', ['a3-'],
    'A3-[A-Z0-9]{6}-(?:[A-Z0-9]{11}|[A-Z0-9]{6}-[A-Z0-9]{5})-[A-Z0-9]{5}-[A-Z0-9]{5}-[A-Z0-9]{5}'),
  keyed('adafruit-api-key', 'an Adafruit IO key', ['adafruit'], '[a-z0-9_-]{32}'),
  keyed('adobe-client-id', 'an Adobe OAuth client id', ['adobe'], `${HEX}{32}`, {keyMust: CLIENT}),
  token('adobe-client-secret', 'an Adobe client secret', ['p8e-'], 'p8e-([A-Za-z0-9]{32})'),
  token('age-secret-key', 'an age encryption secret key', ['age-secret-key-1'],
    'AGE-SECRET-KEY-1([QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L]{58})'),
  anyOf('airtable-api-key', 'an Airtable API key or token', [
    keyed('airtable-api-key', '', ['airtable'], '[a-z0-9]{17}'),
    token('airtable-api-key', '', ['pat'], 'pat[A-Za-z0-9]{14}\\.([a-f0-9]{64})'),
  ]),
  keyed('algolia-api-key', 'an Algolia API key', ['algolia'], '[a-z0-9]{32}'),
  token('alibaba-access-key-id', 'an Alibaba Cloud AccessKey id', ['ltai'], 'LTAI([A-Za-z0-9]{20})'),
  keyed('alibaba-secret-key', 'an Alibaba Cloud AccessKey secret', ['alibaba'], '[a-z0-9]{30}'),
  token('artifactory-api-key', 'a JFrog Artifactory API key', ['akcp'], 'AKCp([A-Za-z0-9]{69})', {minEntropy: 4}),
  token('artifactory-reference-token', 'a JFrog Artifactory reference token', ['cmvmd'], 'cmVmd([A-Za-z0-9]{59})', {minEntropy: 4}),
  keyed('asana-client-id', 'an Asana client id', ['asana'], '[0-9]{16}', {keyMust: CLIENT, mixed: false}),
  keyed('asana-client-secret', 'an Asana client secret', ['asana'], '[a-z0-9]{32}'),
  anyOf('atlassian-api-token', 'an Atlassian (Jira, Confluence) API token', [
    keyed('atlassian-api-token', '', ['atlassian', 'confluence', 'jira'], '[a-z0-9]{20}[a-f0-9]{4}', {minEntropy: 3.5}),
    token('atlassian-api-token', '', ['atatt3'], 'ATATT3([A-Za-z0-9_\\-=]{186})'),
  ]),
  token('authress-service-client-access-key', 'an Authress service client access key', ['sc_', 'ext_', 'scauth_', 'authress_'],
    '(?:sc|ext|scauth|authress)_[a-z0-9]{5,30}\\.[a-z0-9]{4,6}\\.acc[_-][a-z0-9-]{10,32}\\.([a-z0-9+/_=-]{30,120})', {flags: 'i'}),
  token('azure-ad-client-secret', 'an Azure AD (Entra ID) client secret', ['q~'],
    '(?:^|[\\\\\'"\\x60\\s>=:(,)])([a-zA-Z0-9_~.]{3}\\dQ~[a-zA-Z0-9_~.-]{31,34})(?=$|[\\\\\'"\\x60\\s<),.;])', {raw: true}),
  token('azure-storage-account-key', 'an Azure storage account key', ['accountkey'],
    '(?<![A-Za-z])AccountKey["\']?\\s*[=:]\\s*["\']?([A-Za-z0-9+/]{86}==)', {
      raw: true,
      flags: 'i',
      check: (key) => !key.startsWith(AZURITE_KEY_PREFIX),
    }),
  token('azure-shared-access-key', 'an Azure Service Bus, Event Hubs or IoT Hub shared access key', ['sharedaccesskey'],
    '(?<![A-Za-z])SharedAccessKey\\s*=\\s*([A-Za-z0-9+/]{42,43}=)', {raw: true, flags: 'i'}),
  {id: 'azure-sas-token', kind: 'an Azure shared access signature (SAS) URL', keywords: ['sig='], hit: hasAzureSas},
  keyed('beamer-api-token', 'a Beamer API key', ['beamer'], 'b_[a-z0-9=_\\-]{44}'),
  keyed('bitbucket-client-id', 'a Bitbucket OAuth client id', ['bitbucket'], '[a-z0-9]{32}', {keyMust: CLIENT}),
  keyed('bitbucket-client-secret', 'a Bitbucket OAuth client secret', ['bitbucket'], '[a-z0-9=_\\-]{64}'),
  // gitleaks' bittrex-access-key and bittrex-secret-key have the same shape.
  keyed('bittrex-access-key', 'a Bittrex API key or secret', ['bittrex'], '[a-z0-9]{32}'),
  keyed('cisco-meraki-api-key', 'a Cisco Meraki API key', ['meraki'], `${HEX}{40}`),
  token('clickhouse-cloud-api-secret-key', 'a ClickHouse Cloud API secret key', ['4b1d'], '4b1d([A-Za-z0-9]{38})'),
  token('clojars-api-token', 'a Clojars deploy token', ['clojars_'], 'CLOJARS_([a-z0-9]{60})', {flags: 'i'}),
  keyed('cloudflare-api-key', 'a Cloudflare API token', ['cloudflare'], '[a-z0-9_-]{40}'),
  keyed('cloudflare-global-api-key', 'a Cloudflare global API key', ['cloudflare'], `${HEX}{37}`),
  token('cloudflare-origin-ca-key', 'a Cloudflare Origin CA key', ['v1.0-'], 'v1\\.0-[a-f0-9]{24}-([a-f0-9]{146})'),
  keyed('codecov-access-token', 'a Codecov upload or access token', ['codecov'], `[a-z0-9]{32}|${UUID}`),
  keyed('cohere-api-token', 'a Cohere API key', ['cohere', 'co_api_key'], '[a-z0-9]{40}', {minEntropy: 4}),
  keyed('coinbase-access-token', 'a Coinbase access token', ['coinbase'], '[a-z0-9_-]{64}'),
  keyed('confluent-access-token', 'a Confluent API key', ['confluent'], '[a-z0-9]{16}'),
  keyed('confluent-secret-key', 'a Confluent API secret', ['confluent'], '[a-z0-9+/]{64}'),
  keyed('contentful-delivery-api-token', 'a Contentful API token', ['contentful'], '[a-z0-9=_\\-]{43}|CFPAT-[a-z0-9_-]{43}'),
  keyed('datadog-access-token', 'a Datadog API or application key', ['datadog', 'dd_api_key', 'dd_app_key', 'dd_application_key'],
    `[a-z0-9]{40}|${HEX}{32}`),
  token('defined-networking-api-token', 'a Defined Networking API token', ['dnkey'],
    'dnkey-[a-z0-9=_\\-]{26}-([a-z0-9=_\\-]{52})', {flags: 'i'}),
  token('digitalocean-pat', 'a DigitalOcean personal access token', ['dop_v1_'], 'dop_v1_([a-f0-9]{64})'),
  token('digitalocean-access-token', 'a DigitalOcean OAuth access token', ['doo_v1_'], 'doo_v1_([a-f0-9]{64})'),
  token('digitalocean-refresh-token', 'a DigitalOcean OAuth refresh token', ['dor_v1_'], 'dor_v1_([a-f0-9]{64})'),
  keyed('discord-api-token', 'a Discord API key', ['discord'], `${HEX}{64}`),
  keyed('discord-client-id', 'a Discord client id', ['discord'], '[0-9]{18}', {keyMust: CLIENT, mixed: false}),
  keyed('discord-client-secret', 'a Discord client secret', ['discord'], '[a-z0-9=_\\-]{32}'),
  // Bot tokens: base64 of the bot's user id, a timestamp and an HMAC, dot-separated.
  token('discord-bot-token', 'a Discord bot token', ['discord', 'bot', 'token'],
    '[MNO][A-Za-z0-9_-]{23,25}\\.[A-Za-z0-9_-]{6}\\.([A-Za-z0-9_-]{27,38})'),
  token('discord-webhook-url', 'a Discord webhook URL', ['discord.com/api/webhooks', 'discordapp.com/api/webhooks'],
    'https://(?:ptb\\.|canary\\.)?discord(?:app)?\\.com/api/webhooks/\\d{17,20}/([A-Za-z0-9_-]{60,80})', {raw: true}),
  token('doppler-api-token', 'a Doppler token', ['dp.pt.', 'dp.st.', 'dp.sa.', 'dp.ct.', 'dp.scim.', 'dp.audit.'],
    'dp\\.(?:pt|st|sa|ct|scim|audit)\\.(?:[a-z0-9_-]{1,40}\\.)?([A-Za-z0-9]{40,44})'),
  keyed('droneci-access-token', 'a Drone CI access token', ['droneci', 'drone_token'], '[a-z0-9]{32}'),
  keyed('dropbox-api-token', 'a Dropbox app secret', ['dropbox'], '[a-z0-9]{15}'),
  keyed('dropbox-long-lived-api-token', 'a Dropbox long-lived access token', ['dropbox'], '[a-z0-9]{11}AAAAAAAAAA[a-z0-9\\-_=]{43}', {
    core: (v) => v.slice(0, 11) + v.slice(21),
  }),
  keyed('dropbox-short-lived-api-token', 'a Dropbox short-lived access token', ['dropbox'], 'sl\\.[a-z0-9\\-=_]{130,}'),
  token('duffel-api-token', 'a Duffel API token', ['duffel_'], 'duffel_(?:test|live)_([A-Za-z0-9_\\-=]{43})'),
  token('dynatrace-api-token', 'a Dynatrace API token', ['dt0c01.'], 'dt0c01\\.[A-Za-z0-9]{24}\\.([A-Za-z0-9]{64})', {minEntropy: 4}),
  token('easypost-api-token', 'an EasyPost production API key', ['ezak'], 'EZAK([A-Za-z0-9]{54})'),
  token('easypost-test-api-token', 'an EasyPost test API key', ['eztk'], 'EZTK([A-Za-z0-9]{54})'),
  keyed('etsy-access-token', 'an Etsy API key', ['etsy'], '[a-z0-9]{24}'),
  token('facebook-access-token', 'a Facebook app access token', ['facebook'], '\\d{15,16}(?:\\||%7[Cc])([0-9A-Za-z_-]{27,40})'),
  token('facebook-page-access-token', 'a Facebook page access token', ['eaam', 'eaac'], 'EAA[MC]([A-Za-z0-9]{100,})', {minEntropy: 4}),
  keyed('facebook-secret', 'a Facebook app secret', ['facebook'], `${HEX}{32}`),
  keyed('fastly-api-token', 'a Fastly API token', ['fastly'], '[a-z0-9=_\\-]{32}'),
  keyed('finicity-api-token', 'a Finicity API key', ['finicity'], `${HEX}{32}`),
  keyed('finicity-client-secret', 'a Finicity client secret', ['finicity'], '[a-z0-9]{20}'),
  keyed('finnhub-access-token', 'a Finnhub API key', ['finnhub'], '[a-z0-9]{20}'),
  keyed('flickr-access-token', 'a Flickr API key', ['flickr'], '[a-z0-9]{32}'),
  token('flutterwave-secret-key', 'a Flutterwave secret key', ['flwseck'], 'FLWSECK(?:_TEST)?-([a-h0-9]{32})-X', {flags: 'i'}),
  token('flutterwave-encryption-key', 'a Flutterwave encryption key', ['flwseck'], 'FLWSECK(?:_TEST)?-?([a-h0-9]{12})', {flags: 'i'}),
  token('flutterwave-public-key', 'a Flutterwave public key', ['flwpubk'], 'FLWPUBK(?:_TEST)?-([a-h0-9]{32})-X', {flags: 'i'}),
  token('flyio-access-token', 'a Fly.io access token', ['fo1_', 'fm1', 'fm2_'],
    'fo1_([\\w-]{43})|fm1[ar]_([A-Za-z0-9+/]{100,}={0,3})|fm2_([A-Za-z0-9+/]{100,}={0,3})', {minEntropy: 4}),
  token('frameio-api-token', 'a Frame.io API token', ['fio-u-'], 'fio-u-([A-Za-z0-9\\-_=]{64})'),
  token('freemius-secret-key', 'a Freemius secret key', ['secret_key'],
    '["\']secret_key["\']\\s*=>\\s*["\'](sk_[^\\s"\']{29})["\']', {raw: true, flags: 'i'}),
  keyed('freshbooks-access-token', 'a FreshBooks access token', ['freshbooks'], '[a-z0-9]{64}'),
  token('gitlab-cicd-job-token', 'a GitLab CI/CD job token', ['glcbt-'], 'glcbt-[0-9a-zA-Z]{1,5}_([0-9a-zA-Z_-]{20})'),
  token('gitlab-deploy-token', 'a GitLab deploy token', ['gldt-'], 'gldt-([0-9a-zA-Z_-]{20,64})'),
  token('gitlab-feature-flag-client-token', 'a GitLab feature flag client token', ['glffct-'], 'glffct-([0-9a-zA-Z_-]{20,64})'),
  token('gitlab-feed-token', 'a GitLab feed token', ['glft-'], 'glft-([0-9a-zA-Z_-]{20,64})'),
  token('gitlab-incoming-mail-token', 'a GitLab incoming mail token', ['glimt-'], 'glimt-([0-9a-zA-Z_-]{25,64})'),
  token('gitlab-kubernetes-agent-token', 'a GitLab Kubernetes agent token', ['glagent-'], 'glagent-([0-9a-zA-Z_-]{50,100})'),
  token('gitlab-oauth-app-secret', 'a GitLab OAuth application secret', ['gloas-'], 'gloas-([0-9a-zA-Z_-]{64})'),
  token('gitlab-ptt', 'a GitLab pipeline trigger token', ['glptt-'], 'glptt-([0-9a-f]{40})'),
  token('gitlab-rrt', 'a GitLab runner registration token', ['gr1348941'], 'GR1348941([\\w-]{20})'),
  token('gitlab-runner-authentication-token', 'a GitLab runner authentication token', ['glrt-'],
    'glrt-(?:t\\d_)?([0-9a-zA-Z_-]{20,300})(?:\\.[0-9a-z]{2}[0-9a-z]{7})?'),
  token('gitlab-scim-token', 'a GitLab SCIM token', ['glsoat-'], 'glsoat-([0-9a-zA-Z_-]{20,64})'),
  token('gitlab-session-cookie', 'a GitLab session cookie', ['_gitlab_session='], '_gitlab_session=([0-9a-z]{32})', {raw: true}),
  keyed('gitter-access-token', 'a Gitter access token', ['gitter'], '[a-z0-9_-]{40}'),
  keyed('gocardless-api-token', 'a GoCardless access token', ['gocardless'], 'live_[a-z0-9\\-_=]{40}'),
  token('grafana-api-key', 'a Grafana API key', ['eyjrijoi'], 'eyJrIjoi([A-Za-z0-9]{70,400}={0,3})'),
  token('harness-api-key', 'a Harness access token', ['pat.', 'sat.'],
    '(?:pat|sat)\\.[A-Za-z0-9_-]{22}\\.[A-Za-z0-9]{24}\\.([A-Za-z0-9]{20})'),
  token('hashicorp-tf-api-token', 'a Terraform Cloud API token', ['atlasv1'],
    '[A-Za-z0-9]{14}\\.atlasv1\\.([A-Za-z0-9_=-]{60,70})', {minEntropy: 3.5}),
  keyed('heroku-api-key', 'a Heroku API key', ['heroku'], UUID),
  token('heroku-api-key-v2', 'a Heroku API key', ['hrku-aa'], 'HRKU-AA([0-9a-zA-Z_-]{58})', {minEntropy: 4}),
  anyOf('hubspot-api-key', 'a HubSpot API key or private app token', [
    keyed('hubspot-api-key', '', ['hubspot'], UUID),
    token('hubspot-api-key', '', ['pat-na1-', 'pat-eu1-'], `pat-(?:na|eu)1-(${UUID})`),
  ]),
  token('huggingface-organization-api-token', 'a Hugging Face organization API token', ['api_org_'],
    'api_org_([A-Za-z]{34})', {mixed: false}),
  token('infracost-api-token', 'an Infracost API key', ['ico-'], 'ico-([a-zA-Z0-9]{32})'),
  keyed('intercom-api-key', 'an Intercom access token', ['intercom'], '[a-z0-9=_\\-]{60}'),
  token('intra42-client-secret', 'a 42 intra client secret', ['s-s4t2'], 's-s4t2(?:ud|af)-([a-f0-9]{64})'),
  keyed('jfrog-api-key', 'a JFrog API key', ['jfrog', 'artifactory', 'bintray', 'xray'], '[a-z0-9]{73}'),
  keyed('jfrog-identity-token', 'a JFrog identity token', ['jfrog', 'artifactory', 'bintray', 'xray'], '[a-z0-9]{64}'),
  {id: 'jwt-base64', kind: 'a base64-encoded JSON Web Token', keywords: ['zxlk'], hit: hasBase64Jwt},
  keyed('kraken-access-token', 'a Kraken API key', ['kraken'], '[a-z0-9/=_+-]{80,90}'),
  {id: 'kubernetes-secret-yaml', kind: 'a Kubernetes Secret with inline values', keywords: ['secret'], hit: hasK8sSecretData},
  keyed('kucoin-access-token', 'a KuCoin API key', ['kucoin'], `${HEX}{24}`),
  keyed('kucoin-secret-key', 'a KuCoin API secret', ['kucoin'], UUID),
  keyed('launchdarkly-access-token', 'a LaunchDarkly access token', ['launchdarkly'], '[a-z0-9=_\\-]{40}'),
  keyed('linear-client-secret', 'a Linear OAuth client secret', ['linear'], `${HEX}{32}`),
  keyed('linkedin-client-id', 'a LinkedIn client id', ['linked[_-]?in'], '[a-z0-9]{14}', {
    keywords: ['linkedin', 'linked_in', 'linked-in'],
    keyMust: CLIENT,
  }),
  keyed('linkedin-client-secret', 'a LinkedIn client secret', ['linked[_-]?in'], '[a-z0-9]{16}', {
    keywords: ['linkedin', 'linked_in', 'linked-in'],
  }),
  keyed('lob-api-key', 'a Lob API key', ['lob'], `(?:live|test)_${HEX}{35}`),
  keyed('lob-pub-api-key', 'a Lob publishable API key', ['lob'], `(?:test|live)_pub_${HEX}{31}`),
  // The `-usNN` data-centre suffix makes the shape distinctive without the keyword gitleaks needs.
  token('mailchimp-api-key', 'a Mailchimp API key', ['-us'], '([a-f0-9]{32})-us\\d{1,2}'),
  keyed('mailgun-private-api-token', 'a Mailgun private API key', ['mailgun'], `key-${HEX}{32}`),
  keyed('mailgun-pub-key', 'a Mailgun public validation key', ['mailgun'], `pubkey-${HEX}{32}`),
  keyed('mailgun-signing-key', 'a Mailgun webhook signing key', ['mailgun'], '[a-h0-9]{32}-[a-h0-9]{8}-[a-h0-9]{8}'),
  keyed('mapbox-api-token', 'a Mapbox access token', ['mapbox'], '[ps]k\\.[a-z0-9]{60}\\.[a-z0-9_-]{22}'),
  keyed('mattermost-access-token', 'a Mattermost access token', ['mattermost'], '[a-z0-9]{26}'),
  token('maxmind-license-key', 'a MaxMind license key', ['_mmk'], '[A-Za-z0-9]{6}_([A-Za-z0-9]{29})_mmk', {minEntropy: 3.5}),
  keyed('messagebird-api-token', 'a MessageBird API key', ['message[_-]?bird'], '[a-z0-9]{25}', {
    keywords: ['messagebird', 'message-bird', 'message_bird'],
  }),
  keyed('messagebird-client-id', 'a MessageBird client id', ['message[_-]?bird'], UUID, {
    keywords: ['messagebird', 'message-bird', 'message_bird'],
    keyMust: CLIENT,
  }),
  token('microsoft-teams-webhook', 'a Microsoft Teams incoming webhook URL', ['webhook.office.com'],
    `https://[a-z0-9-]+\\.webhook\\.office\\.com/webhookb2/${UUID}@${UUID}/IncomingWebhook/([a-z0-9]{32})/${UUID}`, {raw: true, flags: 'i'}),
  keyed('netlify-access-token', 'a Netlify access token', ['netlify'], '[a-z0-9=_\\-]{40,46}'),
  token('new-relic-browser-api-token', 'a New Relic browser API token', ['nrjs-'], 'NRJS-([a-f0-9]{19})'),
  token('new-relic-insert-key', 'a New Relic insert key', ['nrii-'], 'NRII-([A-Za-z0-9_-]{32})'),
  token('new-relic-user-api-key', 'a New Relic user API key', ['nrak-'], 'NRAK-([A-Z0-9]{27})', {flags: 'i'}),
  token('new-relic-license-key', 'a New Relic license key', ['nral'], '([a-f0-9]{36})NRAL'),
  keyed('new-relic-user-api-id', 'a New Relic user API id', ['new-relic', 'newrelic', 'new_relic'], '[a-z0-9]{64}'),
  {id: 'nuget-config-password', kind: 'a password in a NuGet config', keywords: ['<add key='], hit: hasNugetPassword},
  keyed('nytimes-access-token', 'a New York Times API key', ['nytimes', 'new-york-times', 'newyorktimes'], '[a-z0-9=_\\-]{32}'),
  token('octopus-deploy-api-key', 'an Octopus Deploy API key', ['api-'], 'API-([A-Z0-9]{26})', {minEntropy: 3.5}),
  keyed('okta-access-token', 'an Okta API token', ['okta'], '00[\\w=\\-]{40}', {minEntropy: 4}),
  token('openshift-user-token', 'an OpenShift user token', ['sha256~'], 'sha256~([\\w-]{43})', {raw: true, minEntropy: 3.5}),
  token('perplexity-api-key', 'a Perplexity API key', ['pplx-'], 'pplx-([a-zA-Z0-9]{48})', {minEntropy: 4}),
  token('plaid-api-token', 'a Plaid access token', ['access-sandbox-', 'access-development-', 'access-production-'],
    `access-(?:sandbox|development|production)-(${UUID})`),
  keyed('plaid-client-id', 'a Plaid client id', ['plaid'], '[a-z0-9]{24}', {keyMust: CLIENT, minEntropy: 3.5}),
  keyed('plaid-secret-key', 'a Plaid secret', ['plaid'], '[a-z0-9]{30}', {minEntropy: 3.5}),
  token('planetscale-api-token', 'a PlanetScale service token', ['pscale_tkn_'], 'pscale_tkn_([\\w=.-]{32,64})'),
  token('planetscale-oauth-token', 'a PlanetScale OAuth token', ['pscale_oauth_'], 'pscale_oauth_([\\w=.-]{32,64})'),
  token('planetscale-password', 'a PlanetScale database password', ['pscale_pw_'], 'pscale_pw_([\\w=.-]{32,64})'),
  token('postman-api-token', 'a Postman API key', ['pmak-'], 'PMAK-([a-f0-9]{24}-[a-f0-9]{34})', {flags: 'i'}),
  token('prefect-api-token', 'a Prefect API key', ['pnu_'], 'pnu_([a-zA-Z0-9]{36})'),
  keyed('privateai-api-token', 'a Private AI API key', ['private[_-]?ai'], '[a-z0-9]{32}', {
    keywords: ['privateai', 'private_ai', 'private-ai'],
  }),
  token('pulumi-api-token', 'a Pulumi access token', ['pul-'], 'pul-([a-f0-9]{40})'),
  // The body is a macaroon whose base64 starts with the issuing index (pypi.org or test.pypi.org).
  token('pypi-upload-token', 'a PyPI upload token', ['pypi-ageichlwas5vcmc', 'pypi-agendgvzdc5wexbplm9yzw'],
    'pypi-AgE(?:IcHlwaS5vcmc|NdGVzdC5weXBpLm9yZw)([A-Za-z0-9_-]{50,1000})'),
  keyed('rapidapi-access-token', 'a RapidAPI key', ['rapidapi'], '[a-z0-9_-]{50}'),
  token('readme-api-token', 'a ReadMe API key', ['rdme_'], 'rdme_([a-z0-9]{70})'),
  token('rubygems-api-token', 'a RubyGems API key', ['rubygems_'], 'rubygems_([a-f0-9]{48})'),
  token('scalingo-api-token', 'a Scalingo API token', ['tk-us-'], 'tk-us-([\\w-]{48})'),
  keyed('sendbird-access-id', 'a Sendbird application id', ['sendbird'], UUID, {keyMust: /app|access/i}),
  keyed('sendbird-access-token', 'a Sendbird API token', ['sendbird'], `${HEX}{40}`),
  token('sendinblue-api-token', 'a Brevo (Sendinblue) API or SMTP key', ['xkeysib-', 'xsmtpsib-'],
    'x(?:keysib|smtpsib)-([a-f0-9]{64})-[A-Za-z0-9]{16}'),
  // secretlint's sendgrid rule allows one `-` or `_` in the last part only; keys use base64url
  // throughout, so those with a `-` elsewhere slipped through.
  token('sendgrid-api-token', 'a SendGrid API key', ['sg.'], 'SG\\.([A-Za-z0-9_-]{22}\\.[A-Za-z0-9_-]{43})'),
  keyed('sentry-access-token', 'a Sentry auth token', ['sentry'], `${HEX}{64}`),
  token('sentry-org-token', 'a Sentry organization token', ['sntrys_'], 'sntrys_eyJpYXQiO[A-Za-z0-9+/]{10,400}={0,2}_([A-Za-z0-9+/]{43})'),
  token('sentry-user-token', 'a Sentry user token', ['sntryu_'], 'sntryu_([a-f0-9]{64})'),
  // gitleaks has one rule for each of the three prefixes.
  token('settlemint-access-token', 'a SettleMint access token', ['sm_aat_', 'sm_pat_', 'sm_sat_'], 'sm_(?:aat|pat|sat)_([a-zA-Z0-9]{16})'),
  token('shippo-api-token', 'a Shippo API token', ['shippo_'], 'shippo_(?:live|test)_([a-fA-F0-9]{40})'),
  token('sidekiq-secret', 'a Sidekiq Pro/Enterprise license credential', ['contribsys__com'],
    'BUNDLE_(?:ENTERPRISE|GEMS)__CONTRIBSYS__COM["\']?\\s*[:=]\\s*["\']?([a-f0-9]{8}:[a-f0-9]{8})', {raw: true, flags: 'i'}),
  keyed('snyk-api-token', 'a Snyk API token', ['snyk[_.-]?(?:(?:api|oauth)[_.-]?)?(?:key|token)'], UUID, {keywords: ['snyk']}),
  anyOf('sonar-api-token', 'a SonarQube or SonarCloud token', [
    keyed('sonar-api-token', '', ['sonar[_.-]?(?:login|token)'], '[a-z0-9=_\\-]{40}', {keywords: ['sonar']}),
    token('sonar-api-token', '', ['squ_', 'sqp_', 'sqa_'], 'sq[upa]_([a-f0-9]{40})'),
  ]),
  anyOf('sourcegraph-access-token', 'a Sourcegraph access token', [
    token('sourcegraph-access-token', '', ['sgp_'], 'sgp_(?:[a-fA-F0-9]{16}_|local_)?([a-fA-F0-9]{40})'),
    keyed('sourcegraph-access-token', '', ['sourcegraph'], `${HEX}{40}`),
  ]),
  token('square-access-token', 'a Square access token', ['sq0atp-', 'eaaa'], '(?:EAAA|sq0atp-)([\\w-]{22,60})', {minEntropy: 3.5}),
  token('square-secret', 'a Square OAuth application secret', ['sq0csp-'], 'sq0csp-([0-9A-Za-z_-]{43})'),
  keyed('squarespace-access-token', 'a Squarespace API key', ['squarespace'], UUID),
  keyed('sumologic-access-id', 'a Sumo Logic access id', ['sumo'], 'su[a-z0-9]{12}', {keyMust: /access/i, minEntropy: 3}),
  keyed('sumologic-access-token', 'a Sumo Logic access key', ['sumo'], '[a-z0-9]{64}'),
  // A bot token is the bot's numeric id, a colon and 35 characters starting with A; the shape is
  // distinctive enough that gitleaks' `telegr` keyword isn't required.
  token('telegram-bot-api-token', 'a Telegram bot token', [':a'], '(?<![\\w:/.-])\\d{5,16}:(A[A-Za-z0-9_-]{34})(?![\\w-])', {
    raw: true,
    check: (body) => /[a-z]/.test(body) && /[A-Z].*[A-Z]/.test(body),
  }),
  keyed('travisci-access-token', 'a Travis CI access token', ['travis'], '[a-z0-9]{22}'),
  token('twilio-api-key', 'a Twilio API key', ['sk'], 'SK([0-9a-fA-F]{32})'),
  anyOf('twilio-auth-token', 'a Twilio auth token', [
    keyed('twilio-auth-token', '', ['twilio'], `${HEX}{32}`),
    {id: 'twilio-auth-token', kind: '', keywords: ['ac'], hit: hasTwilioAuthToken},
  ]),
  keyed('twitch-api-token', 'a Twitch API token', ['twitch'], '[a-z0-9]{30}'),
  keyed('twitter-access-secret', 'a Twitter (X) access token secret', ['twitter'], '[a-z0-9]{45}'),
  keyed('twitter-access-token', 'a Twitter (X) access token', ['twitter'], '[0-9]{15,25}-[a-z0-9]{20,40}'),
  keyed('twitter-api-key', 'a Twitter (X) API key', ['twitter'], '[a-z0-9]{25}'),
  keyed('twitter-api-secret', 'a Twitter (X) API secret', ['twitter'], '[a-z0-9]{50}'),
  // App-only bearer tokens start with a run of 22 `A`s; the dummy check applies to what follows.
  keyed('twitter-bearer-token', 'a Twitter (X) bearer token', ['twitter'], 'A{22}[a-z0-9%]{80,100}', {
    core: (v) => v.slice(22),
  }),
  token('typeform-api-token', 'a Typeform personal access token', ['tfp_'], 'tfp_([A-Za-z0-9_.=-]{59})'),
  // Vault 1.10+ tokens (hvs./hvb.) are secretlint's; before that service tokens were `s.` + 24.
  token('vault-service-token-legacy', 'a HashiCorp Vault token', ['s.'], '(?<![\\w.-])s\\.([A-Za-z0-9]{24})(?![\\w.-])', {
    raw: true,
    check: (body) => /[a-z]/.test(body) && /[A-Z]/.test(body),
  }),
  keyed('yandex-access-token', 'a Yandex OAuth token', ['yandex'], 't1\\.[a-z0-9_-]+={0,2}\\.[a-z0-9_-]{86}={0,2}'),
  keyed('yandex-api-key', 'a Yandex Cloud API key', ['yandex'], 'AQVN[a-z0-9_\\-]{35,38}'),
  keyed('yandex-aws-access-token', 'a Yandex Cloud static access key', ['yandex'], 'YC[a-z0-9_\\-]{38}'),
  keyed('zendesk-secret-key', 'a Zendesk API token', ['zendesk'], '[a-z0-9]{40}'),
  // Last: a provider rule names the kind better (`curl -u AC...:<token>` is a Twilio auth token).
  {id: 'curl-auth-user', kind: 'a password passed to curl with -u', keywords: ['curl'], hit: hasCurlUser},
]

interface Keyword {
  text: string
  rules: number[]
}

// Keywords indexed by their first two characters (all keywords are ASCII and 2+ long): the text is
// walked once and only keywords starting with the pair at hand are compared, which is several times
// faster than one `includes` per keyword or one regex alternating over all of them.
const BY_PAIR: (Keyword[] | undefined)[] = new Array(128 * 128)
{
  const keywords = new Map<string, Keyword>()
  PROVIDER_RULES.forEach((rule, index) => {
    for (const text of rule.keywords) {
      const keyword = keywords.get(text) ?? {text, rules: []}
      keyword.rules.push(index)
      if (!keywords.has(text)) {
        keywords.set(text, keyword)
        ;(BY_PAIR[text.charCodeAt(0) * 128 + text.charCodeAt(1)] ??= []).push(keyword)
      }
    }
  })
}

/**
 * Runs the provider rules whose keywords occur in the text, in table order; returns the first that
 * fires. For texts that mention no provider the keyword walk is the whole cost.
 */
export function scanFormats(text: string): FormatRule | null {
  const lower = text.toLowerCase()
  let candidates: Set<number> | undefined
  let previous = lower.charCodeAt(0)
  for (let i = 1; i < lower.length; i++) {
    const code = lower.charCodeAt(i)
    if (previous < 128 && code < 128) {
      const keywords = BY_PAIR[previous * 128 + code]
      if (keywords) {
        for (const keyword of keywords) {
          if (lower.startsWith(keyword.text, i - 1)) for (const rule of keyword.rules) (candidates ??= new Set()).add(rule)
        }
      }
    }
    previous = code
  }
  if (!candidates) return null
  for (const index of [...candidates].sort((a, b) => a - b)) {
    const rule = PROVIDER_RULES[index]!
    if (rule.hit(text)) return rule
  }
  return null
}
