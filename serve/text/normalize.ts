/**
 * Text normalisation shared by the artifact build and the request path.
 *
 * The build indexes titles with these functions and the server normalises queries with
 * the same ones, so a change here must bump NORMALIZER_VERSION: the server refuses an
 * artifact whose manifest names another version instead of silently mis-matching.
 */

/** Version of the normaliser; recorded in every taxonomy manifest. */
export const NORMALIZER_VERSION = "1";

/** Function words that carry no occupational meaning on their own. */
const STOPWORDS = new Set([
  "a",
  "an",
  "and",
  "as",
  "at",
  "by",
  "for",
  "from",
  "in",
  "into",
  "of",
  "on",
  "or",
  "the",
  "to",
  "with",
]);

/** Words whose trailing "s" is not a plural and must not be stripped. */
const KEEP_S = new Set(["sales", "news", "series", "species", "gas", "bus", "lens", "physics"]);

/** No character past U+007F (the lint forbids writing the control range). */
const ASCII = /^[^\u0080-\uffff]*$/;

/** Lower-cases, strips diacritics and folds "&" and "/" so titles compare on their words. */
export function foldText(text: string): string {
  // ASCII is its own NFKD form and has no combining marks: the request path folds many short
  // ASCII strings (every word pair a ranking looks up), and Unicode normalisation was their cost.
  const decomposed = ASCII.test(text)
    ? text
    : text.normalize("NFKD").replace(/[\u0300-\u036f]/g, "");
  return decomposed
    .toLowerCase()
    .replace(/&/g, " and ")
    .replace(/[’']/g, "");
}

/** Reduces a plural word to its singular form with a few conservative English rules. */
export function singular(word: string): string {
  if (word.length <= 3 || KEEP_S.has(word) || /\d/.test(word)) return word;
  if (word.endsWith("ies") && word.length > 4) return word.slice(0, -3) + "y";
  if (/(ches|shes|sses|xes|zes)$/.test(word)) return word.slice(0, -2);
  if (word.endsWith("s") && !/(ss|us|is|ous)$/.test(word)) return word.slice(0, -1);
  return word;
}

/** Splits text into folded word tokens, keeping "c++" and "c#" style suffixes. */
export function tokenize(text: string): string[] {
  return foldText(text).match(/[a-z0-9]+[+#]*/g) ?? [];
}

/** Tokens with stopwords removed and plurals folded: the terms that are indexed. */
export function indexTerms(text: string): string[] {
  const out: string[] = [];
  for (const token of tokenize(text)) {
    if (!STOPWORDS.has(token)) out.push(singular(token));
  }
  return out;
}

/** A title's canonical comparison form: its index terms joined by single spaces. */
export function normalizeTitle(text: string): string {
  return indexTerms(text).join(" ");
}
