/**
 * Deterministic term extraction with character spans. Five term types:
 * - `technology`: every O*NET Technology Skills example (software) of the taxonomy, named by
 *   its O*NET example string. Surface forms: the example itself, the example without a
 *   trailing " software", its trailing upper-case acronym ("Structured query language SQL" ->
 *   "SQL"), and the curated aliases of dictionary/technology_aliases.json ("k8s" ->
 *   Kubernetes). Forms listed as blocked (ordinary words) never match case-insensitively;
 *   case-sensitive forms ("Go", "R") match only as written.
 * - `skill`, `knowledge`, `ability`, `work_activity`: the leaf content-model elements, named by
 *   their O*NET element name, matched through the curated phrases of
 *   dictionary/element_synonyms.json (element names rarely appear verbatim in postings).
 * Text is split into tokens (letters and digits, keeping "c++", "c#", "node.js", ".net"),
 * folded to lower case without accents; a phrase matches a run of whole tokens. Per type the
 * longest phrase wins and matches do not overlap. Spans are [start, end) offsets in UTF-16
 * code units of the field they were found in (title, plain-text description, or the skills
 * list joined with "\n").
 */
import { fileURLToPath } from "node:url";

/** The term types of the market artifact. */
export const TERM_TYPES = ["technology", "skill", "knowledge", "ability", "work_activity"] as const;
export type TermType = typeof TERM_TYPES[number];

/** One term of the dictionary. */
export interface Term {
  type: TermType;
  id: string;
  name: string;
}

/** One match of a term in a posting field. */
export interface Mention {
  type: TermType;
  term: number;
  field: "title" | "description" | "skills";
  start: number;
  end: number;
}

interface Phrase {
  tokens: string[];
  term: number;
  /** Index of the term's type in the matcher's type list. */
  type: number;
  /** Original-case tokens that must match exactly (case-sensitive forms). */
  exact: string[] | null;
}

/** Version of the extraction rules; recorded in the market manifest. */
export const EXTRACTOR_VERSION = "3";

