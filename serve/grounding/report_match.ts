/**
 * Term matching for the role report: does a chunk support a taxonomy term (skill, technology,
 * occupation title), a task statement, or a focus area? Matching is case-insensitive on word
 * tokens, never on substrings: a phrase matches whole tokens in order. Tokens are lowercased,
 * NFKC-normalized and singularized ("nurses" -> "nurse"), so "Registered Nurses" matches
 * "registered nurse". Tasks and long focus areas match on their key words inside one sentence.
 */

/** One chunk prepared for matching: its sentences as token lists and as stem sets. */
export interface PreparedText {
  /** Each sentence: " tok tok tok " (padded, for whole-phrase search). */
  sentences: string[];
  /** Each sentence's tokens. */
  tokens: string[][];
  /** Each sentence's key-word stems. */
  stems: Set<string>[];
  /** Original-case tokens per sentence (for short, case-sensitive technology names). */
  raw: string[][];
  /** Every token and every stem of the chunk: a quick rejection before sentence scans. */
  allTokens: Set<string>;
  allStems: Set<string>;
}

/** A term matcher: phrases (token lists) with optional neighbours that veto a match. */
export interface TermMatcher {
  phrases: string[][];
  /** A match is vetoed when the token just before it is one of these. */
  notAfter?: string[];
  /** A match is vetoed when the token just after it is one of these. */
  notBefore?: string[];
  /** Short names ("C", "R", "Go") match case-sensitively and not first in a sentence. */
  caseSensitive?: string;
}

