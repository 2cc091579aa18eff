/**
 * Baseline rankers for the title-matching quality benchmark: each ranks O*NET occupations for a
 * job-title query, one document per occupation made of all its titles.
 *
 * - {@link bm25Ranker}: SQLite FTS5 (`unicode61` tokenizer, `bm25()` ranking) reimplemented in
 *   memory, so it is fast enough for tens of thousands of queries.
 * - {@link postgresFtsRanker}: Postgres full-text search (`english` configuration, `ts_rank_cd`)
 *   in embedded PGlite.
 *
 * Both match the OR of the query's terms and break score ties by O*NET code ascending.
 */
import { PGlite } from "@electric-sql/pglite";

/** One occupation as a search document: its O*NET-SOC code and all its titles. */
export interface OccupationDoc {
  onetCode: string;
  titles: string[];
}

/** A baseline to compare against: ranks occupations for a free-text job title. */
export interface BaselineRanker {
  name: string;
  /** Best-first O*NET codes for the query, at most k; [] when nothing matches. Deterministic (ties broken by onetCode ascending). */
  rank(query: string, k: number): Promise<string[]>;
  close(): Promise<void>;
}

// ---------------------------------------------------------------------------------------------
// FTS5 unicode61 tokenizer
// ---------------------------------------------------------------------------------------------

/** unicode61's default token characters: Unicode categories L*, N* and Co. */
const TOKEN_CHAR = /[\p{L}\p{N}\p{Co}]/u;
/** Latin letters, the only ones remove_diacritics=1 strips marks from. */
const LATIN = /\p{Script=Latin}/u;
const COMBINING_MARK = /\p{M}/u;
/** A string made only of ASCII characters (the fast path of {@link ftsTokens}). */
const ASCII_ONLY = /^\p{ASCII}*$/u;
const ASCII_SEPARATORS = /[^a-z0-9]+/;

/**
 * True for the combining marks FTS5 treats as diacritics (sqlite3Fts5UnicodeIsdiacritic in
 * ext/fts5/fts5_unicode2.c: a bit mask over U+0300..U+0331). Inside a token they are kept as
 * part of it and then removed by folding; anywhere else they separate tokens.
 */
function isFtsDiacritic(cp: number): boolean {
  if (cp < 768 || cp > 817) return false;
  return cp < 800 ? (0x08029FDF & (1 << (cp - 768))) !== 0 : (0x000361F8 & (1 << (cp - 800))) !== 0;
}

const foldCache = new Map<string, string>();

/**
 * Folds one non-ASCII token character the way unicode61 does with remove_diacritics=1 (its
 * default): lower-case it, then replace a Latin letter carrying exactly one diacritic by its
 * base letter ("É" → "e"). Letters with several marks ("ế", "ǘ") and non-Latin letters ("ά")
 * keep them, as in FTS5's "simple" diacritic removal. Approximated with Unicode NFD, not
 * FTS5's own tables.
 */
function foldChar(ch: string): string {
  let out = foldCache.get(ch);
  if (out !== undefined) return out;
  out = [...ch.toLowerCase()].filter((c) => !isFtsDiacritic(c.codePointAt(0)!)).join("");
  const parts = [...out.normalize("NFD")];
  if (
    parts.length === 2 && LATIN.test(parts[0]) && COMBINING_MARK.test(parts[1]) &&
    !COMBINING_MARK.test(parts[0])
  ) {
    out = parts[0];
  }
  foldCache.set(ch, out);
  return out;
}

/**
 * Splits text into index terms the way SQLite FTS5's default `unicode61` tokenizer does
 * (ext/fts5/fts5_tokenize.c, fts5UnicodeTokenize): a token is a run of letters, digits and
 * private-use characters (plus FTS5's diacritic marks inside a run); everything else, "_"
 * included, separates tokens. Tokens are lower-cased and stripped of diacritics
 * (remove_diacritics=1); there is no stemming and no stopword list.
 * Example: `ftsTokens("Café-Owner (ÉCOLE)")` → `["cafe", "owner", "ecole"]`.
 */
export function ftsTokens(text: string): string[] {
  if (ASCII_ONLY.test(text)) {
    return text.toLowerCase().split(ASCII_SEPARATORS).filter((t) => t !== "");
  }
  const tokens: string[] = [];
  let current = "";
  let inToken = false;
  for (const ch of text) {
    if (TOKEN_CHAR.test(ch)) {
      current += ch.charCodeAt(0) < 128 ? ch.toLowerCase() : foldChar(ch);
      inToken = true;
    } else if (inToken && isFtsDiacritic(ch.codePointAt(0)!)) {
      // Part of the token, removed by remove_diacritics.
    } else if (inToken) {
      if (current !== "") tokens.push(current);
      current = "";
      inToken = false;
    }
  }
  if (inToken && current !== "") tokens.push(current);
  return tokens;
}