const TOKEN = /\.?[\p{L}\p{N}]+(?:\.[\p{L}\p{N}]+)*[+#]*/gu;

/** Folds a token: lower case, accents removed. */
function fold(token: string): string {
  return /^[A-Za-z0-9.+#]*$/.test(token)
    ? token.toLowerCase()
    : token.normalize("NFKD").replace(/[\u0300-\u036f]/g, "").toLowerCase();
}

/** Tokens of a text with their offsets. */
export function tokenSpans(
  text: string,
): { token: string; raw: string; start: number; end: number; broken: boolean }[] {
  const out: { token: string; raw: string; start: number; end: number; broken: boolean }[] = [];
  let previousEnd = 0;
  TOKEN.lastIndex = 0;
  for (let m = TOKEN.exec(text); m !== null; m = TOKEN.exec(text)) {
    let raw = m[0];
    let start = m.index;
    // A leading dot belongs to the token only for names like ".NET" (not after a word).
    if (raw[0] === "." && (start > 0 && /[\p{L}\p{N}]/u.test(text[start - 1]))) {
      raw = raw.slice(1);
      start++;
    }
    // A phrase never runs across a sentence, clause or line break before this token.
    const broken = out.length > 0 && BREAK.test(text.slice(previousEnd, start));
    out.push({ token: fold(raw), raw, start, end: start + raw.length, broken });
    previousEnd = start + raw.length;
  }
  return out;
}

const BREAK = /[,.;:!?|()\n]/;
/** URLs and e-mail addresses: blanked before matching (a product name in a link is no mention). */
const LINKS = /\bhttps?:\/\/\S+|\bwww\.\S+|[\w.+-]+@[\w-]+(?:\.[\w-]+)+/gi;

/** Replaces every match of a pattern with spaces, keeping all other offsets. */
function blank(text: string, pattern: RegExp): string {
  pattern.lastIndex = 0;
  return pattern.test(text) ? text.replace(pattern, (m) => " ".repeat(m.length)) : text;
}

/** A dictionary compiled into per-type phrase tables. */
export class TermMatcher {
  readonly terms: Term[] = [];
  /** Phrases of every type by their first token, then by their second ("" for one token). */
  #index = new Map<string, Map<string, Phrase[]>>();
  #exclusions: RegExp | null = null;
  /** Term types in the order their first form was added. */
  #types: TermType[] = [];
  #termIndex = new Map<string, number>();

  /** Adds a term (idempotent by type and id); returns its index. */
  addTerm(type: TermType, id: string, name: string): number {
    const key = `${type}\u0000${id}`;
    let index = this.#termIndex.get(key);
    if (index === undefined) {
      index = this.terms.length;
      this.terms.push({ type, id, name });
      this.#termIndex.set(key, index);
    }
    return index;
  }

  /** Contexts (exact case) in which no term is matched, e.g. "R&D", "Go-to-market". */
  setExclusions(phrases: string[]): void {
    const escaped = phrases.filter((p) => p.trim() !== "")
      .sort((a, b) => b.length - a.length || (a < b ? -1 : 1))
      .map((p) => p.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
    this.#exclusions = escaped.length
      ? new RegExp(`(?<![\\p{L}\\p{N}])(?:${escaped.join("|")})(?![\\p{L}\\p{N}])`, "gu")
      : null;
  }

  /** Adds a surface form of a term; exact forms match only in their original case. */
  addForm(term: number, form: string, exact = false): void {
    const spans = tokenSpans(form);
    if (spans.length === 0) return;
    const type = this.terms[term].type;
    if (!this.#types.includes(type)) this.#types.push(type);
    const phrase: Phrase = {
      tokens: spans.map((s) => s.token),
      term,
      type: this.#types.indexOf(type),
      exact: exact ? spans.map((s) => s.raw) : null,
    };
    let byNext = this.#index.get(phrase.tokens[0]);
    if (!byNext) this.#index.set(phrase.tokens[0], byNext = new Map());
    const second = phrase.tokens[1] ?? "";
    const list = byNext.get(second) ?? [];
    if (
      list.some((p) =>
        p.term === term && p.tokens.join(" ") === phrase.tokens.join(" ") &&
        (p.exact?.join(" ") ?? null) === (phrase.exact?.join(" ") ?? null)
      )
    ) return;
    list.push(phrase);
    // Longest first; then by term index so ties are deterministic.
    list.sort((a, b) => b.tokens.length - a.tokens.length || a.term - b.term);
    byNext.set(second, list);
  }

  /**
   * Finds the mentions of every type in one field's text, in one pass over the tokens: per
   * type, the longest phrase starting at a token wins and the next match of that type starts
   * after it (the same as scanning each type on its own). Mentions come out by type (in the
   * order types were added), then by position.
   */
  match(text: string, field: Mention["field"], out: Mention[]): void {
    if (text === "") return;
    let masked = blank(text, LINKS);
    if (this.#exclusions) masked = blank(masked, this.#exclusions);
    const tokens = tokenSpans(masked);
    const types = this.#types.length;
    const nextFree = new Array<number>(types).fill(0);
    const found: Mention[][] = Array.from({ length: types }, () => []);
    const none: Phrase[] = [];
    for (let i = 0; i < tokens.length; i++) {
      const byNext = this.#index.get(tokens[i].token);
      if (!byNext) continue;
      // Longer phrases (sharing the next token) before one-token ones: longest still wins.
      const longer = i + 1 < tokens.length ? byNext.get(tokens[i + 1].token) ?? none : none;
      const single = byNext.get("") ?? none;
      let done = 0; // bit per type already matched at this token
      for (const phrase of longer.length === 0 ? single : [...longer, ...single]) {
        const bit = 1 << phrase.type;
        if (done & bit || i < nextFree[phrase.type]) continue;
        const n = phrase.tokens.length;
        if (i + n > tokens.length) continue;
        let ok = true;
        for (let k = 1; k < n && ok; k++) {
          ok = tokens[i + k].token === phrase.tokens[k] && !tokens[i + k].broken;
        }
        if (ok && phrase.exact) {
          for (let k = 0; k < n && ok; k++) ok = tokens[i + k].raw === phrase.exact[k];
          // A single letter joined to another word by "&" or "-" is not the language ("R&D").
          if (ok && n === 1 && phrase.exact[0].length === 1) {
            const before = masked[tokens[i].start - 1];
            const after = masked[tokens[i].end];
            ok = before !== "&" && before !== "-" && after !== "&" && after !== "-";
          }
        }
        if (!ok) continue;
        done |= bit;
        nextFree[phrase.type] = i + n;
        found[phrase.type].push({
          type: this.#types[phrase.type],
          term: phrase.term,
          field,
          start: tokens[i].start,
          end: tokens[i + n - 1].end,
        });
      }
    }
    for (const list of found) for (const mention of list) out.push(mention);
  }
}

/** The curated alias file (dictionary/technology_aliases.json). */
export interface TechnologyAliases {
  version: string;
  aliases: Record<string, string[]>;
  case_sensitive: Record<string, string[]>;
  /** Exact-case contexts in which nothing matches ("R&D", "C-suite", "Go-to-market"). */
  case_sensitive_exclusions?: string[];
  blocked_forms: string[];
}

/** The curated element phrase file (dictionary/element_synonyms.json). */
export interface ElementSynonyms {
  version: string;
  elements: Record<string, { name: string; domain: TermType; phrases: string[] }>;
}

const DICTIONARY_DIR = new URL("./dictionary/", import.meta.url);

/** Reads the curated dictionary files shipped with the build. */
export async function readCuratedDictionary(): Promise<
  { aliases: TechnologyAliases; synonyms: ElementSynonyms; files: Record<string, string> }
> {
  const aliasText = await Deno.readTextFile(new URL("technology_aliases.json", DICTIONARY_DIR));
  const synonymText = await Deno.readTextFile(new URL("element_synonyms.json", DICTIONARY_DIR));
  return {
    aliases: JSON.parse(aliasText),
    synonyms: JSON.parse(synonymText),
    files: {
      [fileURLToPath(new URL("technology_aliases.json", DICTIONARY_DIR))]: aliasText,
      [fileURLToPath(new URL("element_synonyms.json", DICTIONARY_DIR))]: synonymText,
    },
  };
}

/** The automatic surface forms of an O*NET technology example. */
export function technologyForms(example: string): string[] {
  const forms = [example];
  const bare = example.replace(/\s+software$/i, "").trim();
  if (bare !== example && bare !== "") forms.push(bare);
  const words = bare.split(/\s+/);
  const last = words[words.length - 1];
  if (words.length > 1 && /^[A-Z][A-Z0-9]{1,}$/.test(last)) forms.push(last);
  return forms;
}

/**
 * Compiles the matcher from the taxonomy's technologies and leaf elements plus the curated
 * files. `elements` are [element_id, element_name, domain] of leaf elements.
 */
export function compileMatcher(
  technologies: string[],
  elements: [string, string, TermType][],
  curated: { aliases: TechnologyAliases; synonyms: ElementSynonyms },
): TermMatcher {
  const matcher = new TermMatcher();
  const blocked = new Set(
    curated.aliases.blocked_forms.map((f) => tokenSpans(f).map((t) => t.token).join(" ")),
  );
  const known = new Set(technologies);
  for (const example of [...technologies].sort()) {
    const term = matcher.addTerm("technology", example, example);
    for (const form of technologyForms(example)) {
      const key = tokenSpans(form).map((t) => t.token).join(" ");
      if (blocked.has(key)) continue;
      // Two-character acronyms and single letters only match as written ("R", "Go", "UX").
      const exact = form.replace(/[^\p{L}\p{N}]/gu, "").length <= 2;
      matcher.addForm(term, form, exact);
    }
  }
  for (const [example, aliases] of Object.entries(curated.aliases.aliases)) {
    if (!known.has(example)) continue; // an alias of a product this release does not list
    const term = matcher.addTerm("technology", example, example);
    for (const alias of aliases) matcher.addForm(term, alias);
  }
  matcher.setExclusions(curated.aliases.case_sensitive_exclusions ?? []);
  for (const [example, forms] of Object.entries(curated.aliases.case_sensitive ?? {})) {
    if (!known.has(example)) continue;
    const term = matcher.addTerm("technology", example, example);
    for (const form of forms) matcher.addForm(term, form, true);
  }
  const leaves = new Map(elements.map(([id, name, domain]) => [id, { name, domain }]));
  // A phrase that is evidence for a skill counts for the skill only, not also for an ability
  // ("communication skills" is Speaking, not also Oral Expression): the same convention as the
  // hand-labelled set (fixtures/market/LABELLING.md).
  const key = (phrase: string) => tokenSpans(phrase).map((t) => t.token).join(" ");
  const skillPhrases = new Set<string>();
  for (const [id, { domain }] of leaves) {
    if (domain !== "skill") continue;
    for (const phrase of curated.synonyms.elements[id]?.phrases ?? []) {
      skillPhrases.add(key(phrase));
    }
  }
  for (const [id, { name, domain }] of [...leaves].sort((a, b) => a[0] < b[0] ? -1 : 1)) {
    const term = matcher.addTerm(domain, id, name);
    for (const phrase of curated.synonyms.elements[id]?.phrases ?? []) {
      if (domain === "ability" && skillPhrases.has(key(phrase))) continue;
      matcher.addForm(term, phrase);
    }
  }
  return matcher;
}

/** Extracts the mentions of a posting's title, description and skills list. */
export function extractMentions(
  matcher: TermMatcher,
  title: string,
  description: string,
  skills: string[],
): Mention[] {
  const out: Mention[] = [];
  matcher.match(title, "title", out);
  const fromDescription: Mention[] = [];
  matcher.match(description, "description", fromDescription);
  for (const mention of fromDescription) {
    if (mention.type !== "knowledge" || asksFor(description, mention)) out.push(mention);
  }
  if (skills.length > 0) matcher.match(skills.join("\n"), "skills", out);
  return out;
}

/** Words that make a sentence a requirement or a description of the work. */
const REQUIREMENT =
  /\b(?:knowledge|know|experience[ds]?|background|degree|understand\w*|familiar\w*|expert\w*|proficien\w*|skills?|skilled|train\w*|certif\w*|qualif\w*|requir\w*|must|prefer\w*|ability|able|fluen\w*|bachelor\w*|master\w*|phd|cours\w*|stud\w*|apply|applying|use|using|work with|you will|you'll|responsib\w*|duties|role)\b/i;

/**
 * Whether the sentence around a knowledge mention asks for it or describes the work with it.
 * A domain named only as the employer's line of business ("we are a leading semiconductor
 * company") is no evidence that the job requires that knowledge.
 */
function asksFor(text: string, mention: Mention): boolean {
  // The sentence: back to the previous ". ", "!", "?" or line break, and on to the next one.
  let start = mention.start;
  while (start > 0 && !/[\n!?]/.test(text[start - 1]) && text.slice(start - 2, start) !== ". ") {
    start--;
  }
  let end = mention.end;
  while (
    end < text.length && !/[\n!?]/.test(text[end]) &&
    !(text[end] === "." && /\s/.test(text[end + 1] ?? " "))
  ) end++;
  return REQUIREMENT.test(text.slice(start, end));
}