const TOKEN = /[\p{L}\p{N}]+(?:[+#]+)?/gu;

/** Lowercases and singularizes one token, so plural and singular forms match. */
export function normalizeToken(token: string): string {
  const t = token.toLowerCase();
  if (t.length > 4 && t.endsWith("ies")) return t.slice(0, -3) + "y";
  if (t.length > 3 && t.endsWith("s") && !/(ss|us|is)$/.test(t)) return t.slice(0, -1);
  return t;
}

/** Splits text into normalized tokens. */
export function tokenize(text: string): string[] {
  return (text.normalize("NFKC").match(TOKEN) ?? []).map(normalizeToken);
}

/** The key-word stem of a normalized token (first 6 letters: "statistical" ~ "statistics"). */
export function stem(token: string): string {
  return token.slice(0, 6);
}

const STOPWORDS = new Set(
  ("a an and are as at be by for from has have in into is it its of on or other our such " +
    "that the their them these this those to using use used with within you your we will " +
    "may can all any each etc including include related various ensure provide new based " +
    "than then also more most per via").split(" ").filter((w) => w !== ""),
);

/** Distinct key-word stems of a phrase (stopwords and 1-2 letter words dropped). */
export function keyStems(text: string): string[] {
  const out = new Set<string>();
  for (const t of tokenize(text)) {
    if (t.length >= 3 && !STOPWORDS.has(t)) out.add(stem(t));
  }
  return [...out].sort();
}

/** Splits a chunk into sentences (lines, or . ! ? ; followed by a space) and indexes them. */
export function prepareText(text: string): PreparedText {
  const parts = text.normalize("NFKC").split(/\n+|(?<=[.!?;])\s+/);
  const out: PreparedText = {
    sentences: [],
    tokens: [],
    stems: [],
    raw: [],
    allTokens: new Set(),
    allStems: new Set(),
  };
  for (const part of parts) {
    const raw = part.match(TOKEN) ?? [];
    if (raw.length === 0) continue;
    const tokens = raw.map(normalizeToken);
    out.raw.push(raw);
    out.tokens.push(tokens);
    out.sentences.push(` ${tokens.join(" ")} `);
    out.stems.push(new Set(tokens.filter((t) => t.length >= 3).map(stem)));
    for (const t of tokens) out.allTokens.add(t);
    for (const t of out.stems.at(-1)!) out.allStems.add(t);
  }
  return out;
}

/** Whether a chunk contains the term (any phrase, whole tokens, no veto). */
export function matchesTerm(text: PreparedText, matcher: TermMatcher): boolean {
  if (matcher.caseSensitive !== undefined) {
    return text.raw.some((raw) => raw.some((t, i) => i > 0 && t === matcher.caseSensitive));
  }
  for (const phrase of matcher.phrases) {
    if (!phrase.every((t) => text.allTokens.has(t))) continue;
    const needle = ` ${phrase.join(" ")} `;
    for (const [s, sentence] of text.sentences.entries()) {
      let at = sentence.indexOf(needle);
      while (at >= 0) {
        const start = sentence.slice(0, at + 1).split(" ").length - 2;
        const before = text.tokens[s][start - 1];
        const after = text.tokens[s][start + phrase.length];
        const vetoed = (before !== undefined && matcher.notAfter?.includes(before)) ||
          (after !== undefined && matcher.notBefore?.includes(after));
        if (!vetoed) return true;
        at = sentence.indexOf(needle, at + 1);
      }
    }
  }
  return false;
}

/** Key words of a sentence needed to support a task or long focus area of n key words. */
export function keyWordThreshold(n: number): number {
  return n <= 3 ? n : Math.max(3, Math.ceil(n * 0.5));
}

/** Whether one sentence of the chunk holds enough of the key stems. */
export function matchesKeyWords(text: PreparedText, stems: string[], need: number): boolean {
  if (stems.length === 0) return false;
  if (stems.filter((s) => text.allStems.has(s)).length < need) return false;
  return text.stems.some((set) => stems.filter((s) => set.has(s)).length >= need);
}

/**
 * Aliases of the O*NET skills: the ways a posting says them. Everything else matches its own
 * name. Vetoes keep compounds out ("data science" is not the Science skill, "writing code" not
 * the Writing skill).
 */
const SKILL_ALIASES: Record<string, TermMatcher> = {
  "complex problem solving": {
    phrases: [["complex", "problem", "solving"], ["problem", "solving"]],
  },
  "judgment and decision making": {
    phrases: [["judgment", "and", "decision", "making"], ["decision", "making"]],
  },
  "mathematics": { phrases: [["mathematic"], ["math"], ["maths"]] },
  "science": {
    phrases: [["science"]],
    notAfter: ["data", "computer", "social", "political", "life", "library", "rocket"],
  },
  "writing": {
    phrases: [["writing"], ["written", "communication"]],
    notBefore: ["code", "sql", "software", "test", "script", "query", "program", "function"],
  },
  "speaking": { phrases: [["speaking"], ["public", "speaking"], ["verbal", "communication"]] },
  "programming": { phrases: [["programming"], ["coding"]] },
  "time management": { phrases: [["time", "management"], ["manage", "time"]] },
  "active listening": { phrases: [["active", "listening"], ["listening"]] },
  "monitoring": {
    phrases: [["monitoring"]],
    notBefore: ["tool", "dashboard", "system", "service", "alert", "stack"],
  },
};

const VENDORS = new Set([
  "adobe",
  "amazon",
  "apache",
  "apple",
  "atlassian",
  "autodesk",
  "google",
  "ibm",
  "microsoft",
  "oracle",
  "sap",
  "the",
  "mathwork",
]);

/** The matcher of an O*NET skill name. */
export function skillMatcher(name: string): TermMatcher {
  const key = name.toLowerCase();
  return Object.hasOwn(SKILL_ALIASES, key) ? SKILL_ALIASES[key] : { phrases: [tokenize(name)] };
}

/**
 * The matcher of an O*NET technology example: the name; the name without a trailing
 * "software"; a trailing acronym ("Structured query language SQL" -> SQL); the name without
 * its vendor ("Microsoft Excel" -> Excel, "Apache Spark" -> Spark). One- and two-letter names
 * (C, R, Go) match case-sensitively and never first in a sentence.
 */
export function technologyMatcher(name: string): TermMatcher {
  const raw = name.normalize("NFKC").match(TOKEN) ?? [];
  if (raw.length === 1 && raw[0].length <= 2) return { phrases: [], caseSensitive: raw[0] };
  const phrases = new Map<string, string[]>();
  const add = (tokens: string[]) => {
    const norm = tokens.map(normalizeToken);
    if (norm.length === 0 || (norm.length === 1 && norm[0].length <= 2)) return;
    phrases.set(norm.join(" "), norm);
  };
  add(raw);
  const base = raw.length > 1 && raw.at(-1)!.toLowerCase() === "software" ? raw.slice(0, -1) : raw;
  add(base);
  const last = base.at(-1) ?? "";
  if (base.length > 1 && /^[A-Z][A-Z0-9]+$/.test(last)) add([last]);
  let start = 0;
  while (start < base.length - 1 && VENDORS.has(normalizeToken(base[start]))) start++;
  if (start > 0) add(base.slice(start));
  return { phrases: [...phrases.values()].sort((a, b) => b.length - a.length) };
}

/** The matcher of an occupation title ("Data Scientists" matches "data scientist"). */
export function titleMatcher(title: string): TermMatcher {
  return { phrases: [tokenize(title)] };
}

/** Whether a focus area is the same words as a taxonomy term (then it is covered by it). */
export function sameWords(a: string, b: string): boolean {
  return tokenize(a).join(" ") === tokenize(b).join(" ");
}

/** Code-point order of two strings (locale-independent, for deterministic sorting). */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
