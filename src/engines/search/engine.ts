import type {MemoryType} from '../../model/memory.js'
import type {Db} from '../../storage/db.js'
import {indexedFields} from '../../storage/fts.js'
import {recallFieldsBySeq, type RecallFields} from '../../storage/memories.js'
import {dotProducts, liveVectors} from '../../storage/vectors.js'
import {DEFAULT_BM25, idf, type Bm25Params, type WeightedTerm} from './bm25.js'
import {analyze, compounds} from '../../text/tokenize.js'
import {queryTerms} from './query.js'
import {BLEND, type Blend, blendScore} from './rank.js'
import {newestVersions, placeNewestFirst} from '../currency.js'
import {FtsRetriever, MemoryIndex, type Retriever} from './retriever.js'
import {roleExpansionsBySource, thesaurusExpansionsBySource} from './thesaurus.js'
import {oneEditStems, surfaceWords} from './typos.js'

/**
 * Retrieval settings. A feature is on by default only where the ablation (test/bench/recall/
 * ablation.mjs) shows it helps on one of the two evaluation sets (the project's own, and the
 * LoCoMo dev split) and does not hurt the other; the figures are in docs/recall.md.
 */
export interface Tuning {
  bm25: Bm25Params
  /** Weight of a developer-thesaurus synonym (thesaurus.ts) relative to a query term; 0 turns it off. */
  synonymWeight: number
  /**
   * How a term's synonyms share the synonym weight: each gets weight / n^spread, n being how many
   * synonyms the term has (0: each the full weight). A word with twenty synonyms no longer drowns
   * the query in them.
   */
  synonymSpread: number
  /**
   * Weight of a tool of a role the query names by what it does ("install dependencies" → pnpm, pip,
   * …; text/roles.ts), shared over the role's tools as synonyms are (synonymSpread); 0 turns it off.
   * The tools stand in for their word: they share its concept (a memory scores the best of the word
   * and its tools, never their sum) and weigh alike (their mean idf).
   */
  roleWeight: number
  /** Correct query terms the index has never seen to known terms within 1–2 edits. */
  typoCorrection: boolean
  /**
   * Queries with more distinct terms than this are not corrected: in a long question the words the
   * store lacks are mostly words it never needed, not typos, and correcting each costs a few
   * hundred stemmed variants.
   */
  typoMaxTerms: number
  /**
   * Synonyms are added only to queries of at most this many terms: a long question already says
   * what it means in many words, and each synonym costs a scan of its postings.
   */
  synonymMaxTerms: number
  correctionWeight: number
  /**
   * The common-term rule: in a store of at least `commonMinDocs`, a term in more than `commonShare`
   * of memories only adds to memories rarer terms found (1 turns it off).
   */
  commonShare: number
  commonMinDocs: number
  /** Pseudo-relevance feedback: expand the query with terms of the top `prfDocs` results. */
  prfDocs: number
  prfTerms: number
  prfWeight: number
  /**
   * A memory stored right after a match (within `followerWindowMs`, in store order) is taken to
   * continue it (an answer after its question, the fix after a failure): when it matched too, it
   * scores at least `followerWeight` of the match's text relevance; when the match is a question,
   * its follower (the answer) joins the candidates with that score even if it shares no word with
   * the query. 0 turns it off.
   */
  followerWeight: number
  followerWindowMs: number
  /** Scale of the text relevance of a memory that is itself a question (it rarely answers one). */
  questionPenalty: number
  /** Scale of the text relevance of memories that state a time, when the query asks when. */
  whenBoost: number
  /** The blend of relevance with importance, recency and feedback (rank.ts). */
  blend: Blend
  /**
   * A memory scores only the best of a query term and its synonyms and corrections (a dis-max per
   * concept), rather than their sum: a synonym stands in for a word, it does not add to it.
   */
  conceptMax: boolean
  /**
   * When the query names an identifier the store knows whole (OPS-4821, parseConfigFile), its parts
   * (op, 4821) only add to memories other terms found: a memory holding just a part is not about it.
   */
  wholeIdentifiers: boolean
}

