/**
 * Labelled development sets from the O*NET release itself. Alternate, short and reported titles
 * are split into folds by their normalised form, so a held-out title is absent from the index in
 * every occupation (no label leaks); folds are assigned round-robin inside the occupation that
 * first lists the form, which stratifies them by occupation. Each held-out title is scored as
 * written and as a posting would write it (levels, ids, locations, shifts, upper case,
 * abbreviations). Used by the build (calibration fit) and by `deno task bench:quality`.
 */
import { normalizeTitle } from "../../text/normalize.ts";
import { type IndexOccupation, type IndexTitle, isCatalogSource } from "./index.ts";
import { roleHead, twoForms } from "./text.ts";
import { roleMaps } from "./roles.ts";
import { parseCsvText } from "../../../build/market/csv.ts";

/** Number of folds. */
export const FOLDS = 5;
/** The fold the build calibrates on; the quality bench scores another one. */
export const CALIBRATION_FOLD = 0;
/**
 * The fold the build fits the ranker fusion on: another than the calibration's, so the
 * calibration sees the fused ranker on titles it was not fitted on (fitted on the same fold, the
 * confidence came out about 1.5 points too high on held-out titles).
 */
export const FUSION_FOLD = 4;
/**
 * A second fold the reranker (engine/rerank.ts) is fitted on beside FUSION_FOLD: neither the
 * calibration's nor the quality bench's (2) nor the untouched check fold (3). With it the trees
 * gained about twice as much on every dev subset as on FUSION_FOLD alone (notes/issue15.md,
 * section 53).
 */
export const RERANK_FOLD = 1;

/** One labelled query. */
export interface DevExample {
  query: string;
  /** A job description sent with the title ("described" examples only). */
  description?: string;
  variant: "onet" | "posting" | "described" | "inverted" | "hierarchy" | "employer";
  /** Every occupation that lists this title (normalised): each is a right answer. */
  accept: string[];
  /**
   * Catalog-style: a title O*NET took from the Census Alphabetical Index or the BLS Direct
   * Match Title File (alternate-title sources 06 and 04), or a variant written from one.
   */
  catalog?: boolean;
  /** Employer-style examples: "seasonal", "visa" or "general" (fixtures/occupation-dev). */
  style?: string;
}

