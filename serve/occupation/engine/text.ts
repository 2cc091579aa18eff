/**
 * Query-side text handling for the occupation engine: cleaning real posting titles (levels,
 * requisition ids, locations, shifts, employment terms, brackets, abbreviations), finding a
 * title's role head, and sanitising job descriptions.
 *
 * The index side uses the shared normaliser (serve/text/normalize.ts) unchanged; everything here
 * runs on the query only, so improving it never requires rebuilding an artifact. It is part of
 * the ranker, though: RANKER_VERSION (engine/index.ts) changes with it, because the calibration
 * stored in the artifact was fitted on what this code produces.
 */
import { foldText, indexTerms, singular, tokenize } from "../../text/normalize.ts";
import { US_STATES } from "../../text/us_states.ts";
import { EXCLUSION_WORD, ROLE_WORDS } from "./roles.ts";

/** Abbreviations seen in posting titles, expanded before matching (folded tokens). */
const ABBREVIATIONS: Record<string, string> = {
  rn: "registered nurse",
  ag: "agricultural", // "Ag Laborer", "Ag Equipment Operator"
  lpn: "licensed practical nurse",
  lvn: "licensed vocational nurse",
  cna: "certified nursing assistant",
  stna: "state tested nursing assistant",
  cma: "certified medical assistant",
  np: "nurse practitioner",
  crna: "certified registered nurse anesthetist",
  emt: "emergency medical technician",
  pct: "patient care technician",
  ot: "occupational therapist",
  pt: "physical therapist",
  pta: "physical therapist assistant",
  slp: "speech language pathologist",
  cdl: "commercial truck",
  swe: "software engineer",
  sde: "software development engineer",
  sdet: "software engineer in test",
  sre: "site reliability engineer",
  dba: "database administrator",
  pm: "project manager",
  ml: "machine learning",
  mlops: "machine learning operations",
  mgr: "manager",
  mngr: "manager",
  dept: "department",
  asst: "assistant",
  assoc: "associate",
  tech: "technician",
  techs: "technician",
  dev: "developer",
  eng: "engineer",
  engr: "engineer",
  acct: "accountant",
  rep: "representative",
  reps: "representative",
  csr: "customer service representative",
  coord: "coordinator",
  spec: "specialist",
  dir: "director",
  vp: "vice president",
  svp: "senior vice president",
  evp: "executive vice president",
  ceo: "chief executive officer",
  cfo: "chief financial officer",
  coo: "chief operating officer",
  cto: "chief technology officer",
  cio: "chief information officer",
  hr: "human resources",
  it: "information technology",
  edp: "electronic data processing",
  qa: "quality assurance",
  qc: "quality control",
  ux: "user experience",
  cpa: "certified public accountant",
  gm: "general manager",
  sdr: "sales development representative",
  bdr: "business development representative",
  ops: "operations",
  mgmt: "management",
  maint: "maintenance",
  hvac: "heating ventilation air conditioning",
  cnc: "cnc",
  mls: "medical laboratory scientist",
  bcba: "board certified behavior analyst",
  ccma: "certified clinical medical assistant",
  tpm: "technical program manager",
};

/**
 * Abbreviations read only where they end the title's part, level words aside ("Senior BA", "Kronos
 * BA", "BA II"), where they are its role: elsewhere they are other things ("BA (Hons) Interior
 * Design", a degree; "OP Nurse", outpatient). "Op" is O*NET's own short form of operator ("Process
 * Operator (Process Op)"), so read as a word it matched only those few titles ("Ride Op" went to
 * the telephone operators through "Op").
 */
const ROLE_ABBREVIATIONS: Record<string, string> = {
  ba: "business analyst",
  op: "operator",
};

/**
 * "PT" is a physical therapist ("Travel PT", "PT - Outpatient") unless the title names another
 * role or has a hierarchy word, where it is part time ("Cashier PT", "PT Sales Associate",
 * "Sonographer II - PT", "Retail Team Lead (PT)"); "PT Assistant", "PT Aide" and "PT Tech" are the
 * therapist's assistants, aides and technicians.
 */
function partTime(text: string, isRoleWord: (word: string) => boolean): boolean {
  const words = tokenize(text);
  if (!words.includes("pt") || /\bpt\s+(?:assistant|aide|tech|technician)s?\b/.test(text)) {
    return false;
  }
  const beforePt = new Set(Array.from(text.matchAll(/([a-z]+) pt\b/g), (m) => m[1]));
  return words.some((word) => {
    if (word === "pt") return false;
    const expanded = lookup(ABBREVIATIONS, word) ?? word;
    const last = expanded.slice(expanded.lastIndexOf(" ") + 1);
    // A hierarchy word names a role too ("Retail Team Lead (PT)"), unless it is the therapist's
    // ("Lead PT").
    return (Object.hasOwn(ROLE_WORDS, last) && !beforePt.has(word)) || isRoleWord(last);
  });
}

/**
 * Words read as another word, not abbreviations of it. An owner is coded by the work done, which
 * in a title is managing ("Restaurant Owner" with the food service managers). O*NET has "owner"
 * in 4 of ~68,000 titles, one of them the bare "Owner" reported by urologists, which took every
 * "... Owner". A proprietor too (a coding index's "Proprietor, restaurant"): O*NET has the word in
 * no title, and its stem took the proprietary traders. A title read this way matches no title
 * exactly ("Product Owner" is not O*NET's "Product Manager"): CleanedTitle.reread.
 */
const READINGS: Record<string, string> = {
  owner: "manager",
  proprietor: "manager",
  proprietress: "manager",
};

/**
 * { reread: true } when a word of the text is read as another (READINGS) or a phrase was
 * (READ_PHRASES, `phrased`), else nothing.
 */
function reading(text: string, phrased: boolean): { reread?: true } {
  return phrased || tokenize(text).some((token) => Object.hasOwn(READINGS, token))
    ? { reread: true }
    : {};
}

/**
 * Titles read as another title, as READINGS reads words: the answer rests on that reading, so it
 * is not reported or calibrated as an exact title match. A software company's "Member of Technical
 * Staff" is a software engineer (O*NET's "Technical Staff Member" is a chemical technician's). A
 * founder, as a whole title, runs the company (O*NET's only founder is the "Iron Founder" of the
 * furnace operators). "Head of" a function is its director ("Head of People" answered the probation
 * officers through "people", "Head of Managed Services" the chefs and head cooks).
 */