export const DEFAULT_TUNING: Tuning = {
  bm25: DEFAULT_BM25,
  synonymWeight: 0.7,
  synonymSpread: 0.5,
  // measured by words and fused (docs/recall.md, "The roles' words"): the same or higher on every
  // recall set and on the currency set, LoCoMo dev the same
  roleWeight: 0.4,
  typoCorrection: true,
  typoMaxTerms: 12,
  synonymMaxTerms: 12,
  correctionWeight: 0.8,
  commonShare: 0.05,
  commonMinDocs: 500,
  // off: it hurts the LoCoMo split (MRR −0.03) and leaves the own set where it is
  prfDocs: 0,
  prfTerms: 8,
  prfWeight: 0.3,
  followerWeight: 0.7,
  followerWindowMs: 10 * 60_000,
  questionPenalty: 0.7,
  whenBoost: 1.3,
  blend: BLEND,
  wholeIdentifiers: true,
  // off: MRR@10 up on both sets (own +0.007, LoCoMo +0.002) but the own set's recall@5 down 0.008
  // (paraphrases find their memory through summed synonyms)
  conceptMax: false,
}

export interface SearchOptions {
  limit: number
  type?: MemoryType
  now: Date
  /** 'memory' keeps an in-process index (servers); 'fts' asks the on-disk index (one-shot commands). */
  index?: 'memory' | 'fts'
  /** A key that changes whenever the store changes (for caching the vectors). */
  version?: unknown
  tuning?: Partial<Tuning>
  /**
   * The query's vector (unit length) from the meaning model in use, when meaning is on and the
   * model answered; absent, the ranking is exactly the text-only one. `onlyFloor`: the least
   * cosine of a memory found by meaning alone (the model's, MeaningModel.onlyFloor).
   */
  embedding?: {model: string; vector: Float32Array; onlyFloor?: number}
  fusion?: Partial<Fusion>
}

export interface SearchHit {
  memory: RecallFields
  score: number
  /** The newest live memory that updates this one (currency.ts), when one does. */
  newer?: {id: string; createdAt: string}
}

/** How many BM25 candidates are re-ranked with the full blend, per requested result. */
const RERANK_FACTOR = 5
const RERANK_MIN = 50
/** The best BM25 results kept for re-ranking and type filtering (limit 100 × 5). */
const RERANK_POOL = 500

/**
 * Meaning as a second signal (docs/meaning.md), when the question has a vector: a candidate's
 * relevance is (1 − w) · words + w · meaning, where
 * - words = its text relevance over the best one's (times the share of the question's words it
 *   holds, to the power wordCoverPower: 0, off, as the own set and LoCoMo lost by it);
 * - meaning = how far its cosine with the question stands above meaningFloor, scaled to 0..1;
 * - w = meaningWeight · (1 − the share of the question's words the best word match holds)
 *   (adaptive): the more of the question the words hold, the less meaning counts.
 * The `neighbors` (at least `limit`) nearest memories by cosine, above the floor, join the
 * candidates with no text relevance: a memory found only by meaning can rank first when no memory
 * holds the question's words. Chosen on test/bench/recall/meaning.mjs (its MEM_BENCH_MEANING_GRID
 * rows): adaptive 0.9 was the best row on the paraphrase set and LoCoMo, and within 0.004 of the
 * word-only recall@5 on the own set (recall@10 and MRR@10 up).
 */
export interface Fusion {
  meaningWeight: number
  meaningFloor: number
  wordCoverPower: number
  neighbors: number
  /**
   * The weight of meaning shrinks as the best word match holds more of the question's words:
   * meaningWeight · (1 − its share); with every word held, the words alone rank.
   */
  adaptive: boolean
}
export const DEFAULT_FUSION: Fusion = {meaningWeight: 0.9, meaningFloor: 0.2, wordCoverPower: 0, neighbors: 20, adaptive: true}

