/**
 * Roles from the SOC structure: which occupations are first-line supervisors and helpers, which
 * supervisor and helper occupation belongs to each worker occupation, and the role a title's
 * hierarchy words give it. Everything is derived from the taxonomy's own codes and titles (no
 * hand-listed pairs), so a new release brings its own structure.
 *
 * - Supervisors: codes XX-1YYY whose primary title names supervisors ("First-Line Supervisors
 *   of ...", "Aircraft Cargo Handling Supervisors"), in major groups 33-53.
 * - Helpers: primary titles beginning "Helpers" ("Helpers--Roofers", "Helpers, Construction
 *   Trades, All Other").
 * - A worker's supervisor (or helper) is the one of its major group whose titles' domain words
 *   (all its titles' words but the hierarchy's) the worker's titles share most (idf-weighted:
 *   "Forklift Supervisor" takes the industrial truck operators to the supervisors of
 *   material-moving machine and vehicle operators); when none shares a word, a helper is the
 *   major group's catch-all helper and a supervisor the one its minor group's occupations vote
 *   for (else the catch-all); when there is a single one in the major group, that one.
 */
import { indexTerms } from "../../text/normalize.ts";

/** The role a title's hierarchy words give it. */
export type Role = "supervisor" | "helper" | "apprentice" | "lead" | "manager" | "worker";

/** Role classes of occupations (from their primary title and code). */
export const ROLE_CLASSES = ["worker", "supervisor", "helper", "manager"] as const;
export type RoleClass = typeof ROLE_CLASSES[number];

/** Hierarchy words and the role each gives a title, wherever it stands. */
export const ROLE_WORDS: Readonly<Record<string, Role>> = {
  supervisor: "supervisor",
  supervisors: "supervisor",
  supv: "supervisor",
  supvr: "supervisor",
  foreman: "supervisor",
  forewoman: "supervisor",
  foremen: "supervisor",
  foreperson: "supervisor",
  helper: "helper",
  helpers: "helper",
  apprentice: "apprentice",
  apprentices: "apprentice",
  lead: "lead",
  leadman: "lead",
  leader: "lead",
  leaders: "lead",
  manager: "manager",
  managers: "manager",
  // An employer's director is a manager of the function ("Director of Finance", "Tax Director");
  // O*NET's own director titles ("Art Director", "Funeral Director") still match as titles.
  director: "manager",
  directors: "manager",
  mgr: "manager",
};

/**
 * Words that, after "crew", name the one who runs it ("Crew Boss"). Not "chief": O*NET's crew
 * chiefs are aircrew ("Tiltrotor Crew Chief", Air Crew Members) as often as supervisors.
 */
const CREW_HEADS = new Set(["boss"]);

/**
 * Index terms of supervisor and helper titles that name the role or a place in a hierarchy, not
 * the domain ("First-Line Supervisors of ...", "Crane Crew Supervisor", "Ramp Boss").
 */
const ROLE_TITLE_WORDS = new Set(
  [
    ...Object.keys(ROLE_WORDS),
    "first",
    "line",
    "worker",
    "all",
    "other",
    "except",
    "operator",
    "boss",
    "chief",
    "head",
    "crew",
    "superintendent",
    "coordinator",
    "of",
    "and",
  ].flatMap((w) => indexTerms(w)),
);

interface OccupationLike {
  onetCode: string;
  title: string;
}

interface TitleLike {
  onetCode: string;
  title: string;
}

/** The role class of an occupation from its code and primary title. */
export function roleClass(onetCode: string, title: string): RoleClass {
  const major = Number(onetCode.slice(0, 2));
  if (/^helpers\b/i.test(title)) return "helper";
  if (major >= 33 && onetCode[3] === "1" && /supervisors?\b/i.test(title)) return "supervisor";
  if (major === 11 || /\bmanagers\b/i.test(title)) return "manager";
  return "worker";
}

/** Supervisor and helper occupation (by O*NET code) of every occupation that has one. */
export interface RoleMaps {
  classOf: Map<string, RoleClass>;
  supervisorOf: Map<string, string>;
  helperOf: Map<string, string>;
}