/** Distinct values of a list, in order of first occurrence. */
function distinct(values: string[]): string[] {
  return [...new Set(values)];
}

/** Code-unit order of two strings (what "onetCode ascending" means here and in SQL `COLLATE "C"`). */
function compareCodes(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The docs sorted by O*NET code; throws on a repeated code. */
function sortedDocs(docs: OccupationDoc[]): OccupationDoc[] {
  const sorted = [...docs].sort((a, b) => compareCodes(a.onetCode, b.onetCode));
  for (let i = 1; i < sorted.length; i++) {
    if (sorted[i].onetCode === sorted[i - 1].onetCode) {
      throw new Error(`duplicate O*NET code ${sorted[i].onetCode}`);
    }
  }
  return sorted;
}

/** The number of results a k asks for: 0 for k ≤ 0 or NaN, else ⌊k⌋ (Infinity allowed). */
function resultLimit(k: number): number {
  return k > 0 ? Math.floor(k) : 0;
}

// ---------------------------------------------------------------------------------------------
// BM25 as in FTS5
// ---------------------------------------------------------------------------------------------

/** FTS5's BM25 constants (fts5Bm25Function in ext/fts5/fts5_aux.c). */
const K1 = 1.2;
const B = 0.75;
/** FTS5 replaces an IDF ≤ 0 (a term in at least half the rows) by this. */
const MIN_IDF = 1e-6;

/** The rows holding one term, as parallel arrays of document index and term frequency. */
interface Posting {
  idf: number;
  docs: Int32Array;
  freqs: Float64Array;
}

/**
 * Builds the inverted index: for each term, its IDF and postings, with
 * IDF = ln((N − n + 0.5) / (n + 0.5)), replaced by 1e-6 when ≤ 0 (fts5Bm25GetData).
 */
function buildPostings(docTokens: string[][]): Map<string, Posting> {
  const lists = new Map<string, { docs: number[]; freqs: number[] }>();
  docTokens.forEach((tokens, doc) => {
    const counts = new Map<string, number>();
    for (const t of tokens) counts.set(t, (counts.get(t) ?? 0) + 1);
    for (const [term, freq] of counts) {
      let list = lists.get(term);
      if (!list) lists.set(term, list = { docs: [], freqs: [] });
      list.docs.push(doc);
      list.freqs.push(freq);
    }
  });
  const n = docTokens.length;
  const postings = new Map<string, Posting>();
  for (const [term, list] of lists) {
    const hits = list.docs.length;
    let idf = Math.log((n - hits + 0.5) / (hits + 0.5));
    if (idf <= 0) idf = MIN_IDF;
    postings.set(term, {
      idf,
      docs: Int32Array.from(list.docs),
      freqs: Float64Array.from(list.freqs),
    });
  }
  return postings;
}

/**
 * A ranker equivalent to SQLite FTS5 with its defaults: a one-column table holding each
 * occupation's titles concatenated, the `unicode61` tokenizer ({@link ftsTokens}) and
 * `ORDER BY bm25(t), onet_code`. Following fts5Bm25Function (ext/fts5/fts5_aux.c):
 * k1 = 1.2, b = 0.75, avgdl = total tokens / rows, score = Σ over query phrases of
 * IDF · f·(k1 + 1) / (f + k1·(1 − b + b·D/avgdl)), D the row's length in tokens, IDF as in
 * {@link buildPostings}; terms are summed in query order like FTS5 so scores agree bit for bit
 * (up to libm's log).
 *
 * The query is the OR of its distinct tokens (`"t1" OR "t2" …` in FTS5 syntax), not FTS5's
 * default implicit AND, which would leave most noisy titles unmatched; so the baseline is not
 * handicapped. Rows matching no token are not returned.
 */
export function bm25Ranker(docs: OccupationDoc[]): BaselineRanker {
  const sorted = sortedDocs(docs);
  const codes = sorted.map((d) => d.onetCode);
  const docTokens = sorted.map((d) => ftsTokens(d.titles.join(" ; ")));
  const postings = buildPostings(docTokens);
  const totalTokens = docTokens.reduce((sum, t) => sum + t.length, 0);
  const avgdl = totalTokens / Math.max(1, sorted.length);
  // k1·(1 − b + b·D/avgdl) per row, the length part of the BM25 denominator.
  const lengthNorm = Float64Array.from(
    docTokens,
    (t) => K1 * (1 - B + B * t.length / (avgdl || 1)),
  );
  const scores = new Float64Array(sorted.length);
  const seen = new Uint8Array(sorted.length);

  return {
    name: "fts5-bm25",
    rank(query: string, k: number): Promise<string[]> {
      const limit = resultLimit(k);
      if (limit === 0) return Promise.resolve([]);
      const touched: number[] = [];
      for (const term of distinct(ftsTokens(query))) {
        const posting = postings.get(term);
        if (!posting) continue;
        const { idf, docs: rows, freqs } = posting;
        for (let i = 0; i < rows.length; i++) {
          const row = rows[i];
          if (!seen[row]) {
            seen[row] = 1;
            touched.push(row);
          }
          const f = freqs[i];
          scores[row] += idf * ((f * (K1 + 1.0)) / (f + lengthNorm[row]));
        }
      }
      // Row indexes follow code order, so the index breaks ties by O*NET code.
      touched.sort((a, b) => scores[b] - scores[a] || a - b);
      const result = touched.slice(0, limit).map((row) => codes[row]);
      for (const row of touched) {
        scores[row] = 0;
        seen[row] = 0;
      }
      return Promise.resolve(result);
    },
    close: () => Promise.resolve(),
  };
}

// ---------------------------------------------------------------------------------------------
// Postgres full-text search in PGlite
// ---------------------------------------------------------------------------------------------

/** Rows per INSERT when loading the documents. */
const INSERT_BATCH = 500;

const SCHEMA = `
  CREATE TABLE occupation_fts (onet_code text PRIMARY KEY, doc tsvector NOT NULL);
`;

/** One batch of documents: codes and title texts as two parallel text arrays. */
const INSERT_SQL = `
  INSERT INTO occupation_fts (onet_code, doc)
  SELECT code, to_tsvector('english', body) FROM unnest($1::text[], $2::text[]) AS u(code, body)
`;

/**
 * The OR form of plainto_tsquery: its `'a' & 'b'` text with every ` & ` turned into ` | `
 * (a lexeme never holds " & ", as the parser splits on spaces). A query with no lexemes (empty,
 * punctuation, stopwords only) gives an empty tsquery, which `numnode(q) > 0` turns into no rows.
 */
const RANK_SQL = `
  WITH query AS (
    SELECT replace(plainto_tsquery('english', $1)::text, ' & ', ' | ')::tsquery AS q
  )
  SELECT o.onet_code
  FROM occupation_fts o, query
  WHERE numnode(query.q) > 0 AND o.doc @@ query.q
  ORDER BY ts_rank_cd(o.doc, query.q) DESC, o.onet_code COLLATE "C"
  LIMIT $2
`;

/**
 * A ranker on Postgres full-text search in in-memory PGlite: one row per occupation with
 * `to_tsvector('english', titles joined by ' ; ')` (English stemming and stopwords) under a GIN
 * index; rank() matches the OR of the query's lexemes and orders by `ts_rank_cd` descending,
 * then O*NET code. The query is always passed as a parameter. Call close() to free PGlite.
 */
export async function postgresFtsRanker(docs: OccupationDoc[]): Promise<BaselineRanker> {
  const sorted = sortedDocs(docs);
  const db = await PGlite.create();
  try {
    await db.exec(SCHEMA);
    for (let i = 0; i < sorted.length; i += INSERT_BATCH) {
      const batch = sorted.slice(i, i + INSERT_BATCH);
      await db.query(INSERT_SQL, [
        batch.map((d) => d.onetCode),
        batch.map((d) => d.titles.join(" ; ")),
      ]);
    }
    await db.exec(
      "CREATE INDEX occupation_fts_doc ON occupation_fts USING gin (doc); ANALYZE occupation_fts;",
    );
  } catch (err) {
    await db.close();
    throw err;
  }

  return {
    name: "postgres-fts",
    async rank(query: string, k: number): Promise<string[]> {
      const limit = resultLimit(k);
      if (limit === 0) return [];
      const { rows } = await db.query<{ onet_code: string }>(RANK_SQL, [
        query,
        Number.isFinite(limit) ? limit : null,
      ]);
      return rows.map((r) => r.onet_code);
    },
    async close(): Promise<void> {
      if (!db.closed) await db.close();
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Title-level BM25 reference
// ---------------------------------------------------------------------------------------------

/** One title of an occupation, for the title-level reference. */
export interface TitleDoc {
  onetCode: string;
  title: string;
}

const REFERENCE_STOPWORDS = new Set(["a", "an", "and", "of", "the", "for", "in", "to", "or", "at"]);

/** A light stemmer: plural endings and "-ing" off (at least four letters kept). */
export function lightStem(word: string): string {
  if (word.length > 4 && word.endsWith("ies")) return word.slice(0, -3) + "y";
  if (word.length > 4 && /(ches|shes|sses|xes)$/.test(word)) return word.slice(0, -2);
  if (word.length > 3 && word.endsWith("s") && !/(ss|us|is)$/.test(word)) {
    return word.slice(0, -1);
  }
  if (word.length > 6 && word.endsWith("ing")) return word.slice(0, -3);
  return word;
}

function referenceTokens(text: string): string[] {
  return ftsTokens(text).filter((t) => !REFERENCE_STOPWORDS.has(t)).map(lightStem);
}

function trigrams(word: string): Set<string> {
  const padded = `  ${word} `;
  const out = new Set<string>();
  for (let i = 0; i + 3 <= padded.length; i++) out.add(padded.slice(i, i + 3));
  return out;
}

/**
 * The issue's "simple title-level BM25" reference: one BM25 document per O*NET title (k1 1.2,
 * b 0.75), an occupation scored by a softmax (log-sum-exp, temperature 1) over its titles'
 * scores, a light stemmer, a small OEWS employment prior (0.15 · ln of the occupation's share of
 * the median employment) and, for a query word no title has, the title word with the most
 * character trigrams in common (Jaccard ≥ 0.4), at that similarity's share of its idf.
 */
export function titleBm25Ranker(
  titles: TitleDoc[],
  employment: ReadonlyMap<string, number> = new Map(),
): BaselineRanker {
  const codes = [...new Set(titles.map((t) => t.onetCode))].sort(compareCodes);
  const occOf = new Map(codes.map((c, i) => [c, i]));
  const docTokens = titles.map((t) => referenceTokens(t.title));
  const docOcc = Int32Array.from(titles, (t) => occOf.get(t.onetCode)!);
  const postings = buildPostings(docTokens);
  const avgdl = docTokens.reduce((s, t) => s + t.length, 0) / Math.max(1, docTokens.length);
  const lengthNorm = Float64Array.from(docTokens, (t) => K1 * (1 - B + B * t.length / avgdl));
  const vocab = [...postings.keys()];
  const grams = vocab.map(trigrams);
  const byGram = new Map<string, number[]>();
  grams.forEach((set, i) => {
    for (const g of set) {
      const list = byGram.get(g);
      if (list) list.push(i);
      else byGram.set(g, [i]);
    }
  });
  const emp = codes.map((c) => employment.get(c) ?? 0);
  const known = emp.filter((x) => x > 0).sort((a, b) => a - b);
  const median = known.length ? known[Math.floor(known.length / 2)] : 1;
  const floor = known.length ? known[Math.floor(known.length / 10)] : 1;
  const prior = Float64Array.from(
    emp,
    (x) => known.length ? 0.15 * Math.log((x || floor) / median) : 0,
  );
  const titleScore = new Float64Array(titles.length);
  const occSum = new Float64Array(codes.length);

  const fallback = (word: string): [string, number] | null => {
    const mine = trigrams(word);
    const hits = new Map<number, number>();
    for (const g of mine) for (const i of byGram.get(g) ?? []) hits.set(i, (hits.get(i) ?? 0) + 1);
    let best = -1;
    let bestSim = 0.4;
    for (const [i, n] of hits) {
      const sim = n / (mine.size + grams[i].size - n);
      if (sim > bestSim || (sim === bestSim && best >= 0 && vocab[i] < vocab[best])) {
        [best, bestSim] = [i, sim];
      }
    }
    return best < 0 ? null : [vocab[best], bestSim];
  };

  return {
    name: "title-bm25",
    rank(query: string, k: number): Promise<string[]> {
      const limit = resultLimit(k);
      if (limit === 0) return Promise.resolve([]);
      const touched: number[] = [];
      for (const word of distinct(referenceTokens(query))) {
        let term = word;
        let weight = 1;
        if (!postings.has(term)) {
          const found = fallback(term);
          if (!found) continue;
          [term, weight] = found;
        }
        const { idf, docs, freqs } = postings.get(term)!;
        for (let i = 0; i < docs.length; i++) {
          const d = docs[i];
          if (titleScore[d] === 0) touched.push(d);
          const f = freqs[i];
          titleScore[d] += weight * idf * (f * (K1 + 1)) / (f + lengthNorm[d]);
        }
      }
      const occs: number[] = [];
      for (const d of touched) {
        const occ = docOcc[d];
        if (occSum[occ] === 0) occs.push(occ);
        occSum[occ] += Math.exp(titleScore[d]);
        titleScore[d] = 0;
      }
      const score = new Map<number, number>();
      for (const occ of occs) {
        score.set(occ, Math.log(occSum[occ]) + prior[occ]);
        occSum[occ] = 0;
      }
      occs.sort((a, b) => score.get(b)! - score.get(a)! || a - b);
      return Promise.resolve(occs.slice(0, limit).map((o) => codes[o]));
    },
    close: () => Promise.resolve(),
  };
}