/**
 * Ranks the live memories of one store against a natural-language query. Only memories that match
 * are returned (`limit` is a maximum): by their words, by a correction of a word the store does not
 * know, by continuing a match, or by embeddings when they are on.
 * 1. the query is analyzed like documents and expanded with developer synonyms (thesaurus.ts);
 * 2. query terms no memory contains are corrected to known terms within 1–2 edits (typos);
 * 3. BM25F over body, tags and one-liner (bm25.ts) scores every memory matching any term;
 * 4. pseudo-relevance feedback adds the strongest terms of the top results (off by default);
 * 5. the memory stored right after a match shares its score; questions weigh less as answers,
 *    and memories that state a time more when the query asks when;
 * 6. the top candidates are re-ranked with the blended score (rank.ts).
 */
export function searchMemories(db: Db, q: string, opts: SearchOptions): SearchHit[] {
  return searchIn(
    () => ({
      retriever: opts.index === 'memory' ? MemoryIndex.for(db) : new FtsRetriever(db),
      recallFields: (seqs) => recallFieldsBySeq(db, seqs),
      newestVersions: (memories) => newestVersions(db, memories),
      db,
    }),
    q,
    opts,
  )
}

/**
 * What a search reads: its retriever, the recall fields of memories by seq, and the newest live
 * versions of memories (currency.ts). `db` is needed only for feedback expansion (tuning.prfDocs)
 * and embeddings; a source without it (the recall index) is searched without either.
 */
export interface SearchSource {
  retriever: Retriever
  recallFields(seqs: number[]): Map<number, RecallFields>
  newestVersions(memories: RecallFields[]): ReadonlyMap<string, RecallFields>
  db?: Db
  /** The cosine of the question's vector with every live memory's vector from its model, by seq (else read from `db`). */
  cosines?(embedding: {model: string; vector: Float32Array}): Cosines
}