/** Derives the role maps of a taxonomy from its occupations and titles. */
export function roleMaps(occupations: OccupationLike[], titles: TitleLike[]): RoleMaps {
  const steps = roleMapsInSlices(occupations, titles);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/**
 * {@linkcode roleMaps} as a generator that yields every 1,024 titles and between its passes, so
 * that OccupationIndex.buildAsync can pause there (all at once, the 73,000 titles of the full
 * release took 70-90 ms); its return value is the maps.
 */
export function* roleMapsInSlices(
  occupations: OccupationLike[],
  titles: TitleLike[],
): Generator<void, RoleMaps, void> {
  const classOf = new Map<string, RoleClass>();
  for (const o of occupations) classOf.set(o.onetCode, roleClass(o.onetCode, o.title));
  // Document frequency of title words over occupations, for idf weights.
  const wordsOf = new Map<string, Set<string>>();
  for (const o of occupations) wordsOf.set(o.onetCode, new Set(indexTerms(o.title)));
  for (let i = 0; i < titles.length; i++) {
    const set = wordsOf.get(titles[i].onetCode);
    if (set) { for (const w of indexTerms(titles[i].title)) set.add(w); }
    if (i % 1024 === 1023) yield;
  }
  const df = new Map<string, number>();
  for (const set of wordsOf.values()) for (const w of set) df.set(w, (df.get(w) ?? 0) + 1);
  const n = occupations.length;
  const idf = (w: string) => Math.log((n + 1) / ((df.get(w) ?? 0) + 0.5));
  // A supervisor's (helper's) domain: the words of all its titles but the role's ("Forklift
  // Supervisor", "Bus Driver Supervisor" and "Crane Crew Supervisor" are titles of the
  // supervisors of material-moving machine and vehicle operators).
  const domainWords = (code: string) =>
    [...wordsOf.get(code)!].filter((w) => !ROLE_TITLE_WORDS.has(w));
  const assign = (kind: RoleClass): Map<string, string> => {
    const heads = occupations.filter((o) => classOf.get(o.onetCode) === kind)
      .map((o) => ({
        code: o.onetCode,
        words: domainWords(o.onetCode),
        catchAll: /all other/i.test(o.title),
      }));
    const out = new Map<string, string>();
    const overlap = (code: string, words: string[]) => {
      const mine = wordsOf.get(code)!;
      let s = 0;
      for (const w of words) if (mine.has(w)) s += idf(w);
      return s;
    };
    const workers = occupations.filter((o) => classOf.get(o.onetCode) === "worker");
    const pending: string[] = [];
    for (const o of workers) {
      const major = o.onetCode.slice(0, 2);
      const mine = heads.filter((h) => h.code.slice(0, 2) === major);
      if (mine.length === 0) continue;
      if (mine.length === 1) {
        out.set(o.onetCode, mine[0].code);
        continue;
      }
      let best: string | null = null;
      let bestScore = 0;
      let tie = false;
      for (const h of mine) {
        const s = overlap(o.onetCode, h.words);
        if (s > bestScore + 1e-9) [best, bestScore, tie] = [h.code, s, false];
        else if (s > 0 && Math.abs(s - bestScore) <= 1e-9) tie = true;
      }
      if (best && !tie) out.set(o.onetCode, best);
      else pending.push(o.onetCode);
    }
    // The rest: helpers go to the major group's catch-all ("Helpers, Construction Trades, All
    // Other"); supervisors to their minor group's vote (37-2xxx cleaners to housekeeping), else the
    // catch-all.
    for (const code of pending) {
      const catchAll = heads.find((h) => h.catchAll && h.code.slice(0, 2) === code.slice(0, 2));
      if (kind === "helper" && catchAll) {
        out.set(code, catchAll.code);
        continue;
      }
      const minor = code.slice(0, 4);
      const votes = new Map<string, number>();
      for (const [worker, head] of out) {
        if (worker.slice(0, 4) === minor) votes.set(head, (votes.get(head) ?? 0) + 1);
      }
      const ranked = [...votes].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
      if (ranked.length > 0 && (ranked.length === 1 || ranked[0][1] > ranked[1][1])) {
        out.set(code, ranked[0][0]);
        continue;
      }
      if (catchAll) out.set(code, catchAll.code);
    }
    return out;
  };
  const supervisorOf = assign("supervisor");
  yield;
  return { classOf, supervisorOf, helperOf: assign("helper") };
}

/** A title's hierarchy role and the title without its hierarchy and exclusion words. */
export interface ParsedRole {
  role: Role;
  /** The domain: the title's words other than its role word, in catalog order restored. */
  domain: string;
  /** The title in natural order ("operator, bottling machine" → "bottling machine operator"). */
  natural: string;
}

/** The word that opens an exclusion clause ("exc supervising", "except retail"), as a source. */
export const EXCLUSION_WORD = String.raw`\b(?:exc|except|excluding|excl)\b`;

/** An exclusion clause to the end of the text, with the comma before it. */
const EXCLUSION_TO_END = new RegExp(String.raw`\s*,?\s*${EXCLUSION_WORD}\.?.*$`);

/**
 * Reads a folded title as structure: drops an exclusion clause ("..., exc supervising"),
 * restores catalog inversion ("operator, bottling machine" → "bottling machine operator";
 * "supervisor bakery" → "bakery supervisor") and finds the hierarchy word wherever it stands.
 */
export function parseRole(text: string): ParsedRole {
  let t = text.replace(EXCLUSION_TO_END, "").trim();
  const comma = t.indexOf(",");
  if (comma > 0) {
    const head = t.slice(0, comma).trim();
    const rest = t.slice(comma + 1).replace(/,/g, " ").trim();
    // "Nurse, registered" and "Operator, bottling machine": the part before the comma is the
    // role (one or two words), the rest qualifies it.
    if (rest && head.split(/\s+/).length <= 2) t = `${rest} ${head}`;
    else t = t.replace(/,/g, " ");
  }
  const words = t.split(/\s+/).filter(Boolean);
  let role: Role = "worker";
  let at = -1;
  for (let i = 0; i < words.length; i++) {
    const r = ROLE_WORDS[words[i]];
    if (r && Object.hasOwn(ROLE_WORDS, words[i])) {
      role = r;
      at = i;
      // The last hierarchy word decides ("lead supervisor" is a supervisor).
    }
  }
  // A crew's lead, leader or boss runs the crew: a supervisor, where a lead alone may be
  // the senior worker ("Lead Cook").
  for (let i = 1; i < words.length; i++) {
    if (words[i - 1] !== "crew") continue;
    const w = words[i];
    if ((ROLE_WORDS[w] === "lead" && i === at) || (at < 0 && CREW_HEADS.has(w))) {
      role = "supervisor";
      at = i;
    }
  }
  // A leading role word with a domain after it ("supervisor bakery") is a catalog inversion.
  if (at === 0 && words.length > 1 && comma < 0 && (role === "supervisor" || role === "helper")) {
    const rolesAfter = words.slice(1).some((w) => Object.hasOwn(ROLE_WORDS, w));
    if (!rolesAfter) {
      words.push(words.shift()!);
      at = words.length - 1;
    }
  }
  const domain = words.filter((_, i) => i !== at).join(" ");
  return { role, domain, natural: words.join(" ") };
}