/** 32-bit FNV-1a: a stable hash for deterministic choices. */
export function fnv1a(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/** Fold of every normalised non-primary title form. */
export function assignFolds(titles: IndexTitle[], folds = FOLDS): Map<string, number> {
  const firstOwner = new Map<string, string>();
  for (const t of [...titles].sort((a, b) => a.onetCode < b.onetCode ? -1 : 1)) {
    if (t.kind === "primary") continue;
    const norm = normalizeTitle(t.title);
    if (norm && !firstOwner.has(norm)) firstOwner.set(norm, t.onetCode);
  }
  const byOwner = new Map<string, string[]>();
  for (const [norm, owner] of firstOwner) {
    const list = byOwner.get(owner) ?? [];
    list.push(norm);
    byOwner.set(owner, list);
  }
  const fold = new Map<string, number>();
  for (const [owner, norms] of [...byOwner].sort((a, b) => a[0] < b[0] ? -1 : 1)) {
    norms.sort((a, b) => fnv1a(a) - fnv1a(b) || (a < b ? -1 : 1));
    const offset = fnv1a(owner) % folds;
    norms.forEach((norm, i) => fold.set(norm, (i + offset) % folds));
  }
  return fold;
}

/** A title's normalised forms: both of one written two ways (text.ts twoForms), else itself. */
function formsOf(title: string): string[] {
  return (twoForms(title) ?? [title]).map(normalizeTitle);
}

/** The titles to index and the labelled queries for one held-out fold. */
export function splitFold(
  titles: IndexTitle[],
  fold: number,
  options: { folds?: number; postingVariants?: boolean } = {},
): { index: IndexTitle[]; examples: DevExample[] } {
  const folds = assignFolds(titles, options.folds ?? FOLDS);
  const primaryNorms = new Set(
    titles.filter((t) => t.kind === "primary").map((t) => normalizeTitle(t.title)),
  );
  const kept: IndexTitle[] = [];
  const held = new Map<string, { title: string; accept: Set<string>; catalog: boolean }>();
  for (const t of titles) {
    const norm = normalizeTitle(t.title);
    // A form that is some occupation's primary title stays: primary titles are never held out.
    if (t.kind !== "primary" && !primaryNorms.has(norm) && folds.get(norm) === fold) {
      const entry = held.get(norm) ??
        { title: t.title, accept: new Set<string>(), catalog: false };
      entry.accept.add(t.onetCode);
      if (isCatalogSource(t.source)) entry.catalog = true;
      held.set(norm, entry);
    } else {
      kept.push(t);
    }
  }
  // The index holds a title written two ways as two titles (OccupationIndex), and ranks such a
  // query as each form: no title with a form of a held-out title may stay, or "AB Watchman" would
  // be found as a form of "Able Bodied Watchman (AB Watchman)".
  const heldForms = new Set([...held.values()].flatMap(({ title }) => formsOf(title)));
  const index = kept.filter((t) =>
    t.kind === "primary" || !formsOf(t.title).some((form) => heldForms.has(form))
  );
  const examples: DevExample[] = [];
  for (
    const [norm, { title, accept, catalog }] of [...held].sort((a, b) => a[0] < b[0] ? -1 : 1)
  ) {
    const codes = [...accept].sort();
    examples.push({
      query: title,
      variant: "onet",
      accept: codes,
      ...(catalog ? { catalog } : {}),
    });
    if (options.postingVariants !== false) {
      examples.push({
        query: postingVariant(title, fnv1a(norm)),
        variant: "posting",
        accept: codes,
      });
    }
  }
  return { index, examples };
}

/**
 * Posting-style examples with a description: the occupation's task statements of the held-out
 * fold (up to three, removed from the index) stand in for the duties a posting lists. Returns the
 * occupations without those tasks and one such example per posting-variant example whose first
 * occupation has a held-out task.
 */
export function describedExamples(
  occupations: IndexOccupation[],
  examples: DevExample[],
  fold: number,
  folds = FOLDS,
): { occupations: IndexOccupation[]; examples: DevExample[] } {
  const heldTasks = new Map<string, string[]>();
  const kept = occupations.map((o) => {
    const tasks: string[] = [];
    const held: string[] = [];
    for (const task of o.tasks) {
      (fnv1a(`${o.onetCode} ${task}`) % folds === fold ? held : tasks).push(task);
    }
    heldTasks.set(o.onetCode, held);
    return { ...o, tasks };
  });
  const described: DevExample[] = [];
  for (const example of examples) {
    if (example.variant !== "posting") continue;
    const tasks = [...heldTasks.get(example.accept[0]) ?? []]
      .sort((a, b) => fnv1a(example.query + a) - fnv1a(example.query + b))
      .slice(0, 3);
    if (tasks.length === 0) continue;
    described.push({ ...example, variant: "described", description: tasks.join(" ") });
  }
  return { occupations: kept, examples: described };
}

const ABBREVIATE: [RegExp, string][] = [
  [/\bregistered nurse\b/i, "RN"],
  [/\blicensed practical nurse\b/i, "LPN"],
  [/\bcertified nursing assistant\b/i, "CNA"],
  [/\btruck driver\b/i, "CDL Driver"],
  [/\bsoftware engineer\b/i, "SWE"],
  [/\bmanager\b/i, "Mgr"],
  [/\bassistant\b/i, "Asst"],
  [/\btechnician\b/i, "Tech"],
  [/\bengineer\b/i, "Eng"],
  [/\brepresentative\b/i, "Rep"],
  [/\badministrative\b/i, "Admin"],
  [/\badministrator\b/i, "Admin"],
  [/\bcoordinator\b/i, "Coord"],
  [/\bspecialist\b/i, "Spec"],
  [/\bdeveloper\b/i, "Dev"],
  [/\bdirector\b/i, "Dir"],
  [/\bsenior\b/i, "Sr."],
];

const LEVELS = ["Sr. ", "Senior ", "Jr. ", "", ""];
const SUFFIX_LEVELS = [" II", " III", " I", " - Level 2", ""];
const NOISE = [
  (h: number) => ` (Req #${10000 + (h % 89999)})`,
  () => " - Austin, TX",
  () => ", Chicago, IL",
  () => " | Remote",
  () => " - Night Shift",
  () => " (Full-Time)",
  (h: number) => ` - Job ID ${20000 + (h % 79999)}`,
  () => " - PRN",
];

/** A title as a job posting might write it; deterministic in (title, seed). */
export function postingVariant(title: string, seed: number): string {
  let text = title;
  for (const [pattern, short] of ABBREVIATE) {
    if (pattern.test(text) && (seed >>> 3) % 2 === 0) {
      text = text.replace(pattern, short);
      break;
    }
  }
  text = LEVELS[seed % LEVELS.length] + text + SUFFIX_LEVELS[(seed >>> 5) % SUFFIX_LEVELS.length];
  text += NOISE[(seed >>> 8) % NOISE.length](seed);
  if ((seed >>> 12) % 3 === 0) text = text.toUpperCase();
  return text;
}

/** Worker nouns a catalog writes after the role word or leaves out ("Supervisor, bottling"). */
const GENERIC_HEADS = new Set([
  "worker",
  "operator",
  "tender",
  "laborer",
  "hand",
  "attendant",
  "helper",
  "assistant",
]);

/**
 * Catalog-style variants of held-out catalog titles, each with its label from the SOC structure
 * (engine/roles.ts):
 * - inverted: the role word first, as a coding index writes it ("Operator, Bottling Machine");
 * - hierarchy: a supervisor, foreman, helper or apprentice of the title's domain, labelled with
 *   the first-line supervisor or helper occupation of the title's occupation (apprentices stay in
 *   it), in either word order and sometimes without the comma ("Supervisor Bakery");
 * - exclusion: "..., exc supervising" on a worker title, which stays with the worker.
 * Titles held by several occupations take the structure of every one (all are right answers).
 * Deterministic in the titles.
 */
export function catalogVariants(
  occupations: IndexOccupation[],
  titles: IndexTitle[],
  held: DevExample[],
): DevExample[] {
  const maps = roleMaps(occupations, titles);
  const out: DevExample[] = [];
  const seen = new Set<string>();
  const push = (query: string, variant: DevExample["variant"], accept: string[]) => {
    const norm = normalizeTitle(query);
    if (!norm || seen.has(`${variant} ${norm}`) || accept.length === 0) return;
    seen.add(`${variant} ${norm}`);
    out.push({ query, variant, accept: [...new Set(accept)].sort(), catalog: true });
  };
  for (const example of held) {
    if (example.variant !== "onet" || !example.catalog) continue;
    // A title written two ways ("Air Quality Tech (Air Quality Technician)") is varied in its
    // first form: a coding index has one ("Tech, Air Quality"), and splitting at the brackets'
    // words made "Technician), Air Quality Tech (Air Quality".
    const written = example.query.trim();
    const title = written.replace(/\s*\([^()]*\)$/, "").trim() || written;
    const words = title.split(/\s+/);
    const h = fnv1a(written);
    const workers = example.accept.filter((c) => maps.classOf.get(c) === "worker");
    const head = roleHead(title);
    const last = words[words.length - 1];
    // Inverted: "Bottling Machine Operator" -> "Operator, Bottling Machine".
    if (words.length >= 2 && normalizeTitle(last) === head && h % 2 === 0) {
      push(`${last}, ${words.slice(0, -1).join(" ")}`, "inverted", example.accept);
    }
    if (workers.length === 0 || workers.length !== example.accept.length) continue;
    const domainWords = GENERIC_HEADS.has(normalizeTitle(last)) && words.length >= 2
      ? words.slice(0, -1)
      : words;
    const domain = domainWords.join(" ");
    const pick = (h >>> 4) % 6;
    const sup = workers.map((c) => maps.supervisorOf.get(c)).filter((c): c is string => !!c);
    const help = workers.map((c) => maps.helperOf.get(c)).filter((c): c is string => !!c);
    if (pick <= 1 && sup.length === workers.length) {
      const word = (h >>> 8) % 3 === 0 ? "Foreman" : "Supervisor";
      const forms = [`${word}, ${domain}`, `${domain} ${word}`, `${word} ${domain}`];
      push(forms[(h >>> 10) % 3], "hierarchy", sup);
    } else if (pick === 2 && help.length === workers.length) {
      const forms = [`Helper, ${domain}`, `${domain} Helper`];
      push(forms[(h >>> 10) % 2], "hierarchy", help);
    } else if (pick === 3) {
      const forms = [`Apprentice, ${title}`, `Apprentice ${title}`, `${title} Apprentice`];
      push(forms[(h >>> 10) % 3], "hierarchy", example.accept);
    } else if (pick === 4 && sup.length > 0) {
      push(`${title}, exc supervising`, "hierarchy", example.accept);
    }
  }
  return out;
}

/** One hand-labelled employer-style title (fixtures/occupation-dev/employer_titles.csv). */
export interface EmployerTitle {
  title: string;
  soc: string;
  style: string;
  note: string;
}

/** Parses the employer-style fixture (header: title,soc_code,style,note). */
export function parseEmployerTitles(text: string): EmployerTitle[] {
  const [header, ...rows] = parseCsvText(text);
  const at = (name: string) => {
    const i = header.indexOf(name);
    if (i < 0) throw new Error(`employer titles: no ${name} column`);
    return i;
  };
  const [title, soc, style, note] = ["title", "soc_code", "style", "note"].map(at);
  return rows.filter((r) => r.length > 1).map((r, n) => {
    if (!/^\d{2}-\d{4}$/.test(r[soc])) {
      throw new Error(`employer titles line ${n + 2}: soc_code ${r[soc]} is not NN-NNNN`);
    }
    return { title: r[title], soc: r[soc], style: r[style], note: r[note] ?? "" };
  });
}

/** The fixture file of hand-labelled employer-style titles. */
export const EMPLOYER_TITLES = new URL(
  "../../../fixtures/occupation-dev/employer_titles.csv",
  import.meta.url,
);

/** The numbered rounds read so far (the first round's files carry no number). */
const READ_NUMBERED_ROUNDS = [2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17];

/**
 * The rounds of titles written blind (fixtures/occupation-dev/blind_<name>_titles.csv, header
 * title,soc_code,note) whose misses have been read: they are employer-style dev data like
 * EMPLOYER_TITLES, a style each (catalog, seasonal, visa), half fitted on and half scored. A round
 * joins when it has been read; the unread ones (UNREAD_BLIND_ROUNDS) stay out of every fit.
 */
export const READ_BLIND_ROUNDS = [
  "catalog",
  "catalog_hard",
  "seasonal",
  "visa",
  ...READ_NUMBERED_ROUNDS.flatMap((n) => [`catalog_${n}`, `seasonal_${n}`, `visa_${n}`]),
] as const;

/**
 * The rounds written blind whose misses nobody has read: the quality bench scores them (as an
 * estimate of the hidden sets), nothing is fitted on them, and their misses are not printed. When
 * they have been read they move to READ_BLIND_ROUNDS, and a new round is written.
 */
export const UNREAD_BLIND_ROUNDS = ["catalog_18", "seasonal_18", "visa_18"] as const;

/** A blind round's fixture file. */
export function blindRoundUrl(name: string): URL {
  return new URL(`../../../fixtures/occupation-dev/blind_${name}_titles.csv`, import.meta.url);
}

/** Parses a blind round (header: title,soc_code,note); its style is given. */
export function parseBlindTitles(text: string, style: string): EmployerTitle[] {
  const [header, ...rows] = parseCsvText(text);
  const [title, soc, note] = ["title", "soc_code", "note"].map((name) => {
    const i = header.indexOf(name);
    if (i < 0) throw new Error(`blind titles: no ${name} column`);
    return i;
  });
  return rows.filter((r) => r.length > 1 && r[title]).map((r, n) => {
    if (!/^\d{2}-\d{4}$/.test(r[soc])) {
      throw new Error(`blind titles line ${n + 2}: soc_code ${r[soc]} is not NN-NNNN`);
    }
    return { title: r[title], soc: r[soc], style, note: r[note] ?? "" };
  });
}

/**
 * Every hand-labelled employer-style title: EMPLOYER_TITLES (styles seasonal, visa, general) and
 * the read blind rounds (READ_BLIND_ROUNDS; styles catalog, seasonal, visa).
 */
export async function readEmployerTitles(): Promise<EmployerTitle[]> {
  const rows = parseEmployerTitles(await Deno.readTextFile(EMPLOYER_TITLES));
  for (const name of READ_BLIND_ROUNDS) {
    const text = await Deno.readTextFile(blindRoundUrl(name));
    rows.push(...parseBlindTitles(text, name.split("_")[0]));
  }
  return rows;
}

/**
 * Employer-style examples: each hand-labelled title accepts every O*NET-SOC code of its SOC
 * 6-digit code in the taxonomy (the labels are 6-digit). half 0 or 1 keeps one half (split by a
 * hash of the normalised title: the build calibrates on half 0, the bench scores half 1); null
 * keeps both. Titles whose SOC code the taxonomy lacks are skipped.
 */
export function employerExamples(
  rows: EmployerTitle[],
  onetCodes: string[],
  half: 0 | 1 | null = null,
): DevExample[] {
  const bySoc = new Map<string, string[]>();
  for (const code of [...onetCodes].sort()) {
    const list = bySoc.get(code.slice(0, 7)) ?? [];
    list.push(code);
    bySoc.set(code.slice(0, 7), list);
  }
  const out: DevExample[] = [];
  for (const row of rows) {
    const accept = bySoc.get(row.soc);
    if (!accept) continue;
    if (half !== null && fnv1a(normalizeTitle(row.title)) % 2 !== half) continue;
    out.push({ query: row.title, variant: "employer", accept, style: row.style });
  }
  return out;
}