/** searchMemories over any source (made only once the query has terms). */
export function searchIn(open: () => SearchSource, q: string, opts: SearchOptions): SearchHit[] {
  const tuning: Tuning = {...DEFAULT_TUNING, ...opts.tuning}
  const original = queryTerms(q)
  if (original.length === 0) return []
  const source = open()
  const {retriever} = source
  const db = source.db
  if (!db && (tuning.prfDocs > 0 || (opts.embedding && !source.cosines))) throw new Error('feedback expansion and embeddings need the database')
  const stats = retriever.stats()

  const weights = new Map<string, number>(original.map((t) => [t, 1]))
  // the concept each term stands for: its own, or the query term (or pair) it is a synonym or a correction of
  const conceptOf = new Map<string, string>(original.map((t) => [t, t]))
  if (tuning.synonymWeight > 0 && original.length <= tuning.synonymMaxTerms) {
    for (const [s, {n, source}] of thesaurusExpansionsBySource(original)) {
      if (weights.has(s)) continue
      weights.set(s, tuning.synonymWeight / n ** tuning.synonymSpread)
      conceptOf.set(s, source)
    }
  }
  // the tools a role word of the query stands for, by that word (they weigh alike: below)
  const roleTerms = new Map<string, string>()
  if (tuning.roleWeight > 0 && original.length <= tuning.synonymMaxTerms) {
    for (const [t, {n, source}] of roleExpansionsBySource(q, original)) {
      if (weights.has(t)) continue
      weights.set(t, tuning.roleWeight / n ** tuning.synonymSpread)
      conceptOf.set(t, source)
      roleTerms.set(t, source)
    }
  }
  const df = retriever.docFrequency([...weights.keys()])

  if (tuning.typoCorrection && original.length <= tuning.typoMaxTerms) {
    const fixes: string[] = []
    for (const term of original) {
      if (df.get(term) !== 0 || !/^[a-z]{4,}$/.test(term)) continue
      // the known stems of words one edit from the query's word, most frequent first, then the
      // known stems within 1–2 edits of its stem
      const variants = [...new Set(surfaceWords(q, term).flatMap((w) => [...oneEditStems(w)]))]
      const vdf = retriever.docFrequency(variants)
      const known = variants.filter((v) => (vdf.get(v) ?? 0) > 0).sort((a, b) => vdf.get(b)! - vdf.get(a)! || (a < b ? -1 : 1))
      const candidates = [...new Set([...known.slice(0, 2), ...retriever.corrections(term, term.length >= 8 ? 2 : 1)])]
      for (const fix of candidates.slice(0, 2)) {
        // a correction outweighs the same term reached as a synonym of another query term
        const had = weights.get(fix)
        if (had === undefined || had < tuning.correctionWeight) {
          weights.set(fix, tuning.correctionWeight)
          conceptOf.set(fix, term)
          if (had === undefined) fixes.push(fix)
        }
      }
    }
    if (fixes.length > 0) for (const [t, n] of retriever.docFrequency(fixes)) df.set(t, n)
  }

  // Terms in more than a twentieth of a large store only add to memories rarer terms found;
  // expansions (synonyms, corrections) that common are dropped: they cost a long scan for little.
  const commonAt = tuning.commonShare >= 1 ? Number.POSITIVE_INFINITY : Math.max(tuning.commonMinDocs, stats.docs * tuning.commonShare)
  const originals = new Set(original)
  const partsOnly = tuning.wholeIdentifiers ? partsOfKnownIdentifiers(q, df) : new Set<string>()
  const weighted = (): WeightedTerm[] => {
    const terms: WeightedTerm[] = [...weights]
      .filter(([t]) => (df.get(t) ?? 0) > 0 && (originals.has(t) || df.get(t)! <= commonAt))
      .map(([term, weight]) => ({term, weight, idf: idf(stats.docs, df.get(term)!), candidate: df.get(term)! <= commonAt && !partsOnly.has(term), df: df.get(term)!}))
    if (!terms.some((t) => t.candidate)) for (const t of terms) t.candidate = true
    // a tool stands in for the role word: each tool of one word's roles gets their mean idf, so that
    // a rarer tool does not outrank a commoner one (versions of a rule naming two tools of a role)
    if (roleTerms.size > 0) {
      const bySource = new Map<string, WeightedTerm[]>()
      for (const t of terms) {
        const source = roleTerms.get(t.term)
        if (source === undefined) continue
        const group = bySource.get(source)
        if (group) group.push(t)
        else bySource.set(source, [t])
      }
      for (const group of bySource.values()) {
        const mean = group.reduce((sum, t) => sum + t.idf, 0) / group.length
        for (const t of group) t.idf = mean
      }
    }
    const ordered = [...terms.filter((t) => t.candidate), ...terms.filter((t) => !t.candidate)]
    const groupIds = new Map<string, number>()
    for (const t of ordered) {
      // a role's tool stands in for the role word and never adds to it: a memory that holds the word
      // ("Run the unit tests with `make test`") gains nothing from naming a tool too (`npx vitest run`)
      const concept = tuning.conceptMax || roleTerms.has(t.term) ? (conceptOf.get(t.term) ?? t.term) : t.term
      if (!groupIds.has(concept)) groupIds.set(concept, groupIds.size)
      t.group = groupIds.get(concept)!
    }
    return ordered
  }
  // Without a type filter (or feedback terms to re-rank), the first `take` are all the blend sees.
  const take = Math.max(RERANK_MIN, opts.limit * RERANK_FACTOR)
  const pool = opts.type || tuning.prfDocs > 0 ? RERANK_POOL : take
  let scored = retriever.score(weighted(), tuning.bm25, pool)

  if (tuning.prfDocs > 0 && tuning.prfTerms > 0 && scored.length > 0) {
    const expansion = feedbackTerms(db!, scored.slice(0, tuning.prfDocs), weights, tuning.prfTerms, retriever, stats.docs)
    if (expansion.length > 0) {
      // Feedback terms re-rank what the query found; they do not bring in memories of their own.
      const edf = retriever.docFrequency(expansion.map((e) => e.term))
      const extra = expansion
        .filter((e) => (edf.get(e.term) ?? 0) > 0)
        .map((e) => ({term: e.term, weight: tuning.prfWeight * e.weight, idf: idf(stats.docs, edf.get(e.term)!), candidate: false}))
      scored = retriever.rescore(scored, extra, tuning.bm25)
    }
  }
  if (scored.length > 0) scored = shaped(source, q, scored, retriever, tuning, take)

  const best = scored[0]?.text || 1
  const cosines = opts.embedding ? (source.cosines ? source.cosines(opts.embedding) : cosineBySeq(db!, opts.embedding)) : null
  const fusion: Fusion = {...DEFAULT_FUSION, ...opts.fusion}
  let relevance = (_seq: number, text: number): number => text
  let near: Array<{seq: number; text: number}> = []
  if (cosines) {
    // the nearest memories by meaning, above the floor (the model's floor for a hit by meaning alone), join the text candidates
    const onlyFloor = Math.max(fusion.meaningFloor, opts.embedding?.onlyFloor ?? 0)
    const words = new Set(scored.slice(0, take).map((c) => c.seq))
    near = cosines.nearest(onlyFloor, words, Math.max(fusion.neighbors, opts.limit)).map((seq) => ({seq, text: 0}))
    const needCover = fusion.wordCoverPower !== 0 || fusion.adaptive
    const cover = needCover ? wordCover(source, original, scored.slice(0, take).map((c) => c.seq)) : new Map<number, number>()
    const weight = fusion.adaptive ? fusion.meaningWeight * (1 - (scored.length > 0 ? (cover.get(scored[0].seq) ?? 0) : 0)) : fusion.meaningWeight
    relevance = (seq, text) => {
      const cos = cosines.get(seq) ?? 0
      const meaning = Math.max(0, (cos - fusion.meaningFloor) / (1 - fusion.meaningFloor))
      const w = text > 0 ? text * (fusion.wordCoverPower === 0 ? 1 : (cover.get(seq) ?? 0) ** fusion.wordCoverPower) : 0
      return (1 - weight) * w + weight * meaning
    }
  }
  const ranked: Array<{seq: number; createdAt: string; score: number}> = []
  const seen = new Set<number>()
  /**
   * Blends candidates (best first) in slices, reading only the few fields the blend needs, until
   * `want` of the wanted type are collected (whole memories are read only for the ones returned).
   */
  const collect = (candidates: Array<{seq: number; text: number}>, want: number): void => {
    let added = 0
    for (let i = 0; i < candidates.length && added < want; i += want) {
      const slice = candidates.slice(i, i + want)
      const fields = retriever.rankFields(slice.map((c) => c.seq))
      for (const c of slice) {
        const m = fields.get(c.seq)
        seen.add(c.seq)
        if (!m || !m.live || (opts.type && m.type !== opts.type) || added >= want) continue
        ranked.push({seq: c.seq, createdAt: m.createdAt, score: blendScore(relevance(c.seq, c.text / best), m, opts.now, 1, tuning.blend)})
        added++
      }
    }
  }
  if (cosines) {
    // with meaning, every candidate is blended: text candidates and the nearest by meaning
    collect([...scored.slice(0, take), ...near], take + near.length)
  } else collect(scored, take)

  ranked.sort((a, b) => b.score - a.score || (a.createdAt < b.createdAt ? 1 : a.createdAt > b.createdAt ? -1 : 0) || a.seq - b.seq)
  const top = ranked.slice(0, opts.limit)
  const memories = source.recallFields(top.map((r) => r.seq))
  const hits = top.flatMap((r) => {
    const memory = memories.get(r.seq)
    return memory ? [{memory, score: r.score}] : []
  })
  // the newer of two memories about the same subject ranks above the older (currency.ts)
  return placeNewestFirst(
    hits,
    source.newestVersions(hits.map((h) => h.memory)),
    opts.limit,
    (m) => !opts.type || m.type === opts.type,
  )
}