const READ_PHRASES: [RegExp, string][] = [
  [/\bmember\s+of\s+(?:the\s+)?technical\s+staff\b/g, "software engineer"],
  // Its short forms: "MTS", and a senior's, lead's or principal's "SMTS", "LMTS", "PMTS".
  [/\b[slp]?mts\b/g, "software engineer"],
  [/^(?:co\s*-?\s*)?founders?$/g, "chief executive"],
  // "SW Engineer", "SW Engr 2", "SW Developer": software (not a direction: "SW Regional Manager").
  [
    /\bsw(?=\s+(?:engineers?|engrs?|eng|developers?|devs?|development|architects?|test\w*|qa)\b)/g,
    "software",
  ],
  // "Head of Sales", "Head of Engineering": the function's top manager, as "Director of" reads.
  [/(^|[-–—|:(,]\s*)head\s+of\s+(?=\S)/g, "$1director of "],
  // A coding index's "Head, personnel department" and "Personnel department head": the head of a
  // department, division or section is its director, as "Head of" reads.
  [/^head\s*,\s*(?=[^,]*\b(?:department|dept|division|section)\b)/g, "director of "],
  // (A bare "Department Head" is O*NET's title as written.)
  [/^(.*\S\s+(?:department|dept|division|section))\s+head$/g, "director of $1"],
  // "General Labor", "Farm Labor", "Labor, Farm": labor as the last word of a part is the laborer
  // (it matched the labor relations specialists and the farm labor contractors); "Labor and
  // Delivery Nurse", "Labor Relations" and "Labor/Delivery" keep it.
  [/\blabou?r(?=\s*(?:$|[-–—|:(,]))/g, "laborer"],
  // A carnival's worker in its slang ("Carny", "Carnie - Set-up Crew"); O*NET lacks the word.
  [/\bcarn(?:y|ie|ies)\b/g, "carnival worker"],
  // A flag person of a road crew is O*NET's flagman ("Flag Person (Traffic Control)" went to the
  // air traffic controllers; "flagger" is the highway maintenance workers' title too); a camp's
  // waterfront guard is a lifeguard, not a security guard.
  [/\bflag\s*(?:person|woman|women|people)\b/g, "flagman"],
  [/\bwaterfront\s+(?:guards?|staff)\b/g, "lifeguard"],
  // A restaurant's maître d' (O*NET lacks it; "d" alone went to the pharmacists' "Pharm D") is its
  // dining room's host, as two of three blind rounds coded it (the third, its supervisor).
  [/\bmaitre\s*d(?:\s*hotel)?\b/g, "dining room host"],
];

/**
 * A postdoctoral appointment ("Postdoctoral Fellow", "Postdoc Research Associate", "Postdoctoral
 * Researcher in"): a scientist in training, coded with the field of the research as an apprentice is
 * with the trade (O*NET lists the bare titles with the clinical research coordinators and the
 * social science research assistants; an employer files a chemistry postdoc as a chemist).
 */
const POSTDOC =
  /\bpost[\s-]?doc(?:toral)?(?:\s+research)?\s+(?:researcher|fellow|fellowship|associate|scholar|appointee|scientist|position|trainee)\b(?:\s+(?:in|of)\b)?|\bpost[\s-]?docs?\b(?!\s+[a-z])/;

/** "admin" is administrative before these words and administrator otherwise. */
const ADMINISTRATIVE_BEFORE = new Set([
  "assistant",
  "asst",
  "support",
  "coordinator",
  "specialist",
  "clerk",
  "officer",
  "secretary",
]);

/** Seniority, level and employer-flavour words that say nothing about the occupation. */
const NOISE_WORDS = new Set([
  "sr",
  "senior",
  "jr",
  "junior",
  "ii",
  "iii",
  "iv",
  "v",
  "vi",
  "level",
  "lvl",
  "mid",
  "experienced",
  "ninja",
  "rockstar",
  "guru",
  "wizard",
  "hero",
  "urgent",
  "urgently",
  "hiring",
  "immediate",
  "immediately",
  "opening",
  "needed",
  "wanted",
  "remote",
  "hybrid",
  "onsite",
  "fulltime",
  "parttime",
  "ft", // full time (and "Ft. Myers")
  "prn",
  "perdiem",
  "temp",
  "temporary",
  "seasonal",
  "unpaid",
  "usa",
  "us",
]);

/** An employer's "team member": dropped (EMPLOYER_PHRASES), its domain's worker (cleanParts). */
const TEAM_MEMBER = /\bteam\s+member\b/;
/** Employer wording that says nothing about the occupation when the title has more. */
const EMPLOYER_PHRASES: RegExp[] = [new RegExp(TEAM_MEMBER.source, "g")];

/** Multi-word noise, matched on folded text before tokenising. */
const NOISE_PHRASES: RegExp[] = [
  /\b(?:full|part)[\s-]*time\b/g,
  /\bper[\s-]+diem\b/g,
  /\bwork\s+from\s+home\b/g,
  /\bsign[\s-]*on\s+bonus\b/g,
  /\bentry[\s-]+level\b/g,
  /\bpaid\s+training\b|\btraining\s+provided\b/g,
  /\b(?:1st|2nd|3rd|first|second|third|day|night|evening|swing|am|pm)\s+shifts?\b/g,
  // A season of the calendar or of the trade's calendar ("Host / Hostess - Summer Season", "Peak
  // Season"): when, not what. Read as a qualifier, "summer season" went to the broadcast
  // announcers' "Summer Season Host"-like titles; a crop's or an animal's season ("Calving
  // Season", "Harvest Season") stays.
  /\b(?:summer|winter|spring|fall|autumn|holiday|peak|busy|high|tourist)\s+seasons?\b/g,
  /\bclass\s+[abc]\b/g,
  // A coding index's "(any industry)": the entry is coded the same whatever the industry.
  /\bany\s+industry\b/g,
  // An id has a digit: "Job ID 20391", "Req #48213", "Job-A123"; "Nurse Job - $2037/wk" has none.
  /\b(?:req|requisition|job|position)(?:\s*(?:id|no|number|#))?\s*[:#]?\s*(?=[a-z-]*\d)[a-z]*[-\d][\w-]*/g,
  // Pay: "$2037/wk", "$16.50 hr" ("hr" alone was read as human resources), "$19.61 Per Hour", a
  // range ("Make $2602 to $2791/wk") and the words that lead to it ("Pay Starts $ $19.76/hour"
  // was read as "pay starts", a preschool's Head Start).
  /(?:\b(?:make|earn|earning|starting|starts?|pay|is|rate|range|up\s+to|at|from)\s+)*\$\s*\$?[\d,.]+(?:\s*(?:-|–|to)\s*\$?[\d,.]+)?\s*(?:k\b|(?:\/|per\b|an?\b)?\s*(?:hr|hour|hourly|wk|week|mo|month|year|yr)\b)?/g,
  // Clock times: "7:00 PM" was read as a project manager, "(2pm-10pm)".
  /\b\d{1,2}(?::?\d{2})?\s*(?:am|pm)\b/g,
  // A co-op is a student's work term, coded by the work as an internship is; O*NET's "CO Op"
  // (Central Office Operator) took every "Engineering Co-Op" to the telephone operators.
  /\bco[\s-]?op\b/g,
  // So is an internship after the work's words ("Developer Internship" went to the counselors
  // through their "Internship Coordinator"), unless the title is a role of the program.
  /(?<=\b[a-z]{2,}\s+)internships?\b(?!\s+(?:coordinator|manager|director|specialist|program|advisor|supervisor|liaison|recruiter|lead)\b)/g,
  // A coding index's "not elsewhere classified" ("Machine Operator, n.e.c."; "n.o.s.", not
  // otherwise specified): its letters were read as words.
  /\b(?:n\.\s?e\.\s?c|n\.\s?o\.\s?s)\b\.?|\bnot\s+(?:elsewhere\s+classified|otherwise\s+specified)\b/g,
];

/** Accounting roles an "AP" or "AR" before them is accounts payable or receivable for. */
const LEDGER_ROLES =
  "(?=\\s+(?:clerk|specialist|analyst|associate|coordinator|processor|accountant|representative|" +
  "supervisor|manager|lead|team)\\b)";

/**
 * Phrases written out before matching, as O*NET writes them: "FP&A" (financial planning and
 * analysis, folded to "fp and a") took "Director of FP&A" to the family medicine physicians ("FP");
 * "AP Specialist" went to the landscape architects through O*NET's "AP BD+C" and "Billing
 * Representative (A/R)" to the office supervisors. "R&D" and "M&A" written out moved as many real
 * titles for the worse as for the better (research and development managers took R&D engineers),
 * and "P&C" written out took "P&C Actuary" to the claims adjusters: they are left as they are.
 */
const PHRASES: [RegExp, string][] = [
  // A tester of software, as "SDET" says.
  [/\bsoftware\s+development\s+engineer\s+in\s+test\b/g, "software engineer in test"],
  [/\bf\s*[,.]?\s*p\s*[,.]?\s+and\s+a\b/g, "financial planning and analysis"],
  [/\bo\s+and\s+m\b/g, "operations and maintenance"],
  [/\bap\s*(?:\/|and)\s*ar\b|\bar\s*(?:\/|and)\s*ap\b/g, "accounts payable and receivable"],
  [/\ba\/p\b/g, "accounts payable"],
  [/\ba\/r\b/g, "accounts receivable"],
  [new RegExp(`\\bap${LEDGER_ROLES}`, "g"), "accounts payable"],
  [new RegExp(`\\bar${LEDGER_ROLES}`, "g"), "accounts receivable"],
  // The team of a team leader with a domain is no domain ("Production Team Leader" leads
  // production, not O*NET's "Water Team Leader" or "Sales Team Leader").
  [/(\S)\s+team\s+leader\b/g, "$1 leader"],
];

/** Whether a text has any of the phrases: one alternation (not global, so no lastIndex). */
function anyOf(patterns: RegExp[]): RegExp {
  if (patterns.some((p) => p.flags !== "g")) throw new Error("phrases: /g patterns only");
  return new RegExp(patterns.map((p) => `(?:${p.source})`).join("|"));
}
const ANY_DROPPED = anyOf([...NOISE_PHRASES, ...EMPLOYER_PHRASES]);
const ANY_PHRASE = anyOf(PHRASES.map(([p]) => p));

/**
 * Whom an assistant assists is not the occupation: "Executive Assistant to the CEO" is an
 * executive secretary, not a chief executive (10 of the 23 LinkedIn titles so written went to the
 * chief executives). The words after "assistant to", "secretary to" or "aide to" are dropped, and
 * an assistant to someone with no other word ("Assistant to the Director", "Special Assistant to
 * CEO") is an executive assistant (alone, "assistant" went to the medical assistants and "special
 * assistant" to the special education teaching assistants).
 */
const ASSISTED = /\b(assistant|secretary|aide)\s+to\s+\S.*$/;
const ASSISTED_ALONE = /(^|[-–—|:(,]\s*)(?:special\s+)?assistant\s+to\s+\S.*$/;

/**
 * Software a title names, read as the kind of system it is (folded text; `raw` keeps the case some
 * names are told apart by):
 * - "Apps" and "App" written so are applications ("Oracle Apps", "Cash App", "Mobile App"); "APP"
 *   in capitals is also an advanced practice provider, O*NET's title of psychiatric nurses, which
 *   took "Oracle Apps Finance Consultant" and "Training Specialist, Cash App";
 * - "SAP" in capitals is the ERP system, not O*NET's maple "Sap Gatherer" (12 "SAP ..." titles went
 *   to the forest workers), and so are Workday, Oracle, NetSuite, PeopleSoft and Guidewire
 *   ("Workday Consultant" went to the social workers);
 * - "Epic" is the health record system ("Epic Analyst Certified Beaker" went to the training
 *   specialists through O*NET's "Certified EPIC Trainer"), not Universal's "Epic Universe";
 * - "ServiceNow" is an IT platform, not a "serviceman" (11 went to the elevator installers).
 */
function softwareNames(text: string, raw: string): string {
  text = text.replace(/\bapps\b/g, "applications");
  if (/\b(?:App|app)\b/.test(raw)) text = text.replace(/\bapp\b/g, "application");
  if (/\bSAP\b/.test(raw)) text = text.replace(/\bsap\b/g, "erp");
  return text
    .replace(/\b(?:workday|oracle|netsuite|peoplesoft|guidewire)\b/g, "erp")
    .replace(/\bepic\b(?!\s+universe\b)/g, "ehr")
    .replace(
      /\bservicenow\b|(?<!\bcustomer\s+)\bservice\s+now\b(?!\s+hiring)/g,
      "information technology",
    );
}

/** Two-letter US state codes (and DC's, Puerto Rico's), to spot "City, ST" locations. */
const STATES = new Set(US_STATES.map((state) => state.code.toLowerCase()));

const LOCATION = /,\s*([a-z]{2})\b(?:\s+\d{5})?\s*$/;

/**
 * What joins the parts of a title: an occupation with a location, team, level or qualifier. A dash
 * between spaces, an em dash with or without them, or a typewriter's em dash (" -- ", a coding
 * index's "Watchman, night -- construction site").
 */
const PARTS = /\s[-–—|:]\s|\s*—\s*|\s--\s|\s*[|•;]\s*|\s+@\s+/;

/** US state names, to spot a part of a title that is only places ("- New Jersey", "- MD & PA"). */
const STATE_NAMES = new RegExp(
  `\\b(?:${US_STATES.map((state) => state.name.toLowerCase().replace(/ /g, "\\s+")).join("|")})\\b`,
  "g",
);

/**
 * Whether a part of a title names only US states ("New Jersey", "Washington DC", "MD & PA",
 * "NY, NJ or PA"): a full state name, or two state codes or more, and nothing else. A lone code is
 * left alone ("Technologist - CT", "PA" as a physician assistant).
 */
function onlyStates(segment: string): boolean {
  let named = 0;
  const words = tokenize(segment.replace(STATE_NAMES, () => (named++, " ")));
  let codes = 0;
  for (const word of words) {
    if (STATES.has(word)) codes++;
    else if (word !== "and" && word !== "or") return false;
  }
  return named > 0 || codes >= 2;
}

/** A cleaned title. */
export interface CleanedTitle {
  /** Text left after cleaning, folded; the query the index sees. */
  text: string;
  /** The other parts of an "A - B" title, cleaned (qualifiers: "seafood restaurant"). */
  rest: string;
  /** A word of the title was read as another (READINGS: an owner as a manager). */
  reread?: boolean;
  /**
   * What an exclusion clause names ("Painter, exc construction and maintenance": "construction and
   * maintenance"), folded: what the title is not. The ranking demotes occupations it names.
   */
  excluded?: string;
  /**
   * The title says it is classified nowhere else ("Entertainer, n.e.c.") or not specified
   * ("Engineer, n.s."): a coding index's mark for the residual category, "..., All Other". The
   * ranking favours residual occupations.
   */
  residual?: true;
}

/** Words an acronym may pass over ("CADD": Computer-Aided Drafting and Design). */
const ACRONYM_SKIPS = new Set(["and", "of", "the", "for", "in"]);

/**
 * Whether `short` is a shortened form of `long`, word by word in order: each of its words is the
 * same word, a contraction of one ("tech" of technician, "dept" of department: same first letter,
 * its letters in order; a single letter for a word), or an acronym made of prefixes of consecutive
 * words ("pa" of public address, "sped" of special education, "hs" of high school), and every word
 * of `long` is used.
 */
export function abbreviates(short: string[], long: string[]): boolean {
  const contraction = (s: string, word: string) => {
    if (s.length >= word.length || s[0] !== word[0]) return false;
    let at = 0;
    for (const ch of word) if (ch === s[at]) at++;
    return at === s.length;
  };
  // Ends (indexes into long) an acronym s[pos..] can reach, starting at word j.
  const acronymEnds = (s: string, pos: number, j: number, out: Set<number>) => {
    if (pos === s.length) return void out.add(j);
    if (j >= long.length) return;
    const word = long[j];
    for (let p = 1; p <= Math.min(word.length, s.length - pos); p++) {
      if (word[p - 1] !== s[pos + p - 1]) break;
      acronymEnds(s, pos + p, j + 1, out);
    }
    if (pos > 0 && ACRONYM_SKIPS.has(word)) acronymEnds(s, pos, j + 1, out);
  };
  const align = (i: number, j: number): boolean => {
    if (i === short.length) return j === long.length;
    if (j >= long.length) return false;
    const s = short[i];
    if (s === long[j] || contraction(s, long[j])) {
      if (align(i + 1, j + 1)) return true;
    }
    const ends = new Set<number>();
    acronymEnds(s, 0, j, ends);
    for (const end of ends) if (end - j >= 2 && align(i + 1, end)) return true;
    // "UI/UX Architect (User Interface and User Experience Architect)": a joining word.
    return ACRONYM_SKIPS.has(long[j]) && align(i, j + 1);
  };
  return short.join(" ") !== long.join(" ") && align(0, 0);
}

/**
 * "PA Tech (Public Address Technician)", "Special Education Aide (SPED Aide)": a title followed
 * by the same title written out or shortened is one title written two ways. Its two forms (the
 * text outside the brackets, then inside), or null for any other text ("Farm Worker
 * (Vegetables)" is a title with a qualifier). Taken as one bag of words, the two forms count
 * their meaning twice and let the short words match elsewhere ("PA": physician assistant).
 */
export function twoForms(text: string): [string, string] | null {
  const match = /^([^()]*\S)\s*\(([^()\d]+)\)\s*$/.exec(text);
  if (!match) return null;
  const outer = tokenize(match[1]);
  const inner = tokenize(match[2]);
  if (abbreviates(inner, outer) || abbreviates(outer, inner)) {
    return [match[1].trim(), match[2].trim()];
  }
  return null;
}

function stripBrackets(text: string): string {
  // Bracketed content is kept when it is words (often the occupation: "Nurse (RN)") and
  // dropped when it carries digits (ids, dates, pay), or is one word that shortens the words just
  // before it ("Farm Labor Contractor (FLC) - Registered": kept, "flc" ended the part, which then
  // had no known head, and the other part's "registered" took the nurses).
  return text.replace(
    /[([{]([^)\]}]*)[)\]}]/g,
    (_m, inner: string, at: number) =>
      /\d/.test(inner) || shortensBefore(inner, text.slice(0, at)) ? " " : ` ${inner} `,
  );
}

/**
 * Whether `inner` is one word of two to six letters that abbreviates the last words of `before`
 * ("FLC"). Run for every bracket of every title: only the spans that begin with its first letter
 * are tried.
 */
function shortensBefore(inner: string, before: string): boolean {
  const short = inner.trim();
  if (!/^[a-z]{2,6}$/.test(short)) return false;
  const words = tokenize(before.slice(-80));
  for (let k = 1; k <= Math.min(6, words.length); k++) {
    if (words[words.length - k][0] !== short[0]) continue;
    if (abbreviates([short], words.slice(-k))) return true;
  }
  return false;
}

function dropLocation(segment: string): string {
  const match = segment.match(LOCATION);
  if (match && STATES.has(match[1])) {
    // "Nurse, Dallas, TX": the location is the last two comma parts.
    const parts = segment.split(",");
    return parts.length >= 3 ? parts.slice(0, -2).join(",") : parts[0];
  }
  return segment;
}

/**
 * Cleans a posting title: folds case and accents, drops ids, pay, locations, shifts,
 * employment terms and seniority, keeps the best segment of "A - B" or "A | B" titles
 * (segmentScore says how occupational a segment looks; a bare role word takes a short qualifier
 * with it unless namesOneOccupation says the word is an occupation's title on its own) and
 * expands abbreviations. isRoleWord says whether a word heads occupations' titles ("cashier"), for
 * the abbreviations whose meaning depends on it ("PT"); isTitle whether the words before a comma
 * are a title of the index that names few occupations (titleBeforeComma).
 */
export function cleanTitle(
  raw: string,
  segmentScore: (segment: string) => number,
  namesOneOccupation: (word: string) => boolean = () => false,
  isRoleWord: (word: string) => boolean = () => false,
  isTitle: (segment: string) => boolean = () => false,
): CleanedTitle {
  const residual = NOT_ELSEWHERE.test(raw);
  const text = residual ? raw.replace(NOT_ELSEWHERE, " ") : raw;
  const cleaned = withSchoolLevel(
    text,
    cleanParts(text, segmentScore, namesOneOccupation, isRoleWord, isTitle),
  );
  return residual ? { ...cleaned, residual } : cleaned;
}

/**
 * A coding index's "not elsewhere classified" or "not specified", whose entries it codes to a
 * residual category: "n.e.c." (dotted, any case), "n.s." where a part ends ("Engineer, n.s."), the
 * words, or a bare "NEC" after a comma at the end ("Metal worker, NEC"). Not a bare "NEC"
 * elsewhere (in an electrician's title, the National Electrical Code), nor "N.E." (north-east).
 */
const NOT_ELSEWHERE =
  /\bn\.\s?e\.\s?c\b\.?|\bn\.\s?s\.(?=\s*(?:$|[,;)]))|\bnot (?:elsewhere classified|specified)\b|,\s*nec\.?\s*$/i;

/** A teacher's title that names no school level ("Math Teacher"), as cleaning leaves it. */
const TEACHER = /\bteachers?\b/;
const LEVEL_WORD =
  /\b(?:elementary|middle|junior high|high school|secondary|pre ?school|pre ?k|prekindergarten|kindergarten|postsecondary|college|university|grade school|primary)\b/;
const LEVEL_WORDS = new RegExp(LEVEL_WORD.source, "g");

/**
 * A teacher's title whose qualifier or grades name the school level ("Math Teacher - Grades 6-8",
 * "SPED Teacher - High School", "Bilingual Teacher K-5"): the level is written into the title, as
 * O*NET's teacher titles carry it ("Middle School Math Teacher"), because the level is what
 * decides between the elementary, middle and secondary teachers. Cleaning drops grade numbers, and
 * a qualifier weighs less than the title, so a title O*NET lists at one level ("SPED Teacher",
 * elementary) took the answer whatever level was asked for. A span over two levels (K-12, 6-12)
 * names none.
 */
function withSchoolLevel(raw: string, cleaned: CleanedTitle): CleanedTitle {
  if (!TEACHER.test(cleaned.text)) return cleaned;
  const folded = foldText(raw);
  // The K of "K-12" is no word of the title (it matched O*NET's "Pre-K Teacher").
  const text = FROM_K.test(folded) ? cleaned.text.replace(/(?:^| )k\b/g, "").trim() : cleaned.text;
  const level = LEVEL_WORD.test(text) ? null : schoolLevel(folded);
  if (level === null) return text === cleaned.text ? cleaned : { ...cleaned, text };
  const rest = cleaned.rest.replace(LEVEL_WORDS, " ").replace(/\s+/g, " ").trim();
  return { ...cleaned, text: `${level} ${text}`, rest };
}

const GRADE = "(pre-?k(?:indergarten)?|pk|k(?:indergarten)?|\\d{1,2})(?:st|nd|rd|th)?";
const THROUGH = "\\s*(?:-|–|to|through|thru)\\s*";
/** "Grades 6-8", "Grade 3", "Gr. K-5". */
const GRADES_WORD = new RegExp(`\\bgr(?:ades?|\\.)?\\s*${GRADE}(?:${THROUGH}${GRADE})?\\b`);
/** "6th-8th Grade", "5th Grade", "K-5" (a span from K needs no word). */
const GRADES_BEFORE = new RegExp(`\\b${GRADE}(?:${THROUGH}${GRADE})?\\s*grades?\\b`);
const FROM_K = new RegExp(`\\b(pre-?k|pk|k)${THROUGH}(\\d{1,2})\\b`);

/** The school level a title names in words or grades, or null. */
export function schoolLevel(folded: string): string | null {
  // "High school diploma" is a requirement, not a level.
  if (/\b(?:high school(?! (?:diploma|degree|graduate|equivalen))|secondary)\b/.test(folded)) {
    return "high school";
  }
  if (/\b(?:middle school|junior high)\b/.test(folded)) return "middle school";
  if (/\belementary\b/.test(folded)) return "elementary school";
  if (/\b(?:pre ?school|pre-?k)\b/.test(folded) && !FROM_K.test(folded)) return "preschool";
  const match = GRADES_WORD.exec(folded) ?? GRADES_BEFORE.exec(folded) ?? FROM_K.exec(folded);
  if (!match) return null;
  const grade = (g: string) => /^p/.test(g) ? -1 : g.startsWith("k") ? 0 : Number(g);
  const low = grade(match[1]);
  const high = match[2] === undefined ? low : grade(match[2]);
  if (high < low || high > 12) return null;
  if (high <= 6 && low <= 5) return "elementary school";
  if (low >= 6 && high <= 8) return "middle school";
  if (low >= 9) return "high school";
  return null;
}

/**
 * The part score (`segmentScore`) a part that names a role reaches at least: the bonus the index
 * gives a part whose head heads titles (its SEGMENT_HEAD_BONUS is this).
 */
export const ROLE_PART_SCORE = 100;

/**
 * Added to the first part's score when it names a role: an employer writes the role first and its
 * setting after ("Bellman - Resort Hotel", "Barback - Beach Bar", "Crew Leader - Farm Labor"), and
 * a setting of rarer words had outscored a role of common ones. A later part still wins by more
 * than this (a title of the index scores SEGMENT_TITLE_BONUS, 30). Measured at 10, 20, 40, 80 and
 * 200 on the blind rounds (12 fixed, 1 broken from 20 on; notes/issue15.md, section 48).
 */
const FIRST_PART_BONUS = 20;

function cleanParts(
  raw: string,
  segmentScore: (segment: string) => number,
  namesOneOccupation: (word: string) => boolean,
  isRoleWord: (word: string) => boolean,
  isTitle: (segment: string) => boolean,
): CleanedTitle {
  let text = stripBrackets(
    invertedBeforeBrackets(
      bracketsBeforeExclusion(foldText(raw).replace(/\s+/g, " ").trim()),
      CAPITALISED_AFTER_COMMA.test(raw),
    ),
  );
  if (partTime(text, isRoleWord)) text = text.replace(/\bpt\b/g, " ");
  const teamMember = TEAM_MEMBER.test(text);
  // One scan for any of them first: most titles have none (and a phrase can only appear through an
  // earlier phrase's replacement if that one matched).
  if (ANY_DROPPED.test(text)) {
    for (const phrase of [...NOISE_PHRASES, ...EMPLOYER_PHRASES]) text = text.replace(phrase, " ");
  }
  if (ANY_PHRASE.test(text)) {
    for (const [phrase, written] of PHRASES) text = text.replace(phrase, written);
  }
  let phrased = false;
  for (const [phrase, written] of READ_PHRASES) {
    const read = text.replace(phrase, written);
    if (read !== text) [text, phrased] = [read, true];
  }
  text = text.replace(ASSISTED_ALONE, "$1executive assistant").replace(ASSISTED, "$1");
  text = softwareNames(text, raw);
  // A postdoc with a field ("Postdoctoral Fellow - Cancer Biology") is a scientist of that field;
  // without one, the title as O*NET lists it.
  if (POSTDOC.test(text)) {
    const fields = text.replace(POSTDOC, " | ").split(PARTS).flatMap((part) => part.split(","))
      .filter((s) => !onlyStates(s)).map((s) => cleanSegment(dropLocation(s)))
      .filter((s) => s.length > 0);
    let field = "";
    let fieldScore = 0;
    for (const segment of fields) {
      const score = segmentScore(segment);
      if (score > fieldScore) [field, fieldScore] = [segment, score];
    }
    if (field) return { text: `${field} scientist`, rest: "", reread: true };
  }
  // Split on separators that join an occupation with a location, team or level, clean each
  // part, and keep the part that looks most occupational (the first on a tie, and by
  // FIRST_PART_BONUS when it names a role).
  const exclusions: string[] = [];
  const capitalisedAfterComma = CAPITALISED_AFTER_COMMA.test(raw);
  const parts = text.split(PARTS);
  // A part that is only places goes, when another part is left to read.
  const placed = parts.length > 1 ? parts.filter((part) => !onlyStates(part)) : parts;
  const segments = (placed.length > 0 ? placed : parts)
    .flatMap((s) => titleBeforeComma(dropLocation(s), capitalisedAfterComma, isTitle))
    .map((s) => cleanSegment(uninvert(dropExclusion(s, exclusions))))
    .filter((s) => s.length > 0);
  const excluded = exclusions.length > 0 ? { excluded: exclusions.join(", ") } : {};
  let cleaned = segments[0] ?? "";
  let bestScore = segments.length > 1 ? segmentScore(cleaned) : 0;
  if (bestScore >= ROLE_PART_SCORE) bestScore += FIRST_PART_BONUS;
  for (const segment of segments.slice(1)) {
    const score = segmentScore(segment);
    if (score > bestScore) [cleaned, bestScore] = [segment, score];
  }
  // A bare role word with a short qualifier ("Physician - Neurology", "Consultant - Human
  // Capital") is the qualifier's role, as a coding index writes "Physician, neurology": the
  // qualifier names the domain the word alone cannot. Of several parts ("Registered Nurse - RN -
  // Supervisor"), the one that scores best. A word that is one occupation's title on its own
  // ("Custodian - Summer Camp") keeps the qualifier as its setting. So is a supervisor's or lead's
  // title of two words at most (hierarchyOnly: "Field Supervisor - Crops" went to the
  // construction supervisors through O*NET's "Field Supervisor", "Crew Leader - Harvest" to the
  // food service supervisors).
  if (
    segments.length >= 2 && cleaned !== "" &&
    ((!cleaned.includes(" ") && !namesOneOccupation(cleaned)) || hierarchyOnly(cleaned) ||
      VICE_PRESIDENT.test(cleaned))
  ) {
    let other = "";
    let otherScore = 0;
    for (const segment of segments) {
      if (segment === cleaned || segment.split(" ").length > 3) continue;
      const score = segmentScore(segment);
      if (score > otherScore) [other, otherScore] = [segment, score];
    }
    if (other !== "" && (segments.length === 2 || otherScore >= ROLE_PART_SCORE)) {
      const rest = segments.filter((s) => s !== cleaned && s !== other).join(" ");
      const read = teamMemberOf(`${other} ${cleaned}`, teamMember, isRoleWord);
      return { text: read, rest, ...reading(text, phrased), ...excluded };
    }
  }
  // A supervisor's or lead's title whose qualifier outscored it ("Crew Lead - Lawn Maintenance")
  // leads the qualifier's work: read the other way round, as above.
  const led = segments.find((s) => s !== cleaned && hierarchyOnly(s));
  if (
    led !== undefined && cleaned !== "" && cleaned.split(" ").length <= 3 &&
    !isRoleWord(cleaned.slice(cleaned.lastIndexOf(" ") + 1))
  ) {
    const rest = segments.filter((s) => s !== cleaned && s !== led).join(" ");
    return { text: `${cleaned} ${led}`, rest, ...reading(text, phrased), ...excluded };
  }
  const rest = segments.filter((s) => s !== cleaned).join(" ");
  // A title made only of what cleaning drops ("Team Member", "Senior") is still the employer's
  // title: it is matched as written rather than answered with nothing.
  if (cleaned === "") {
    let plain = stripBrackets(foldText(raw));
    for (const phrase of NOISE_PHRASES) plain = plain.replace(phrase, " ");
    const words = tokenize(plain).filter((t) => !/\d/.test(t));
    return { text: [...new Set(words)].join(" "), rest: "" };
  }
  return {
    text: teamMemberOf(cleaned, teamMember, isRoleWord),
    rest,
    ...reading(text, phrased),
    ...excluded,
  };
}

/**
 * A team member of a domain the title names no role of ("Kitchen Team Member", "Landscape Team
 * Member", "Housekeeping Team Member - Hotel") works in it: read alone, the domain word matched the
 * professions it modifies (O*NET's "Kitchen Designer", "Landscape Architect").
 */
function teamMemberOf(
  cleaned: string,
  teamMember: boolean,
  isRoleWord: (word: string) => boolean,
): string {
  const last = cleaned.slice(cleaned.lastIndexOf(" ") + 1);
  return teamMember && !isRoleWord(last) ? `${cleaned} worker` : cleaned;
}

/**
 * A supervisor's or lead's word with at most one word before it ("Field Supervisor", "Crew
 * Leader", "Shift Supervisor"): a first-line role that needs a domain, as a bare role word does.
 * Not a manager ("Recreation Manager - Babcock Ranch", "Project Manager - Healthcare": the
 * qualifier is as often a place or a client) nor a helper ("Carpenter Helper - Framing").
 */
function hierarchyOnly(cleaned: string): boolean {
  const words = cleaned.split(" ");
  const last = words[words.length - 1];
  if (words.length > 2 || !Object.hasOwn(ROLE_WORDS, last)) return false;
  // A technical lead is read by the index as a software engineer, with the title's computing
  // words (OccupationIndex#techLead): "Tech Lead - Payments" is no payments technician's lead.
  if (words.length === 2 && TECH_WORDS.has(words[0])) return false;
  return ROLE_WORDS[last] === "supervisor" || ROLE_WORDS[last] === "lead";
}

/**
 * A vice president of any rank, once cleaned ("SVP": "senior vice president"): like a bare role
 * word, it is the rank of its qualifier's function ("Vice President - Marketing", "VP -
 * Engineering"). Read as written, the qualifier was left out and the bare title went to the
 * postsecondary education administrators ("Academic Vice President").
 */
const VICE_PRESIDENT =
  /^(?:(?:senior|executive|assistant|associate|group|regional|first) )?vice president$/;

/** What a technical lead's first word is, once cleaned ("Tech Lead": "technician lead"). */
export const TECH_WORDS: ReadonlySet<string> = new Set(["technician", "technical", "technology"]);

/**
 * An exclusion clause and the brackets after it: "exc printing (metal stamping)", or a clause in
 * brackets of its own and brackets after those ("(exc. postsecondary) (private school)").
 */
const EXCLUSION_THEN_BRACKETS = new RegExp(
  String
    .raw`(${EXCLUSION_WORD}\.?[^()[\]{}]*?|\(${EXCLUSION_WORD}[^()]*\))\s*([([{][^)\]}]*[)\]}])`,
);

/**
 * "Operator, press exc. printing (metal stamping)": brackets after an exclusion clause qualify the
 * title, not the clause (which runs to the end of its part), so they move before it ("operator,
 * press (metal stamping) exc. printing"). Read in place, the clause took the qualifier with it: the
 * title lost its domain and the ranking demoted the occupations the qualifier names.
 */
function bracketsBeforeExclusion(text: string): string {
  for (let i = 0; i < 4; i++) {
    const moved = text.replace(EXCLUSION_THEN_BRACKETS, "$2 $1");
    if (moved === text) return text;
    text = moved;
  }
  return text;
}

/** An inverted title with a bracket after it: "operator, bottling machine (beverages)". */
const INVERTED_THEN_BRACKETS = /^([a-z]+(?: [a-z]+)?), ([a-z][a-z' &.-]*?) ?\(([^()\d]+)\)$/;

/**
 * A coding index's inverted title with its industry in brackets ("Operator, bottling machine
 * (beverages)", "Principal, school (parochial)") is put back in order before the brackets are
 * opened: "bottling machine operator beverages". Opened first, the industry went between the
 * domain and the role ("bottling machine beverages operator"), which broke the title's phrases and
 * dropped a rank word no longer next to its phrase ("school textile mill principal").
 */
function invertedBeforeBrackets(text: string, capitalisedAfterComma: boolean): string {
  // An employer's "Software Engineer, Machine Learning (Ads)" is no inverted title
  // (titleBeforeComma).
  if (capitalisedAfterComma) return text;
  const match = INVERTED_THEN_BRACKETS.exec(text);
  if (!match || HAS_EXCLUSION.test(match[2])) return text;
  return `${uninvert(`${match[1]}, ${match[2]}`)} (${match[3]})`;
}

/** A word that opens an exclusion clause, anywhere. */
const HAS_EXCLUSION = new RegExp(EXCLUSION_WORD);

/** An exclusion clause to the end of a part, with the comma before it; the clause's words kept. */
const EXCLUSION_IN_SEGMENT = new RegExp(String.raw`\s*,?\s*${EXCLUSION_WORD}\.?(\s.*)?$`);

/**
 * "Bakers, exc supervising": the exclusion says what the title is not; it is dropped from the
 * title, and what it names is kept in `into`.
 */
function dropExclusion(segment: string, into: string[]): string {
  const found = EXCLUSION_IN_SEGMENT.exec(segment);
  if (!found) return segment;
  if (found[1]?.trim()) into.push(found[1].trim());
  return segment.slice(0, found.index);
}

/**
 * "Assurance" that leads a title or follows "audit" is an accounting firm's audit practice
 * ("Assurance Associate", "Senior Associate, Assurance", "Audit & Assurance Senior"): read as
 * "audit". O*NET's titles have the word only as "quality assurance" and "information assurance",
 * so read as written it went to the quality control analysts. "Quality Assurance", "Information
 * Assurance", "Mission Assurance" and the like, with a word before "assurance", stay.
 */
export function assuranceAsAudit(text: string): string {
  if (!text.includes("assurance")) return text;
  return text.replace(/^assurance\b/, "audit").replace(/\baudit (?:and )?assurance\b/, "audit");
}

/**
 * Titles whose O*NET owner depends on where the work is done, as the SOC definitions say, read as
 * the title of the occupation the setting names (SETTINGS): the role ends a part of the title as
 * written (before a dash, bracket, comma or slash, or at the end: "Room Attendant Supervisor" is
 * no room attendant), the setting is anywhere in it, and a title with a word that names the other
 * setting stays.
 */
interface SettingReading {
  /** The role: the last words of a part of the title (endsPart). */
  role: RegExp;
  /** Not with a word of live animals (LIVESTOCK): the row is about crops. */
  cropsOnly?: boolean;
  /** A word of the title as written that names the setting. */
  setting: RegExp;
  /** A word of the title as written that names the other setting (the title stays). */
  not?: RegExp;
  /** The reading: a title of the index. */
  reading: string;
}

/** Words that end a part of a title as written: before a dash, bracket, comma or slash, or the end. */
const PART_END = String.raw`(?=\s*(?:$|[-–—(),/|:]))`;

/** A role (a regular expression's source) that ends a part of the title as written. */
function endsPart(role: string): RegExp {
  return new RegExp(String.raw`\b${role}${PART_END}`, "i");
}

/** Words of live animals: a farm's sorter or picker of them is no crop worker. */
const LIVESTOCK =
  /\b(?:cattle|cows?|calv\w*|steers?|heifers?|sheep|lamb\w*|goats?|hogs?|swine|pigs?|horses?|equine|livestock|feedlots?|feedyards?)\b/i;

/**
 * Words of a crop, an orchard or a vineyard. O*NET's titles, tasks and descriptions name few crops
 * ("tomato" is in none), so a farm's pruner or sorter reads as the tree trimmers' or the
 * inspectors' (SETTINGS).
 */
const CROPS = String
  .raw`orchards?|vineyards?|vines?|grapes?|fruits?|vegetables?|produce|crops?|h-?2a|berr(?:y|ies)|blueberr(?:y|ies)|strawberr(?:y|ies)|cherr(?:y|ies)|apples?|peach(?:es)?|pears?|citrus|oranges?|melons?|watermelons?|cantaloupes?|tomato(?:es)?|potato(?:es)?|onions?|peppers?|chiles?|chilies|cucumbers?|lettuce|tobacco|burley|peanuts?|pecans?|almonds?|walnuts?|cotton|corn|soybeans?|wheat|hay|alfalfa|sugar ?beets?|sugar ?cane|rice|hops?|cranberr(?:y|ies)|avocados?|hemp|broccoli|cabbages?|collards?|brussels sprouts?|squash|zucchini|pumpkins?|sweet ?potato(?:es)?|garlic|carrots?|spinach|kale|raspberr(?:y|ies)|blackberr(?:y|ies)|nectarines?|plums?|apricots?|pistachios?|hazelnuts?|olives?|raisins?|beets?|coffee|date palms?|cauliflower|artichokes?|sweet ?corn`;

/** Words of a farm setting: the crops, and farms, fields, packing sheds and their work. */
const FARM_SETTING = new RegExp(
  String
    .raw`\b(?:${CROPS}|farms?|farming|ranch|nuts?|fields?(?!\s+(?:hands?|workers?|laborers?))|harvest(?:ing)?|packing ?(?:shed|house|line)s?|packinghouse|sheds?|nursery|greenhouse|dairy|cattle|disking|tillage|cultivating|planting|silage|transplant\w*)\b`,
  "i",
);

/**
 * Words of a crop's field work without the words of any farm ("farm", "field", "harvest",
 * "ranch"): a farm's or a field's worker without a crop word reads as O*NET has it.
 */
const CROP_SETTING = new RegExp(String.raw`\b(?:${CROPS}|hoe\w*|weeding|detassel\w*)\b`, "i");

/** Words of guest lodging: a room attendant's or a housekeeping aide's setting. */
const LODGING = String
  .raw`hotels?|motels?|resorts?|lodges?|lodging|inns?|casinos?|condos?|condominiums?|vacation|suites?`;

const SETTINGS: readonly SettingReading[] = [
  // SOC 2018 codes the carers of race horses, show horses and other animals not raised for
  // consumption as animal caretakers (39-2021) and excludes them from the farm animal workers
  // (45-2093); O*NET lists "Stable Hand", "Horse Groomer" and "Barn Worker" only under the latter,
  // so a racetrack's groom went to the farm (or to the race officials, through "race").
  {
    role: endsPart(
      String
        .raw`(?:grooms?|groomers?|stable ?(?:hands?|attendants?|workers?|help(?:ers?)?)|barn (?:hands?|workers?|help(?:ers?)?|attendants?)|hot ?walkers?|stall muckers?|wranglers?)`,
    ),
    setting:
      /\b(?:races?|racing|racetracks?|race ?horses?|backstretch|track|thoroughbreds?|shows?|polo|equestrian|jumpers?|jumping|dressage|riding|carriage|boarding (?:stables?|barns?)|trail (?:horses?|rides?)|dude ranch(?:es)?|lesson (?:horses?|barns?))\b/i,
    not:
      /\b(?:farms?|(?<!dude )ranch(?:es)?|breeding|stud|foaling|yearlings?|broodmares?|cattle|cow\w*)\b/i,
    reading: "animal caretaker",
  },
  // A jockey of a racetrack or of race horses rides them (O*NET's "Professional Jockey", an
  // athlete's title); "Jockey" alone is the truck drivers' too, and the disc jockeys took
  // "Jockey -- race track" through their many "jockey" titles.
  {
    role: endsPart(String.raw`jockeys?`),
    setting:
      /\b(?:races?|racing|racetracks?|race ?horses?|thoroughbreds?|horses?|derby|steeplechase)\b/i,
    not: /\b(?:disc|dj|radio|truck|yard|car|gas|tractor|desk|valets?|agents?)\b/i,
    reading: "professional jockey",
  },
  // A room attendant of a hotel, motel, resort or lodge cleans guest rooms (maids and housekeeping
  // cleaners, 37-2012); O*NET lists "Room Attendant" under the room-service food servers and the
  // locker room attendants only, so "Room Attendant - Hotel" went there.
  {
    role: endsPart(String.raw`(?:room|rm) attendants?`),
    setting: new RegExp(String.raw`\b(?:${LODGING}|housekeeping|rooms division)\b`, "i"),
    // Another room's attendant ("Dish Room Attendant", "Linen Room Attendant") or room service.
    not:
      /\b(?:dish|locker|linen|dining|stock|tool|mail|game|card|coat|check|cloak|rest|wash|fitting|dressing|break|club|steam)\s*room\b|\broom service\b/i,
    reading: "guest room attendant",
  },
  // A hotel's, lodge's or camp's housekeeping aide cleans guest rooms too; O*NET lists
  // "Housekeeping Aide" only with the laundry workers.
  {
    role: endsPart(String.raw`housekeeping aides?`),
    setting: new RegExp(String.raw`\b(?:${LODGING}|camps?|cabins?)\b`, "i"),
    reading: "guest room attendant",
  },
  // A ski area's lift operator runs a recreation ride (amusement and recreation attendants, where
  // O*NET lists "Ski Lift Operator"); read as written, "Lift Operator" is the forklift drivers'.
  {
    role: endsPart(String.raw`(?:chair ?lift|lift) (?:operators?|attendants?)`),
    setting: /\b(?:ski|skiing|snowboard|snowboarding|chair ?lifts?|gondolas?|mountain ops)\b/i,
    reading: "ski lift operator",
  },
  // A supervisor, foreman, boss or superintendent of a carnival's rides or midway supervises
  // amusement attendants (39-1014, where O*NET lists "Rides Supervisor"); read as written, "Midway
  // Foreman" went to the production supervisors and "Ride Boss" to the attendants themselves.
  {
    role: endsPart(
      String.raw`(?:supervisors?|forem[ae]n|foreladies|forelady|boss(?:es)?|superintendents?)`,
    ),
    setting: /\b(?:rides?|midway|carnivals?|fairgrounds|traveling show|amusement rides?)\b/i,
    not:
      /\b(?:bus|shuttle|share|sharing|hail\w*|transit|maintenance|mechanics?|repair\w*|assembly|manufactur\w*|production|plant|factory)\b/i,
    reading: "rides supervisor",
  },
  // A game agent or operator of a carnival midway or a fair runs an amusement concession
  // ("Carnival Worker", amusement and recreation attendants); "Game Attendant" alone is also the
  // gambling services' and "Game Agent" the fish and game wardens'.
  {
    role: endsPart(String.raw`(?:games? (?:agents?|operators?|attendants?|workers?)|jointees?)`),
    setting: /\b(?:midway|carnivals?|fairs?|boardwalk|amusements?|circus|traveling show)\b/i,
    not: /\b(?:casino|gaming|wildlife|warden)\b/i,
    reading: "carnival worker",
  },
  // An attendant, operator or crew of a ride, a water park, a theme park's attractions or a
  // fair's midway is an amusement and recreation attendant (39-3091: SOC names operating rides and
  // amusement concessions); read as written, the generic role went to the passenger attendants,
  // the material movers or the production workers, all other ("Bumper Car Attendant").
  {
    role: endsPart(
      String
        .raw`(?:attendants?|operators?|ops?\.?|dispatchers?|associates?|team members?|workers?|crew(?: members?)?|hands?)`,
    ),
    setting:
      /\b(?:rides?|water ?parks?|theme parks?|amusement parks?|(?:park|ride|water park) attractions|water ?slides?|slide (?:attendants?|dispatch\w*)|wave pools?|lazy rivers?|bumper (?:cars?|boats?)|go[- ]?karts?|(?:mini(?:ature)?|putt[- ]?putt) golf|corn maze|carnivals?|midway|fairgrounds|county fairs?|state fairs?|arcades?|laser tag|batting cages?|zip ?lines?|ropes courses?|climbing walls?|snow tubing|tubing hill|dunk tanks?)\b/i,
    not:
      /\b(?:mechanics?|repair\w*|maintenance|electricians?|welders?|food|cooks?|kitchen|cashiers?|security|guards?|lifeguards?|supervisors?|managers?|leads?|forem[ae]n|drivers?|trucks?|housekeep\w*|janitor\w*|custodian\w*|cleaners?|restrooms?|talent|bus|shuttle|share|sharing|hail\w*|gates?|tickets?|admissions?|parking|concessions?|stands?)\b/i,
    reading: "amusement attendant",
  },
  // A rental attendant or technician of boats, bikes, kayaks or skis provides recreation equipment
  // (39-3091); read as written, the counter and rental clerks (41-2021) took them. A rental clerk
  // stays theirs.
  {
    role: endsPart(
      String.raw`(?:attendants?|techs?|technicians?|associates?|workers?)`,
    ),
    setting:
      /^(?=.*\b(?:rentals?|livery)\b)(?=.*\b(?:boats?|bikes?|bicycles?|kayaks?|canoes?|paddle ?boards?|paddleboards?|skis?|snowboards?|jet ?skis?|snowshoes?|beach chairs?|cabanas?)\b)/i,
    not: /\b(?:cars?|trucks?|vehicles?|equipment|tools?|uniforms?|apartments?|property|leasing)\b/i,
    reading: "amusement attendant",
  },
  // A shucker of a raw bar or an oyster bar prepares food (food preparation workers); O*NET lists
  // "Oyster Shucker" only with the seafood plants' cutters and trimmers.
  {
    role: endsPart(String.raw`(?:(?:oyster|clam) )?shuckers?`),
    setting:
      /\b(?:raw bar|oyster bar|oyster house|seafood house|restaurant|clam shack|crab shack)\b/i,
    not: /\b(?:plant|processing|packing|packer|cannery)\b/i,
    reading: "food preparation worker",
  },
  // SOC codes the pruning of crops, vines and orchard trees to the crop farmworkers (45-2092), and
  // the filings of farms say so; O*NET lists "Vine Pruner" and "Grape Pruner" with the tree
  // trimmers, whose work is roads' and utilities' trees and landscapes'.
  {
    role: endsPart(String.raw`pruners?`),
    setting: FARM_SETTING,
    cropsOnly: true,
    not:
      /\b(?:utility|utilities|right[- ]of[- ]way|row|line clearance|arborists?|landscap\w*|residential|municipal|parks?|climb\w*|bucket|city|county)\b/i,
    reading: "crop farmworker",
  },
  // A sorter, grader or culler of a farm's or packing shed's produce grades unprocessed
  // agricultural products (45-2041); read as written, the inspectors of manufactured goods
  // (51-9061) took them when the crop word was one O*NET lacks.
  {
    role: endsPart(String.raw`(?:sorters?|graders?|cullers?)`),
    setting: FARM_SETTING,
    cropsOnly: true,
    not:
      /\b(?:mail|parcels?|packages?|recycl\w*|scrap|lumber|logs?|metal|glass|laundry|textiles?|garments?|road|motor|warehouse|distribution|mills?|milling|chips?|(?:clean|rough)[- ]rice)\b/i,
    reading: "produce sorter",
  },
  // A harvester, planter, shaker, swather or tractor of a farm is driven by an agricultural
  // equipment operator (45-2091); read as written, the crop word took the crop farmworkers and a
  // tractor driver the industrial truck drivers.
  {
    role: endsPart(
      String
        .raw`(?:(?:harvesters?|combines?|planters?|shakers?|sweepers?|swathers?|balers?|tractors?) (?:operators?|drivers?)|equip(?:ment|\.)? (?:operators?|oper\.?|op\.?))`,
    ),
    setting: FARM_SETTING,
    not: /\b(?:warehouse|yard|terminal|port|trailer|semi|processing|plant|factory|creamery)\b/i,
    reading: "agricultural equipment operator",
  },
  // A farm's picker, topper, primer, weeder, thinner or field hand of a crop works the crop by hand
  // (45-2092); read as written, a crop word O*NET lacks left the generic role to the production
  // workers, all other ("Tobacco Primer", "Cucumber Picker"), or a cherry picker to the cranes. So
  // do a crop's knocker, snapper, blocker, looper, hander, stacker or turner ("Walnut Knocker",
  // "Raisin Tray Turner"; ranker 141). Cutters and pullers only of tobacco and suckers: O*NET's
  // "Corn Cutter" and "Vegetable Cutter" are the cutting machine tenders'.
  {
    role: endsPart(
      String
        .raw`(?:pickers?|toppers?|primers?|suckerers?|weeders?|hoers?|thinners?|bunchers?|stringers?|throwers?|tossers?|tiers?|(?:tobacco|burley|stalk) cutters?|knockers?|snappers?|blockers?|sucker pullers?|loopers?|handers?|croppers?|stackers?|turners?|pollinators?|field (?:hands?|workers?|laborers?))`,
    ),
    setting: FARM_SETTING,
    cropsOnly: true,
    not:
      /\b(?:dairy|poultry|chickens?|eggs?|turkeys?|warehouse|order|cannery|processing|plant|restaurant|crane|bucket truck|aerial|machine|mechanical|mills?|textiles?|garments?|cloth|fabric|factory|kitchen|deli|grocery|supermarket|stores?|produce department|trucks?|pallets?|palletiz\w*|loading|packinghouse|packing ?(?:house|shed|line)s?|buckers?|bale wagon)\b/i,
    reading: "crop farmworker",
  },
  // A picker, peeler, trimmer, cutter, slimer, header or line, plant or house worker of a seafood
  // or poultry plant cuts and trims the catch or the birds (51-3022); read as written, the generic
  // role went to the production workers, all other, the cutting machine tenders or, through
  // "salmon", the fishers. Not on a boat, a farm or a dock, in a cannery nor at a raw bar; a
  // filleter reads as O*NET has it ("Fish Filleter"). A processor or processing worker of salmon
  // or crawfish is one too: O*NET's "Fish Processor" is also the fishers'.
  {
    role: endsPart(
      String
        .raw`(?:pickers?|peelers?|trimmers?|cutters?|slimers?|headers?|deboners?|crackers?|backers?|sectioners?|gutters?|processors?|processing workers?|(?:line|plant|house|production) (?:workers?|associates?|laborers?))`,
    ),
    setting:
      /\b(?:crabs?|crab meat|crawfish|crayfish|shrimp|fish|salmon|pollock|halibut|cod|catfish|oysters?|clams?|scallops?|seafood|poultry|chickens?|turkeys?|evisceration|cut-?up|deboning|slime line|fish house)\b/i,
    not:
      /\b(?:restaurant|raw bar|oyster bar|boats?|vessels?|f\/v|fishing|fisherm[ae]n|deckhands?|farms?|ponds?|hatcher(?:y|ies)|traps?|seining|live hang|catchers?|docks?|offload\w*|unload\w*|feed|grower|breeders?|broilers?|layers?|(?:poultry|chicken|turkey) (?:house|barn)|grow-?out|cannery|canning|market|retail|counter|cook|machine)\b/i,
    reading: "seafood processor",
  },
  // A kill floor's worker, a hide puller or a stunner slaughters (51-3023); "Kill Floor Worker" went
  // to the janitors and the production workers, all other.
  {
    role: endsPart(
      String
        .raw`(?:kill floor (?:workers?|laborers?|associates?|hands?)|hide pullers?|stunners?|(?:slaughter|kill) (?:workers?|laborers?))`,
    ),
    setting: /\b(?:kill|slaughter\w*|beef|pork|hogs?|cattle|lambs?|meat|packing|plant|floor)\b/i,
    reading: "slaughterer",
  },
  // Any hand role of a kill floor or a slaughter line ("Knocker - Kill Floor", "Head Dropper - Kill
  // Floor", "Gutter, slaughter line") slaughters and dresses (51-3023); read as written, the
  // uncommon role went to the production workers, all other, or "head" to the supervisors. Not the
  // floor's supervisors, cleaners, mechanics or inspectors.
  {
    role: endsPart(String.raw`(?:[a-z]+ers?|hands?|workers?|laborers?|associates?)`),
    setting: /\b(?:kill (?:floor|line)s?|slaughter (?:floor|line)s?)\b/i,
    not:
      /\b(?:supervisors?|forem[ae]n|leads?|leaders?|managers?|sanitation|sanitors?|cleaners?|janitors?|mechanics?|maintenance|repair\w*|inspectors?|graders?|nurses?|clerks?|drivers?|security|trainers?)\b/i,
    reading: "slaughterer",
  },
  // A laborer, crew, hand or helper of landscape work O*NET's titles do not name (mulch, hardscape,
  // leaf cleanup, annual color, a golf course's divots and bunkers) is a landscaping worker
  // (37-3011: SOC names sod laying, mowing, trimming, planting, sprinkler installation and
  // mortarless walls); read as written, the generic role went to the material movers, the
  // construction laborers or the production workers, all other. Not a farm's, a nursery's or a
  // shop's: those are the crop farmworkers' and the mechanics'.
  {
    role: endsPart(
      String
        .raw`(?:labou?rers?|workers?|hands?|helpers?|rakers?|crew(?: members?| workers?)?|(?:edger|trimmer|mower|blower|weed ?eater) operators?)`,
    ),
    setting:
      /\b(?:landscap\w*|hardscap\w*|softscap\w*|mulch\w*|sod|turf|lawns?|mowing|mowers?|leaf (?:removal|clean-?ups?|blow\w*|collection|pickup)|leaves|fall cleanups?|spring cleanups?|flower ?beds?|annual colou?r|bed maintenance|weed ?eaters?|string trimmers?|divots?|(?:sand|golf) bunkers?|bunker rak\w*|golf (?:course|club)s?|grounds ?(?:crew|maintenance)|yard ?work|lawn sprinklers?)\b/i,
    not:
      /\b(?:farms?|crops?|orchards?|vineyards?|vines?|grapes?|nursery|greenhouse|ranch|alfalfa|hay|potato(?:es)?|corn|cotton|wheat|tobacco|berr(?:y|ies)|fruits?|vegetables?|tomato(?:es)?|citrus|produce|harvest\w*|repair\w*|mechanics?|shop|sales|retail|store|warehouse|supervisors?|forem[ae]n|leads?|leaders?)\b/i,
    reading: "landscape laborer",
  },
  // A worker, hand, crew or catcher of live farm animals (a hog barn, a lambing shed, an apiary, a
  // catfish farm, a foaling barn) attends to them (45-2093, whose SOC definition names cattle,
  // sheep, swine, poultry, fish, shellfish and bees); read as written, a word O*NET's titles lack
  // ("lambing", "apiary", "finisher") left the generic role to the production workers, all other.
  // So do a sheep camp's tender, a calf raiser and a branding crew's hand (ranker 141). Not a
  // processing plant's: those are the slaughterers' and the meat cutters'.
  {
    role: endsPart(
      String
        .raw`(?:workers?|laborers?|hands?|helpers?|attendants?|catchers?|loaders?|harvesters?|tenders?|raisers?|crew(?: members?| workers?)?)`,
    ),
    setting:
      /\b(?:lambing|calving|branding (?:season|crews?)|calf|sheep camps?|foaling|farrow\w*|hog ?barns?|swine|sow|piglets?|nursery pigs|finisher (?:site|barn)s?|feed ?lots?|feed ?yards?|cow-?calf|heifers?|calves|cattle|sheep|goats?|apiar(?:y|ies)|bee ?yards?|beekeep\w*|hives?|honey|broilers?|pullets?|layer (?:hens?|houses?|barns?|farms?)|(?:egg|hen) layers?|(?:poultry|chicken|turkey|egg) (?:farms?|houses?|barns?|ranch(?:es)?)|live haul|(?:chicken|turkey|poultry|broiler|hen)s? (?:catch\w*|load\w*)|catfish farms?|fish farms?|(?:trout|salmon|shrimp|oyster|clam|shellfish|crawfish|crayfish) (?:farms?|ponds?)|aquaculture|(?:thoroughbred|horse|equine|breeding|stud) farms?|hatcher(?:y|ies)|broodmares?|mares?|milking|dairy farms?)\b/i,
    not:
      /\b(?:plants?|processing|slaughter\w*|kill|packing|packers?|cannery|creamery|cheese|meat|deboning|evisceration|veterinar\w*|vet|clinic|hospital|racetracks?|race|track|show|zoo|kennels?|shelters?|supervisors?|foremen|foreman|leads?|leaders?)\b/i,
    reading: "livestock laborer",
  },
  // A farmworker, farm hand or laborer of a dairy, hogs, poultry or bees works with farm animals
  // (45-2093): "Farmworker - Hogs" and "Farmworker - Poultry (Layers)" went to the crop farmworkers,
  // O*NET's "Farmworker" being theirs too. Only these roles: O*NET's "Dairy Helper" is a plant's,
  // "Hog Worker" tends a wood hog, "Poultry Husbandry Worker" breeds animals.
  {
    role: endsPart(
      String
        .raw`(?:farm ?workers?|farm ?hands?|farm ?laborers?|ranch ?hands?|dairy (?:hands?|workers?|laborers?)|hands?|laborers?)`,
    ),
    setting:
      /\b(?:dair(?:y|ies)|calf|calves|cows?|cattle|steers?|heifers?|hogs|swine|sheep|goats?|poultry|chickens?|ducks?|geese|turkeys?|bees|beekeep\w*|apiar(?:y|ies)|hives?|livestock)\b/i,
    not:
      /\b(?:plants?|processing|slaughter\w*|kill|packing|packers?|cannery|creamery|cheese|meat|offal|husbandry|iron|supervisors?|foremen|foreman|leads?|leaders?)\b/i,
    reading: "livestock laborer",
  },
  // A laborer, hand, planter or collector of a forest, a tree farm or a seed orchard, or of
  // Christmas trees and wreath greens, is a forest and conservation worker (45-4011: SOC names
  // tree planters, seedling pullers and gatherers of nontimber forestry products); read as
  // written, the generic role went to the landscaping workers or the production workers, all
  // other.
  {
    role: endsPart(
      String
        .raw`(?:laborers?|workers?|hands?|planters?|collectors?|pickers?|gatherers?|tippers?|rakers?|balers?|brush cutters?|crew(?: members?| workers?)?)`,
    ),
    setting:
      /\b(?:forest\w*|reforestation|woods|woodlands?|tree planting|seedlings?|christmas trees?|tree farms?|seed orchards?|(?:pine|seed|fir|spruce) cones?|cones? (?:collect\w*|pick\w*|gather\w*)|balsam|wreath\w*|pine straw|fuels? reduction|timber stand|silvicultur\w*)\b/i,
    not:
      /\b(?:lots?|sales|retail|stores?|fire\w*|logging|loggers?|sawmill|mill|landscap\w*|utility|utilities|greenhouse|supervisors?|foremen|foreman|leads?|leaders?)\b|(?<!forest )\bnursery\b/i,
    reading: "forestry worker",
  },
  // A deckhand of a ferry, tug, barge, excursion or dinner-cruise boat is a sailor (53-5011);
  // O*NET lists "Deckhand" with the fishers (45-3031), the logging workers and the sailors alike,
  // and the fishers took such titles. A fishing boat's stays as written.
  {
    role: endsPart(String.raw`(?:deck ?hands?|line handlers?)`),
    setting:
      /\b(?:tours?|excursions?|cruises?|ferry|ferries|dinner|sightseeing|passengers?|whale|tug\w*|tow ?boats?|barges?|yachts?|river ?boats?|paddle\w*|harbou?rs?|water taxis?|marinas?)\b/i,
    not:
      /\b(?:fish\w*|crab\w*|lobster\w*|shrimp\w*|salmon|halibut|tuna|longlin\w*|trawl\w*|seine\w*|gillnet\w*|nets?|oysters?|scallops?|clams?|charters?|dredg\w*|logs?|logging)\b/i,
    reading: "boat crew deck hand",
  },
  // A spray rig's operator of lawns, orchards or crops applies pesticides (37-3012); O*NET lists
  // "Spray Rig Operator" only with the oil field's service unit operators.
  {
    role: endsPart(
      String
        .raw`(?:(?:spray rigs?|spray trucks?|sprayers?|spray) (?:operators?|drivers?|techs?|technicians?)|sprayers?)`,
    ),
    setting:
      /\b(?:lawns?|turf|orchards?|vineyards?|crops?|fields?|farms?|pesticides?|herbicides?|weeds?|airblast|landscap\w*|golf|nursery|greenhouse|trees?|agricultural|ag)\b/i,
    not:
      /\b(?:paint\w*|coatings?|foam|insulation|concrete|sealcoat\w*|asphalt|oil|gas|frac\w*|wells?|hydroseed\w*|fire)\b/i,
    reading: "pesticide applicator",
  },
  // A finisher of concrete flatwork, sidewalks or curbs is a concrete finisher (47-2051); O*NET
  // lists "Flatwork Finisher" only with the laundries' pressers.
  {
    role: endsPart(String.raw`(?:flatwork )?finishers?`),
    setting: /\b(?:concrete|cement|sidewalks?|curbs?|driveways?|slabs?|patios?)\b/i,
    not: /\b(?:drywall|wood|hardwood|furniture|paint\w*|textiles?|laundry|metal|leather|glass)\b/i,
    reading: "concrete finisher",
  },
  // A deer or wild-game processor cuts hunters' game into meat (butchers and meat cutters,
  // 51-3021); read as written, "game" and "deer" took the hunting workers.
  {
    role: endsPart(
      String.raw`(?:processors?|processing (?:workers?|crew|helpers?)|butchers?|meat cutters?)`,
    ),
    setting: /\b(?:deer|venison|elk|wild game|game processing|(?:deer|hunting) season)\b/i,
    not: /\b(?:fish\w*|seafood|crabs?|shrimp|poultry|chickens?|turkeys?)\b/i,
    reading: "butcher",
  },
  // A meat cutter of a supermarket, a grocery or a retail meat counter cuts consumer portions for
  // sale (butchers and meat cutters, 51-3021, whose SOC definition names retail establishments);
  // O*NET lists "Meat Cutter" with the processing plants' cutters and trimmers (51-3022) too, and
  // those took "Meat cutter, supermarket".
  {
    role: endsPart(String.raw`(?:meat ?cutters?|meat ?wrappers?)`),
    setting:
      /\b(?:supermarkets?|grocer(?:y|ies)|grocers?|retail|stores?|markets?|meat (?:counters?|departments?|shops?)|butcher shops?|delis?|delicatessens?)\b/i,
    not:
      /\b(?:plants?|processing|packing|packers?|packinghouse|slaughter\w*|abattoir|wholesale)\b/i,
    reading: "butcher",
  },
  // A colt starter breaks young horses to saddle (animal trainers, 39-2011, where O*NET lists
  // "Horse Breaker"); read as written, "starter" took the dispatchers and the race officials.
  {
    role: endsPart(String.raw`(?:colt|horse|bronc) starters?`),
    setting: /\b(?:colts?|horses?|bronc)\b/i,
    reading: "horse breaker",
  },
  // A hod carrier or a masonry crew's mortar mixer helps the brickmasons (47-3011, where O*NET
  // lists "Hod Carrier" beside the construction laborers).
  {
    role: endsPart(String.raw`(?:hod carriers?|mortar mixers?|mud mixers?)`),
    setting: /\b(?:hod|mason\w*|brick\w*|block ?lay\w*|stone ?work\w*)\b/i,
    reading: "brick mason helper",
  },
  // An excavator's, backhoe's, dozer's or skid steer's operator on a construction, utility or
  // site-work job runs construction equipment (47-2073); O*NET lists "Excavator Operator" and
  // "Heavy Equipment Operator" with the mines' and quarries' machine operators.
  {
    role: endsPart(
      String
        .raw`(?:excavator|backhoe|back hoe|trackhoe|track hoe|skid ?steer|bulldozer|dozer|front end loader|loader|motor grader|grader|mini ?ex|heavy equipment) (?:operators?|drivers?|oprs?|ops)`,
    ),
    setting:
      /\b(?:construction|site ?(?:prep\w*|work|development)|sewer|trench\w*|utility|utilities|underground|pipelines?|grading|earthwork|excavation|excavating|roads?|highway|paving|demolition|landscap\w*|contractors?|residential|commercial|civil|water ?mains?|storm ?water|septic|foundations?|skid ?steer)\b/i,
    not:
      /\b(?:mines?|mining|quarr(?:y|ies)|pits?|coal|aggregates?|log\w*|forestry|farms?|ranch\w*|dairy|feedlots?|feed ?yards?|warehouse|ports?|docks?|rail\w*|landfill|scrap|recycl\w*)\b/i,
    reading: "heavy construction equipment operator",
  },
  // An attendant, orderly or aide of a psychiatric ward or a mental hospital is a psychiatric aide
  // (31-1133); read as written, the orderlies (31-1132) took them.
  {
    role: endsPart(String.raw`(?:attendants?|orderl(?:y|ies)|aides?)`),
    setting: /\b(?:psychiatric|psych|mental (?:hospital|health|ward)|behavioral health)\b/i,
    not: /\b(?:nurs\w*|social|counsel\w*|therap\w*|case|teachers?|classroom|school)\b/i,
    reading: "psychiatric aide",
  },
  // A lunch counter's, diner's or coffee shop's counterman serves food at the counter (35-3023);
  // O*NET's "Counterman" is the parts salespersons'.
  {
    role: endsPart(String.raw`(?:counter ?m[ae]n|counter ?persons?|counter ?workers?)`),
    setting:
      /\b(?:lunch\w*|diners?|coffee|food|restaurants?|cafes?|cafeteria|snack\w*|soda fountain|deli|delicatessen|sandwich\w*|drive-?in|fountain)\b/i,
    reading: "snack bar attendant",
  },
  // A diner's, lunch counter's or coffee shop's cook is a short order cook (35-2015); read as
  // written, the institution and cafeteria cooks took them.
  {
    role: endsPart(String.raw`cooks?`),
    setting: /\b(?:diners?|lunch counters?|coffee shops?|luncheonettes?|greasy spoon)\b/i,
    reading: "short order cook",
  },
  // A turnover or changeover cleaner of vacation rentals, condos or cabins cleans guest lodging
  // (maids and housekeeping cleaners, 37-2012); read as written, the vehicle cleaners took them.
  {
    role: endsPart(String.raw`(?:cleaners?|housekeepers?)`),
    setting:
      /\b(?:turnovers?|changeovers?|vacation rentals?|short[- ]term rentals?|condos?|condominiums?|cabins?|cottages?|airbnb)\b/i,
    not:
      /\b(?:office|commercial|windows?|carpets?|industrial|vehicles?|cars?|boats?|equipment|pressure|ducts?|janitor\w*|pool|kitchen|dish\w*|laundry|aircraft|airlines?|flights?|planes?|aviation)\b/i,
    reading: "housekeeping cleaner",
  },
  // A supervisor, crew leader or foreman of a farm's crops or animals (a tobacco crew, a milking
  // shift, a nursery crew) is a farm supervisor (45-1011); read as written, a crop word O*NET's
  // titles have only of manufacturing ("tobacco") took the production supervisors.
  {
    role: endsPart(
      String
        .raw`(?:supervisors?|crew (?:lead(?:er)?s?|boss(?:es)?|chiefs?)|row boss(?:es)?|forem[ae]n|field bosse?s?)`,
    ),
    setting:
      /\b(?:farms?|farming|ranch|orchards?|vineyards?|vines?|grapes?|fruits?|vegetables?|crops?|harvest\w*|nursery|greenhouse|h-?2a|berr(?:y|ies)|blueberr(?:y|ies)|strawberr(?:y|ies)|cherr(?:y|ies)|apples?|citrus|melons?|watermelons?|tomato(?:es)?|potato(?:es)?|onions?|tobacco|cotton|corn|hay|alfalfa|hops?|detassel\w*|milking|dairy|herds?|livestock|cattle|poultry farms?|hatcher(?:y|ies))\b/i,
    not:
      /\b(?:plants?|processing|factory|cannery|warehouse|distribution|stores?|retail|sales|landscap\w*|construction|mills?|packing ?houses?|packinghouse|sheds?|shop|mechanics?|maintenance|kitchen|food|restaurants?|grocery|produce (?:department|manager)|security|transport\w*|trucking|drivers?|gins?|grading|milling|oil|wells?|solar|pipe ?lines?|roustabouts?|assembly|residential|infants?|child\w*|day ?care|preschool|toddlers?|bab(?:y|ies)|correction\w*|prisons?|inmates?)\b/i,
    reading: "farm supervisor",
  },
  // A packer of a packing shed's or packinghouse's crops, or of a crop without a field, packs
  // produce by hand (53-7064, where O*NET lists "Agricultural Produce Packer"); a field packer
  // works the harvest (the next row).
  {
    role: endsPart(String.raw`(?:packers?|baggers?)`),
    setting: new RegExp(
      String
        .raw`${CROP_SETTING.source}|\b(?:packing ?(?:sheds?|houses?|lines?)|packinghouses?|clamshells?)\b`,
      "i",
    ),
    cropsOnly: true,
    not:
      /\b(?:fields?|meat|poultry|fish|seafood|shrimp|crabs?|oysters?|plants?|factory|cannery|grocery|stores?|retail|warehouse|distribution|movers?|moving|household|supervisors?|leads?|forem[ae]n|machines?|operators?|harvest\w*|balls?|rolls?)\b/i,
    reading: "agricultural produce packer",
  },
  {
    role: endsPart(String.raw`packers?`),
    setting: new RegExp(String.raw`^(?=.*\bfields?\b)(?=.*(?:${CROP_SETTING.source}))`, "i"),
    cropsOnly: true,
    reading: "crop farmworker",
  },
  // A feed truck's, feed mixer's, grain cart's or farm tractor's driver on a feedyard, a dairy, an
  // orchard or a custom harvest drives farm equipment (45-2091); read as written, the truck
  // drivers (53-3032) took them.
  {
    role: endsPart(
      String
        .raw`(?:(?:feed (?:trucks?|mixers?|wagons?)|mixer trucks?|bin trailers?|bin trailer tractors?|grain carts?|silage trucks?|tractors?) (?:drivers?|operators?|oprs?))`,
    ),
    setting:
      /\b(?:dairy|dairies|feed ?yards?|feed ?lots?|cattle|rations?|orchards?|vineyards?|farms?|ranch\w*|custom (?:harvest\w*|combin\w*)|harvest\w*|grain carts?|crops?|fields?)\b/i,
    not:
      /\b(?:construction|highway|otr|cdl|freight|semi|tractor[- ]trailers?|trucking|warehouse|yard jockey|terminal|ports?|lawn|garden)\b/i,
    reading: "agricultural equipment operator",
  },
  // A tester, test lead or QA analyst of software, apps, games or a business system (manual,
  // automation, UAT, ETL, a bank's or an insurer's platform) tests software (15-1253); O*NET lists
  // "Quality Assurance Tester" and "Tester" with the manufacturing inspectors too, and "Test Lead"
  // went to the production supervisors.
  {
    role: endsPart(
      String
        .raw`(?:testers?|test (?:leads?|analysts?|engineers?|managers?|specialists?)|qa (?:leads?|analysts?|engineers?|testers?|specialists?)|quality assurance (?:leads?|testers?|analysts?)|uat (?:leads?|testers?|analysts?)|testing (?:leads?|analysts?))`,
    ),
    setting:
      /\b(?:software|manual|mobile|web|apps?|applications?|games?|gaming|video games?|banking|payments?|automation|automated|selenium|appium|api|etl|data ?warehous\w*|sap|erp|crm|guidewire|salesforce|temenos|ui|uat|user acceptance|regression|portals?|claims|policy ?center|billing ?center|core banking|it|cloud|saas|ecommerce|e-commerce|digital)\b/i,
    not:
      /\b(?:manufactur\w*|production|plant|factory|assembly|materials?|welds?|welding|ndt|non-?destructive|laborator\w*|lab|food|concrete|soil|asphalt|electrical|electronics?|circuits?|pcbs?|hardware|semiconductor|automotive|vehicles?|aircraft|water|gas|meters?|cables?|fiber|hvac|fire|pressure|hydrostatic|backflow|emissions?|drugs?|alcohol|medical devices?|inspectors?|supervisors?|managers?|security|penetration|pen)\b/i,
    reading: "software test analyst",
  },
  // A maintenance worker of a resort, hotel, camp, marina or building repairs and maintains it
  // (general maintenance and repair workers, 49-9071); read as written, the setting's words took
  // the landscaping workers or the janitors (O*NET lists "Maintenance Worker" under six codes).
  {
    role: endsPart(
      String
        .raw`(?:(?:building |facilit(?:y|ies) |general )?maintenance (?:workers?|persons?|associates?|helpers?)|handym[ae]n)`,
    ),
    setting:
      /\b(?:resorts?|hotels?|motels?|lodges?|inns?|marinas?|cabins?|camps?|campgrounds?|condos?|condominiums?|apartments?|propert(?:y|ies)|buildings?|school districts?|facilit(?:y|ies))\b/i,
    not:
      /\b(?:grounds|landscap\w*|lawns?|golf|turf|horticultur\w*|gardens?|pools?|janitor\w*|custodi\w*|housekeep\w*|cleaning|highways?|roads?|rail\w*|aircraft|vehicles?|fleet)\b/i,
    reading: "general maintenance worker",
  },
  // A line, fry, grill or pizza cook of a full-service restaurant, a crab house or a seafood shack
  // cooks to order in a restaurant (35-2014); O*NET lists "Fry Cook" and "Line Cook" with the
  // fast food cooks too, and "Pizza Cook" with the short order cooks. Not a fast-food, diner,
  // cafeteria or food truck's cook, nor a prep cook.
  {
    role: endsPart(
      String.raw`(?:(?:line|fry|grill|pizza|saute|sauté|broiler|pantry|station|pit) )?cooks?`,
    ),
    setting:
      /\b(?:restaurants?|crab (?:shacks?|houses?)|seafood (?:houses?|shacks?|kitchens?)|steak ?houses?|bistros?|oyster (?:bars?|houses?)|clam shacks?|supper clubs?|fine dining|dining rooms?|brasseries?|trattorias?|pizzerias?)\b/i,
    not:
      /\b(?:fast[- ]?food|quick[- ]service|qsr|drive[- ]?ins?|drive[- ]?thrus?|cafeterias?|schools?|hospitals?|institution\w*|diners?|lunch counters?|coffee shops?|boardwalk|carnivals?|concessions?|food (?:trucks?|trailers?|stands?)|prep|preparation|chefs?|head|sous|supervisors?|managers?|leads?|crew ?members?|cashiers?)\b/i,
    reading: "restaurant cook",
  },
  // A laborer of a pipeline, a sealcoat crew, a trench or a construction site works in construction
  // (47-2061); read as written, "laborer" went to the hand material movers or, through
  // "pipeline", the pump operators. Not a paving or a concrete crew's laborer (O*NET codes them
  // with the pavers and the concrete finishers) nor a trail's or a watershed's.
  {
    role: endsPart(String.raw`(?:labou?rers?|labrers?|crew laborers?)`),
    setting:
      /\b(?:pipeline|sealcoat\w*|trench\w*|docks? construction|construction|demolition|right[- ]of[- ]way|utility installation|site work|sitework|excavation)\b/i,
    not:
      /\b(?:farms?|crops?|landscap\w*|lawns?|golf|nursery|greenhouse|warehouse|factory|plant|production|mines?|mining|quarr(?:y|ies)|oil|gas fields?|railroad|rail|helpers?|concrete|paving|asphalt|watershed|trails?|restoration|forest\w*|conservation)\b/i,
    reading: "construction laborer",
  },
  // A sergeant, lieutenant or captain of a jail, a prison or corrections supervises correctional
  // officers (33-1011, where O*NET lists "Correctional Officer Captain"); read as written, the
  // rank went to the officers, the police supervisors or, through "captain", the ships' masters.
  {
    role: endsPart(String.raw`(?:sergeants?|lieutenants?|captains?)`),
    setting:
      /\b(?:correction\w*|jails?|prisons?|detention|penitentiar(?:y|ies)|inmates?|custody)\b/i,
    reading: "correctional supervisor",
  },
  // A boiler's or a plant's fireman fires the boilers (51-8021, where O*NET lists "Boiler Fireman"
  // and "Stationary Fireman"); a fire department's or a locomotive's stays as written.
  {
    role: endsPart(String.raw`(?:firem[ae]n|fire ?persons?)`),
    setting:
      /\b(?:boilers?|stationary|furnaces?|heating plants?|power ?(?:house|plant)s?|factory|plants?|hospitals?|schools?|steam)\b/i,
    not:
      /\b(?:fire (?:department|dept|station|district|fighting)|municipal|city|volunteer|engine company|locomotive|railroad|rail|marine|ships?|vessels?)\b/i,
    reading: "boiler operator",
  },
  // A vessel's engineer, chief or assistant ("Engineer, chief -- merchant vessel", "Tugboat
  // Engineer", "Fishing Boat Engineer") runs its engines (53-5031, O*NET's "Ship Engineer"); read
  // as written, the bare engineer went to the engineers of any field (aerospace, civil) or the
  // setting's workers (the fishers). Not one who designs or builds them.
  {
    role: endsPart(
      String
        .raw`(?:(?:chief|assistant|first|second|third|1st|2nd|3rd|licensed|marine|boat|tug|tugboat|towboat|ferry|vessel) )?engineers?`,
    ),
    setting:
      /\b(?:ships?|vessels?|tug ?boats?|tugs?|towboats?|boats?|ferr(?:y|ies)|barges?|merchant marine|steamships?|freighters?|tankers?)\b/i,
    not:
      /\b(?:naval|architect\w*|design\w*|software|systems?|project|structural|electrical|electronics?|mechanical|civil|test|quality|process|manufacturing|sales|field service|applications?|yacht design|shipyard|shipbuilding|builders?|repair|service|maintenance|marine engineering|diesel|locomotive|railroad|dredg\w*|equipment)\b/i,
    reading: "ship engineer",
  },
  // A night watchman or a gate's watchman of a yard, a plant or a site guards it (33-9032); read as
  // written, the setting took the yard's or the plant's laborers. A farm's night watch of foaling
  // mares tends them (the farm-animal row above).
  {
    role: endsPart(
      String
        .raw`(?:(?:night )?watchm[ae]n|watch ?(?:persons?|m[ae]n)|night watch(?:m[ae]n|persons?)?)`,
    ),
    setting:
      /\b(?:night|gates?|yards?|lumber ?(?:yard|mill)s?|mills?|plants?|factor(?:y|ies)|buildings?|warehouses?|propert(?:y|ies)|construction|sites?)\b/i,
    not:
      /\b(?:crossings?|railroad|rail|fire|bridges?|ships?|vessels?|decks?|foaling|mares?|horses?|barns?|farms?|ranch\w*|lifeguard\w*|pools?|beach\w*)\b/i,
    reading: "security guard",
  },
  // A fast-food, drive-in, quick-service, concession or food trailer's cook is a fast food cook
  // (35-2011); read as written, the restaurant cooks took them.
  {
    role: endsPart(String.raw`(?:(?:fry|grill|line|station|funnel cake|concession) )?cooks?`),
    setting:
      /\b(?:fast[- ]?food|drive[- ]?ins?|drive[- ]?thrus?|quick[- ]service|qsr|burgers?|concessions?|food (?:trucks?|trailers?|stands?|courts?)|boardwalk|carnivals?|fairs?|ballparks?|stadiums?)\b/i,
    not: /\b(?:chefs?|head|sous|supervisors?|managers?|leads?|prep|preparation|short[- ]order)\b/i,
    reading: "fast food cook",
  },
  // A coffee shop's, steakhouse's or restaurant's waitress or server waits tables (35-3031); read as
  // written, "coffee shop" took the counter workers.
  {
    role: endsPart(String.raw`(?:waiters?|waitress(?:es)?|servers?|wait ?staff)`),
    setting:
      /\b(?:coffee shops?|steak ?houses?|diners?|restaurants?|bistros?|supper clubs?|grills?|crab (?:shacks?|houses?)|seafood (?:houses?|shacks?))\b/i,
    not:
      /\b(?:banquets?|catering|caterers?|room service|cafeterias?|fast[- ]?food|counters?|drive[- ]?ins?|food courts?|process|web|database|servers? (?:admin\w*|engineers?)|hospitals?|schools?)\b/i,
    reading: "waiter",
  },
  // A bucket truck's or a utility right-of-way's trimmer trims trees (37-3013, where O*NET lists
  // "Line Clearance Trimmer"); read as written, "trimmer" went to the production workers or the
  // meat trimmers.
  {
    role: endsPart(String.raw`trimmers?`),
    setting: /\b(?:bucket trucks?|right[- ]of[- ]way|row|line clearance|utility|utilities)\b/i,
    not: /\b(?:meat|poultry|fish|beef|pork|hair|dog|pet|textiles?|rubber|window|hedge)\b/i,
    reading: "line clearance trimmer",
  },
  // A marina's or boat yard's dock hand serves the boats (53-6031, where O*NET lists "Dock
  // Attendant"); "Dock Hand" alone is also the hand material movers'.
  {
    role: endsPart(String.raw`(?:dock ?hands?|dock attendants?|dock workers?|dock boys?)`),
    setting:
      /\b(?:marinas?|boat ?yards?|boat (?:launch|ramp|rental)s?|yacht (?:clubs?|harbou?rs?))\b/i,
    reading: "dock attendant",
  },
  // A product, interaction or visual designer of an app, a web platform, a checkout or a design
  // system designs digital interfaces (15-1255); O*NET lists "Product Designer" with the industrial
  // designers and "Interaction Designer" with the animators. ("UX Product Designer" is O*NET's
  // industrial designers' as written, so "ux" alone is not this row's setting.)
  {
    role: endsPart(String.raw`(?:product|interaction|visual) designers?`),
    setting:
      /\b(?:mobile|apps?|web|websites?|platforms?|saas|software|digital|growth|checkout|payments?|design systems?|search|voice|e-?commerce|hmi|fintech|onboarding|dashboards?)\b/i,
    not: /\b(?:furniture|toys?|footwear|apparel|fashion|packaging|industrial|hardware|lighting)\b/i,
    reading: "web designer",
  },
  // A UX or UI designer is one too: O*NET lists "UX Designer" with the software testers as well,
  // and the two tied.
  {
    role: endsPart(String.raw`(?:ux|ui|ux ?/ ?ui|ui ?/ ?ux|user experience) designers?`),
    setting: /\b(?:ux|ui|user experience)\b/i,
    reading: "web designer",
  },
  // A consultant, associate or analyst of strategy, management consulting, transformation,
  // operational excellence or business process improvement is a management analyst (13-1111);
  // read as written, "operations" took the operations research analysts and "transformation" or
  // "strategy" whatever O*NET has with them (business continuity planners, search marketing
  // strategists). Not a technology, data, marketing or finance role's.
  {
    role: endsPart(
      String
        .raw`(?:consultants?|associates?|analysts?|advisors?|engagement managers?|senior managers?, (?:advisory|consulting))`,
    ),
    setting:
      /\b(?:strategy|management consulting|consulting|transformation|operations? excellence|operational excellence|process improvement|performance improvement|business process(?:es)?|human capital|six sigma|lean|methods and procedures)\b/i,
    not:
      /\b(?:data|it|tech|technology|technical|software|systems?|cyber\w*|security|marketing|brand|digital|projects?|sap|oracle|salesforce|workday|erp|crm|cloud|clinical|research|regulatory|tax|audit|assurance|actuarial|investment|financial|finance analysts?|credit|risk|supply chain|procurement|sales|customer|client|benefits|compensation|recruit\w*|talent|learning|training|legal|environmental|energy|engineering|fraud|quant\w*|underwriting|pricing|trading|portfolio|econom\w*|antitrust|valuation|deal advisory|corporate finance|accounting|air quality|construction|disputes|managed care|contracting|sustainability|modeling|games?)\b/i,
    reading: "management analyst",
  },
  // A systems, integration, solution or production support analyst analyses computer systems
  // (15-1211, O*NET's "Computer Systems Analyst"); O*NET lists "Systems Analyst" under seven codes,
  // and the tie went to the software developers, or a qualifier ("Core Banking") took its domain's
  // analysts. Not a health, security, network or business one, nor one O*NET codes by its domain
  // ("Supply Chain Systems Analyst", "Accounting Systems Analyst").
  {
    role: endsPart(
      String
        .raw`(?:(?:computer |it |edp |information )?systems analysts?|(?:systems )?integration analysts?|solutions? analysts?|production support analysts?)`,
    ),
    setting: /\b(?:systems?|integration|solutions?|production support)\b/i,
    not:
      /\b(?:health|business|security|cyber\w*|network|financial|budget|operations|research|data|quality|safety|environmental|energy|management|engineering|weapons?|defen[cs]e|transportation|traffic|water|power|hr|human resources|payroll|accounting|geographic|gis|publishing|records?|supply chain|sustainab\w*)\b/i,
    reading: "computer systems analyst",
  },
  // A laborer, hand or crew whose title names a crop, an orchard or a vineyard ("Cotton Hoeing
  // Laborer", "Hop Yard Laborer", "Farm Labor - Sweet Cherries") is a crop farmworker (45-2092);
  // read as written, the generic role went to the material movers (53-7062), the production
  // workers, all other, or the farm animal workers. Not a store's, a plant's, a shed's or a
  // construction site's; a farm's or a field's without a crop word reads as O*NET has it.
  {
    role: endsPart(
      String
        .raw`(?:labou?rers?|labou?r|workers?|hands?|crew(?: members?| workers?)?|ag (?:labou?rers?|workers?))`,
    ),
    setting: CROP_SETTING,
    cropsOnly: true,
    not:
      /\b(?:plants?|processing|cannery|canning|factory|mills?|packing|packers?|packinghouse|sheds?|warehouse|distribution|grocery|supermarket|market|stores?|retail|sales|department|construction|landscap\w*|lawns?|mechanics?|shop|drivers?|operators?|supervisors?|forem[ae]n|leads?|leaders?|managers?|technicians?|boss|contractors?|combines?|op|buckers?|stackers?|sort\w*|grad\w*|lines?|cooks?|kitchen|camps?|ranch\w*|dairy|poultry|eggs?|oysters?|clams?|crawfish|fish|shellfish|ponds?|athletic|sports?|ball ?fields?|grounds|parks?|trees?|nursery|greenhouse|stables?|thoroughbreds?|breeding|worms?|maintenance|day ?care|health|community|rooms?)\b/i,
    reading: "crop farmworker",
  },
];

/** An exclusion clause, up to a bracket or the end ("exc. livestock", "except retail"). */
const EXCLUSION_CLAUSE = new RegExp(String.raw`${EXCLUSION_WORD}\.?[^()[\]{}]*`, "gi");

/**
 * The reading of a title whose occupation its setting decides (SETTINGS: a racetrack's groom is an
 * animal caretaker, a hotel's room attendant a maid), or null.
 */
export function settingReading(raw: string): string | null {
  // What an exclusion clause names is no setting ("Farmworker -- exc. livestock").
  const title = raw.replace(EXCLUSION_CLAUSE, " ");
  for (const { role, setting, not, cropsOnly, reading } of SETTINGS) {
    if (!role.test(title) || !setting.test(title) || not?.test(title)) continue;
    if (cropsOnly && LIVESTOCK.test(title)) continue;
    return reading;
  }
  return null;
}

/**
 * An accounting firm's tax associate, tax staff or tax senior ("Tax Senior", "International Tax
 * Senior Associate", "Tax Staff - Partnership") is a tax accountant: O*NET lists "Tax Associate"
 * under the accountants, the tax examiners and the tax preparers alike, and "Tax Senior" cleans to
 * "tax" alone, which went to the examiners (the revenue service's) or the preparers. A bare "tax"
 * reads so only when the title as written had a firm's rank ("Senior", "Associate", "Staff"); an
 * analyst, specialist, consultant or examiner of tax stays as O*NET lists it, and so does the
 * practice's director, manager or partner.
 */
export function taxPractice(text: string, raw: string): string {
  if (!text.includes("tax")) return text;
  const m = text.match(/^((?:[a-z]+ ){0,2})tax(?: (associate|staff))?$/);
  if (!m) return text;
  if (!m[2] && !/\b(?:senior|associate|staff)\b/i.test(raw)) return text;
  // A director, manager, head or partner of tax leads the practice ("Senior Director Tax").
  if (/\b(?:director|manager|head|chief|vp|vice president|partner|principal)\b/i.test(raw)) {
    return text;
  }
  return `${m[1]}tax accountant`;
}

/** A lower-case letter before a comma and a capital after it: "Software Engineer, Machine Learning". */
const CAPITALISED_AFTER_COMMA = /[a-z][^,]*,\s*[A-Z]/;

/**
 * An employer's title before a comma, and a qualifier after it in capitals ("Software Engineer,
 * Machine Learning", "Systems Administrator, Cloud Infrastructure"): the qualifier is a team, a
 * product or a setting, read as the part after a dash is. Read as the title's domain (catalog word
 * order, `uninvert`), its words took the answer ("machine learning software engineer" went to the
 * data scientists, "supply chain applications systems analyst" to the logistics analysts). Only
 * when what precedes the comma is a title of two words or more that names few occupations
 * (`isTitle`): a generic one ("Research Scientist, Protein Engineering": 21 occupations) needs the
 * field after the comma, and so does a manager's, director's, lead's or vice president's title
 * ("Vice President, Human Resources", "Executive Director, Marketing": the function is the role).
 * A coding index writes the words after its comma in lower case, and they are the title's domain
 * ("Setup man, can-making machine"), as are an all-capitals title's.
 */
function titleBeforeComma(
  part: string,
  capitalised: boolean,
  isTitle: (segment: string) => boolean,
): string[] {
  const comma = part.indexOf(",");
  if (!capitalised || comma <= 0) return [part];
  const head = part.slice(0, comma);
  const after = part.slice(comma + 1);
  // An exclusion clause after the comma ("Exc. Testing") goes either way: dropExclusion empties
  // the part it is in.
  if (!/[a-z]/.test(after)) return [part];
  // A lead's title is its role's ("Lead Data Scientist, Forecasting").
  const cleaned = cleanSegment(head).replace(/^lead /, "");
  const last = cleaned.slice(cleaned.lastIndexOf(" ") + 1);
  if (
    !cleaned.includes(" ") || Object.hasOwn(ROLE_WORDS, last) || last === "president" ||
    !isTitle(cleaned)
  ) {
    return [part];
  }
  return [head, after];
}

/**
 * Catalog word order: "operator, bottling machine" is a bottling machine operator, "nurse,
 * registered" a registered nurse. A part of one or two words before the first comma, followed by
 * more words, is the role and moves to the end; anything else keeps its order.
 */
function uninvert(segment: string): string {
  const comma = segment.indexOf(",");
  if (comma <= 0) return segment;
  const head = segment.slice(0, comma).trim();
  const rest = segment.slice(comma + 1).replace(/,/g, " ").trim();
  if (!(/[a-z]/.test(rest) || TITLE_NUMBERS.has(rest)) || head.split(/\s+/).length > 2) {
    return segment;
  }
  // An index's "Lead, X" is X's first-line supervisor ("Lead, cashier"); it writes a senior
  // worker as "lead X" ("Lead mechanic"). O*NET has no title in that form.
  return `${rest} ${head === "lead" ? "supervisor" : head}`;
}

function lookup(table: Record<string, string>, key: string): string | undefined {
  return Object.hasOwn(table, key) ? table[key] : undefined;
}

/**
 * Numbers that are words of a job ("911 Dispatcher", "411 Directory Assistance Operator", both
 * O*NET titles): kept where any other number (a level, a store, a requisition) is dropped.
 */
const TITLE_NUMBERS = new Set(["911", "411"]);

/** A word that only says a level or a number ("II", "Sr", "3"): a title's role may precede it. */
function isLevel(token: string): boolean {
  return NOISE_WORDS.has(token) || /^\d+$/.test(token) || token === "i";
}

/**
 * A doctorate ("Economist (Ph.D.)", "PhD Chemist"): a requirement, not an occupation. Written
 * "Ph. D." its "ph" read as an employer's contraction of "pharm" ("Pharm D"), which took the
 * pharmacists.
 */
const DOCTORATE = /\bph\.?\s?d\b\.?/g;

function cleanSegment(segment: string): string {
  const tokens = tokenize(
    segment.replace(DOCTORATE, " ").replace(/\b([a-z]+)-(?=[a-z]\b)/g, "$1 "),
  );
  const out: string[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i];
    if (NOISE_WORDS.has(token)) continue;
    if ((/^\d+$/.test(token) || /\d{3,}/.test(token)) && !TITLE_NUMBERS.has(token)) continue;
    if (tokens[i - 1] === "cdl" && /^[abc]$/.test(token)) continue; // licence class: CDL-A
    // A school's span of grades ("K-12 Principal", "K-8 Counselor"): the K goes with the number
    // ("K-9" is a police dog's).
    if (token === "k" && /^(?:[1-8]|1[0-2])$/.test(tokens[i + 1] ?? "")) continue;
    // A level numeral ("Accountant I"; II and up are noise words): "i" last, after a word.
    if (token === "i" && i > 0 && i === tokens.length - 1) continue;
    // "Travel - MS/Tele - Nurse Job": the posting's word for itself, last, after a word.
    if (token === "job" && i > 0 && i === tokens.length - 1) continue;
    if (
      Object.hasOwn(ROLE_ABBREVIATIONS, token) && tokens.slice(i + 1).every(isLevel) &&
      !(token === "op" && /^(?:post|pre)$/.test(tokens[i - 1] ?? "")) // post-op: post-operative
    ) {
      out.push(ROLE_ABBREVIATIONS[token]);
    } else if (token === "admin" || token === "admins") {
      out.push(ADMINISTRATIVE_BEFORE.has(tokens[i + 1] ?? "") ? "administrative" : "administrator");
    } else {
      out.push(
        lookup(ABBREVIATIONS, token) ?? lookup(READINGS, token) ?? lookup(GENDERED, token) ?? token,
      );
    }
  }
  // An abbreviation next to its expansion ("Registered Nurse (RN)") must not count twice.
  return [...new Set(out.join(" ").split(" "))].join(" ");
}

/** Gendered forms folded to the form O*NET titles use. */
const GENDERED: Record<string, string> = {
  actress: "actor",
  waitress: "waiter",
  hostess: "host",
  stewardess: "steward",
  seamstress: "sewer",
  salesman: "salesperson",
  saleswoman: "salesperson",
  saleslady: "salesperson",
  salesgirl: "salesperson",
  salesmen: "salesperson",
  foreman: "supervisor",
  forewoman: "supervisor",
  foreperson: "supervisor",
  chairman: "chair",
  chairwoman: "chair",
  cameraman: "camera operator",
  repairman: "repairer",
  serviceman: "repairer",
  handyman: "maintenance worker",
  fireman: "firefighter",
  policeman: "police officer",
  policewoman: "police officer",
  mailman: "mail carrier",
};

/** A bracketed group that ends a title. */
const TRAILING_BRACKET = /\s*[([{][^()[\]{}]*[)\]}]\s*$/;
/** A bracketed group anywhere in a title. */
const BRACKET = /[([{][^()[\]{}]*[)\]}]/;
const BRACKETS = new RegExp(BRACKET.source, "g");

/**
 * The part of a cleaned title its role head is read from: without the words of a bracket of the
 * raw title ("Sawyer (logging)" is cleaned to "sawyer logging", whose role is the sawyer's), when
 * the cleaned title ends with them and has other words. The bracket may stand before a part the
 * cleaning dropped: "Backend Engineer (Java/Spring) - Loyalty Services" is an engineer, not a
 * spring (ranker 108).
 */
export function headText(cleaned: string, raw: string): string {
  if (!BRACKET.test(raw)) return cleaned;
  const words = cleaned.split(" ");
  for (const bracket of [...raw.matchAll(BRACKETS)].reverse()) {
    const inner = tokenize(foldText(bracket[0]));
    if (inner.length === 0) continue;
    // The cleaning keeps a word once: "BI Developer (Power BI/SSAS)" is "bi developer power
    // ssas", whose tail is the bracket's words but the one the title had before it.
    const bracketWords = new Set(inner);
    let tail = 0;
    while (tail < words.length && bracketWords.has(words[words.length - 1 - tail])) tail++;
    if (tail === 0 || tail === words.length || !inner.every((w) => words.includes(w))) continue;
    return words.slice(0, -tail).join(" ");
  }
  return cleaned;
}

/** Prepositions after which a title's words qualify its head ("Director of Sales"). */
const HEAD_BREAKS = new Set(["of", "for", "in", "at", "to", "with", "on", "from", "and", "or"]);

/**
 * The role head of a title: the head noun of its first noun phrase, singular and folded.
 * "Night Shift ICU Nurse" → "nurse", "Director of Sales" → "director", "Nurse, Registered" →
 * "nurse". Empty when the title has no words.
 */
export function roleHead(title: string): string {
  // A bracket after the title qualifies it ("Sawyer (Logging)", "Farm Worker (Vegetables)") or
  // writes it another way ("Strategic Debriefing Specialist (SDS)"): the role is outside it.
  const outside = title.replace(TRAILING_BRACKET, "");
  const firstPart = foldText(/\p{L}/u.test(outside) ? outside : title).split(/,|\s[-–—]\s|\//)[0];
  const tokens = tokenize(firstPart);
  let end = tokens.findIndex((t, i) => i > 0 && HEAD_BREAKS.has(t));
  if (end < 0) end = tokens.length;
  for (let i = end - 1; i >= 0; i--) {
    const token = tokens[i];
    // A last "I" after other words is a level ("Technician I"), not a word ("I and E Tech").
    const level = token === "i" && i > 0 && i === end - 1;
    if (!NOISE_WORDS.has(token) && !/^\d+$/.test(token) && !HEAD_BREAKS.has(token) && !level) {
      return singular(token);
    }
  }
  return "";
}

/** Longest description the engine reads; the route bound is larger and documented. */
const MAX_DESCRIPTION_TERMS = 400;

/** What the engine reads of a job description. */
export interface DescriptionText {
  /** Its index terms: at most MAX_DESCRIPTION_TERMS distinct ones, in order of first appearance. */
  terms: string[];
  /**
   * Its adjacent word pairs ("hvac service", "service technician") and their counts, within a
   * sentence or list item: "...technician. HVAC..." is not a phrase.
   */
  pairs: Map<string, number>;
}

/**
 * Sanitises a job description (strips markup, entities, URLs, e-mail addresses and phone
 * numbers) and reads its terms and word pairs in one pass.
 */
export function readDescription(text: string): DescriptionText {
  const seen = new Set<string>();
  const pairs = new Map<string, number>();
  // Tokens never hold these characters, so splitting on them first leaves the terms unchanged.
  for (const part of plainDescription(text).split(/[.;:!?•|\n\r]+/)) {
    const terms = indexTerms(part);
    for (let i = 0; i < terms.length; i++) {
      const term = terms[i];
      if (seen.size < MAX_DESCRIPTION_TERMS && term.length >= 2 && !/^\d+$/.test(term)) {
        seen.add(term);
      }
      if (i > 0) {
        const pair = `${terms[i - 1]} ${term}`;
        pairs.set(pair, (pairs.get(pair) ?? 0) + 1);
      }
    }
  }
  return { terms: [...seen], pairs };
}

/** A description without markup, links, e-mail addresses and phone numbers. */
function plainDescription(text: string): string {
  return text
    .replace(/<(script|style)[^>]*>[\s\S]*?<\/\1>/gi, " ")
    .replace(/<[^>]*>/g, " ")
    .replace(/&[#a-z0-9]+;/gi, " ")
    .replace(/\b(?:https?:\/\/|www\.)\S+/gi, " ")
    .replace(/[\w.+-]+@[\w-]+(?:\.[\w-]+)+/g, " ")
    .replace(/\+?\d[\d\s().-]{7,}\d/g, " ");
}