/**
 * The terms that appear in the query only as parts of an identifier the store knows whole
 * (OPS-4821 → op, 4821): a memory holding just a part is not about that identifier, so parts only
 * add to memories other terms found.
 */
function partsOfKnownIdentifiers(q: string, df: Map<string, number>): Set<string> {
  const out = new Set<string>()
  const found = compounds(q)
  if (found.length === 0) return out
  const standalone = new Map<string, number>()
  for (const t of analyze(q, {keepStopWords: true})) standalone.set(t, (standalone.get(t) ?? 0) + 1)
  for (const c of found) {
    standalone.set(c.whole, (standalone.get(c.whole) ?? 0) - 1)
    for (const p of c.parts) standalone.set(p, (standalone.get(p) ?? 0) - 1)
  }
  for (const c of found) {
    if ((df.get(c.whole) ?? 0) === 0) continue
    for (const p of c.parts) if ((standalone.get(p) ?? 0) <= 0) out.add(p)
  }
  return out
}

const WHEN_QUERY = /^\s*(?:when\b|what (?:time|date|day|year|month)\b|how long ago\b)/i
const TIME_WORDS =
  /\b(?:yesterday|today|tonight|tomorrow|ago|last|next|this (?:week|month|year|weekend|morning|evening)|(?:mon|tues|wednes|thurs|fri|satur|sun)days?|weekend|week|month|year|january|february|march|april|may|june|july|august|september|october|november|december|\d{4}-\d{2}-\d{2}|\d{1,2}:\d{2}|(?:19|20)\d{2})\b/i

/**
 * The signals of a text's shape, on the best `take` candidates (their text relevance rescaled):
 * - the memory stored right after a match, within the window, scores at least `followerWeight` of
 *   it; after a question it joins the candidates even when it did not match (the answer);
 * - a memory that is itself a question weighs `questionPenalty`;
 * - when the query asks when, a memory that states a time weighs `whenBoost`.
 * Returns the candidates best first.
 */
function shaped(source: SearchSource, q: string, scored: Array<{seq: number; text: number}>, retriever: Retriever, tuning: Tuning, take: number): Array<{seq: number; text: number}> {
  const top = scored.slice(0, take)
  const text = new Map(scored.map((s) => [s.seq, s.text]))
  const want = new Set<number>()
  for (const s of top) {
    want.add(s.seq)
    if (tuning.followerWeight > 0) want.add(s.seq + 1)
  }
  const fields = retriever.rankFields([...want])
  if (tuning.followerWeight > 0) {
    for (const s of top) {
      const here = fields.get(s.seq)
      const next = fields.get(s.seq + 1)
      if (!here || !next || !next.live || Date.parse(next.createdAt) - Date.parse(here.createdAt) > tuning.followerWindowMs) continue
      // only a question brings in a follower that did not match (its answer); after anything else
      // the follower must have matched on its own: an unrelated note stored next never joins
      if (!here.question && !text.has(s.seq + 1)) continue
      text.set(s.seq + 1, Math.max(text.get(s.seq + 1) ?? 0, tuning.followerWeight * s.text))
    }
  }
  const asksWhen = tuning.whenBoost !== 1 && WHEN_QUERY.test(q)
  const contents = asksWhen ? source.recallFields([...text.keys()].filter((seq) => want.has(seq))) : undefined
  for (const [seq, t] of text) {
    if (!want.has(seq)) continue
    let f = 1
    if (fields.get(seq)?.question) f *= tuning.questionPenalty
    if (contents && TIME_WORDS.test(contents.get(seq)?.content ?? '')) f *= tuning.whenBoost
    if (f !== 1) text.set(seq, t * f)
  }
  return [...text].map(([seq, t]) => ({seq, text: t})).sort((a, b) => b.text - a.text || a.seq - b.seq)
}

/**
 * The share of the query's terms each candidate holds in its text, tags or one-liner (as analyzed
 * for the index): 1 when it holds every word of the question.
 */
function wordCover(source: SearchSource, terms: string[], seqs: number[]): Map<number, number> {
  const out = new Map<number, number>()
  if (terms.length === 0) return out
  const fields = source.recallFields(seqs)
  for (const [seq, m] of fields) {
    const have = new Set(analyze(`${m.content} ${m.tags.join(' ')} ${m.oneLiner ?? ''}`, {keepStopWords: true}))
    let n = 0
    for (const t of terms) if (have.has(t)) n++
    out.set(seq, n / terms.length)
  }
  return out
}

/** Cosine similarity of the query to every live memory's vector from the same model (brute force; the matrix is kept up to date by storage/vectors.ts). */
function cosineBySeq(db: Db, q: {model: string; vector: Float32Array}): Cosines {
  const {seqs, matrix} = liveVectors(db, q.model, q.vector.length)
  return cosinesOf(seqs, matrix, q.vector)
}

/**
 * A question's cosine with each live memory's vector, by the memory's seq (the rows' seqs ascend,
 * as storage/vectors.ts and the recall index keep them): looked up for the few candidates a recall
 * blends, and scanned once for the nearest. No map of every memory is made (at 10,000 memories it
 * cost about as much as the products).
 */
export class Cosines {
  constructor(
    private readonly seqs: ArrayLike<number>,
    private readonly values: Float64Array,
  ) {}

  /** The cosine of the memory of `seq`; undefined when it has no vector of this model. */
  get(seq: number): number | undefined {
    let lo = 0
    let hi = this.seqs.length - 1
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1
      const at = this.seqs[mid]
      if (at === seq) return this.values[mid]
      if (at < seq) lo = mid + 1
      else hi = mid - 1
    }
    return undefined
  }

  /** The seqs of the `k` memories nearest the question above `floor`, `skip` left out: by cosine, then seq. */
  nearest(floor: number, skip: ReadonlySet<number>, k: number): number[] {
    const above: number[] = []
    for (let r = 0; r < this.values.length; r++) if (this.values[r] > floor && !skip.has(this.seqs[r])) above.push(r)
    return above
      .sort((a, b) => this.values[b] - this.values[a] || this.seqs[a] - this.seqs[b])
      .slice(0, k)
      .map((r) => this.seqs[r])
  }
}

/** The dot product (the cosine: both unit length) of `v` with each row of `matrix`, whose seqs are `seqs` (ascending). */
export function cosinesOf(seqs: ArrayLike<number>, matrix: Float32Array, v: Float32Array): Cosines {
  return new Cosines(seqs, dotProducts(matrix, v, seqs.length))
}

/**
 * Pseudo-relevance feedback: terms frequent in the top results and rare in the store, weighted by
 * tf · idf within those results and normalised so the strongest is 1.
 */
function feedbackTerms(
  db: Db,
  top: Array<{seq: number; text: number}>,
  exclude: Map<string, number>,
  count: number,
  retriever: Retriever,
  docs: number,
): Array<{term: string; weight: number}> {
  const bestText = top[0]?.text || 1
  const tfs: Array<{weight: number; tf: Map<string, number>; len: number}> = []
  const candidates = new Set<string>()
  const fields = indexedFields(
    db,
    top.map((t) => t.seq),
  )
  for (const doc of top) {
    const f = fields.get(doc.seq)
    if (!f) continue
    const terms = `${f[0]} ${f[1]}`.split(' ').filter(Boolean)
    const tf = new Map<string, number>()
    for (const t of terms) {
      if (exclude.has(t) || t.length < 3 || /^\d+$/.test(t)) continue
      tf.set(t, (tf.get(t) ?? 0) + 1)
      candidates.add(t)
    }
    tfs.push({weight: doc.text / bestText, tf, len: terms.length || 1})
  }
  const df = retriever.docFrequency([...candidates].sort())
  const score = new Map<string, number>()
  for (const {weight, tf, len} of tfs) {
    for (const [t, n] of tf) score.set(t, (score.get(t) ?? 0) + weight * (n / len) * idf(docs, df.get(t) ?? 0))
  }
  const ranked = [...score].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, count)
  const max = ranked[0]?.[1] || 1
  return ranked.map(([term, s]) => ({term, weight: s / max}))
}
