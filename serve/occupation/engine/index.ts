/**
 * The occupation engine's in-memory index and ranker. Built once per taxonomy version (and per
 * fold by the calibration fit and the quality bench) from the artifact's titles, descriptions,
 * tasks and optional word vectors; ranking is pure and deterministic.
 *
 * Channels, combined into one relevance score per occupation:
 * - title: every title of every kind, scored title by title (query coverage, title coverage,
 *   role-head agreement, whole-phrase match) and aggregated per occupation by its best title;
 * - coverage: the query's words anywhere in the occupation's titles, saturating with how many
 *   titles carry them, plus the query's adjacent word pairs found in its titles;
 * - context: the query's words in the occupation's description and tasks (BM25, small weight);
 * - semantic: cosine between the query's word-vector centroid and the occupation's centroid and
 *   title prototypes; it adds candidates the words missed ("vector_candidate_expansion");
 * - description: a job description's words in the occupation's description and tasks. It only
 *   re-orders candidates the title found.
 */
import { spanishAsEnglish } from "./spanish.ts";
import { foldText, indexTerms, tokenize } from "../../text/normalize.ts";
import {
  assuranceAsAudit,
  type CleanedTitle,
  cleanTitle,
  headText,
  readDescription,
  ROLE_PART_SCORE,
  roleHead,
  settingReading,
  taxPractice,
  TECH_WORDS,
  twoForms,
} from "./text.ts";
import {
  MEDICAL_TRAINEE,
  medicalSpecialty,
  practitionerForms,
  RESEARCHER_HEADS,
} from "./fields.ts";
import {
  parseRole,
  type Role,
  ROLE_CLASSES,
  ROLE_WORDS,
  type RoleClass,
  roleMapsInSlices,
} from "./roles.ts";
import { interner, runSliced, timerPause } from "../../stores/snapshot.ts";
import { dotJs, DotSpace } from "./dot.ts";
import { FUSION_FEATURES } from "./features.ts";
import {
  type CompiledReranker,
  compileReranker,
  QUERY_ROLES,
  RERANK_FEATURES,
  RERANK_TOP,
  rerankDeltas,
  type Reranker,
} from "./rerank.ts";
import {
  PackedLists,
  type PackedListsParts,
  PackedMap,
  type PackedMapParts,
  PackedStrings,
  type PackedStringsParts,
} from "./packed.ts";

export { FUSION_FEATURES };

/** Version of the ranking code; the calibration stored in an artifact is only valid for it. */
export const RANKER_VERSION = "142";

/** Kinds of titles, in the order they are preferred when two score the same. */
export const TITLE_KINDS = ["primary", "alternate", "short", "reported"] as const;
export type TitleKind = typeof TITLE_KINDS[number];

/** An occupation as the engine indexes it. */
export interface IndexOccupation {
  onetCode: string;
  title: string;
  description: string;
  tasks: string[];
  /** Skill names, most important first. */
  skills: string[];
  /** Technology examples (software and tools), hot ones first. */
  technologies: string[];
}

/** One title of an occupation. */
export interface IndexTitle {
  onetCode: string;
  kind: TitleKind;
  title: string;
  /** Where the title comes from (occupation_titles.source; dev-set subsets only). */
  source?: string;
}

/** Word vectors keyed by index term, rows L2-normalised. */
export interface WordVectors {
  dims: number;
  terms: string[];
  data: Float32Array;
}

/**
 * Word vectors as an index keeps them: one signed byte per component and a scale per row, a
 * quarter of float32's memory (12.2 -> 3.1 MB for the 30,376 words of the 29.3 build). A
 * component moves by at most half a step (scale / 2, about 0.15% of a unit row's largest).
 */
interface ByteVectors {
  dims: number;
  data: Int8Array;
  scales: Float32Array;
}

/**
 * Word vectors to bytes, row by row (scale: the row's largest magnitude / 127); yields every 2,048
 * rows (all at once, the 30,376 rows of 29.3 took about 30 ms).
 */
function* toBytes(vectors: WordVectors): Generator<void, ByteVectors, void> {
  const { dims, data: from } = vectors;
  const rows = vectors.terms.length;
  const data = new Int8Array(rows * dims);
  const scales = new Float32Array(rows);
  for (let r = 0; r < rows; r++) {
    let max = 0;
    for (let d = 0; d < dims; d++) max = Math.max(max, Math.abs(from[r * dims + d]));
    const scale = max / 127;
    scales[r] = scale;
    if (scale > 0) {
      for (let d = 0; d < dims; d++) data[r * dims + d] = Math.round(from[r * dims + d] / scale);
    }
    if (r % 2048 === 2047) yield;
  }
  return { dims, data, scales };
}

/** Everything an index is built from. */
export interface IndexSource {
  occupations: IndexOccupation[];
  titles: IndexTitle[];
  vectors: WordVectors | null;
  /** OEWS national employment by O*NET-SOC code (the size prior); absent or empty: no prior. */
  employment?: ReadonlyMap<string, number>;
  /**
   * Learned fusion weights (engine/fusion.ts, stored in the artifact): they replace the given
   * weights of the score's linear part. Absent: the given (or default) weights.
   */
  fusion?: {
    weights: readonly number[];
    biases?: Readonly<Record<string, number>>;
    /** Trees that re-order the first candidates (engine/rerank.ts); absent: none. */
    reranker?: Reranker;
  };
}

/** The query as the ranker saw it. */
export interface RankQuery {
  title: string;
  description?: string;
}

/** Options of one ranking. */
export interface RankOptions {
  limit: number;
  /** Use the semantic channel when the index has vectors. */
  semantic: boolean;
  /** Also return each result's channel values (FUSION_FEATURES), for the fusion fit. */
  features?: boolean;
}

/** Why a candidate is on the list, in the spec's vocabulary (2.5). */
export type MatchReason =
  | "normalized_primary_title_match"
  | "complete_occupational_phrase_match"
  | "primary_title_token_match"
  | "occupational_context_match"
  | "role_head_match"
  | "description_match"
  | "task_match"
  | "vector_candidate_expansion";

/** One ranked occupation with its evidence. */
export interface RankedOccupation {
  onetCode: string;
  title: string;
  score: number;
  reasons: MatchReason[];
  matchedTitle: string;
  matchedTitleKind: TitleKind;
  candidateRoleHead: string;
  roleHeadAgreement: boolean;
  titleScore: number;
  exact: boolean;
  phrase: boolean;
  /** No title word matched; the vectors brought it. */
  semanticOnly: boolean;
  /** Some title of the occupation shares a word with the query. */
  titleMatched: boolean;
  descriptionTermMatches: number;
  taskTermMatches: number;
  /** The occupation's size prior (0-1; 0 without employment data). */
  prior: number;
  /**
   * Its title vote (0-1): 1 for the occupation whose titles match best at the title level, less
   * for the others (a supervisor or helper reached through a role takes its domain's).
   */
  vote: number;
}

/** A ranking and the facts about the query that confidence and grounding use. */
export interface Ranking {
  results: RankedOccupation[];
  /** Scores of the top ten, best first, for confidence features. */
  topScores: number[];
  cleanedTitle: string;
  queryRoleHead: string;
  /** Whether the query's role head is the head of some title in the index. */
  knownRoleHead: boolean;
  /** Share of the query's words (idf-weighted) that occur in some title. */
  knownTermShare: number;
  /** Share of the query's words (idf-weighted) that are stand-ins for unknown ones. */
  substitutedShare: number;
  queryTerms: number;
  descriptionUsed: boolean;
  /** Rank-1 candidate from the title alone is among the description's top three (or null). */
  descriptionAgrees: boolean | null;
  semanticUsed: boolean;
  /** Channel values of each result (FUSION_FEATURES), when the options asked for them. */
  features?: number[][];
  /**
   * What the reranker reads of each of the first RERANK_TOP results (RERANK_FEATURES), when the
   * options asked for features, in the order before the trees moved them (the reranker's fit).
   */
  rerankRows?: number[][];
  /** The hierarchy role the title's words give it (supervisor, helper, ..., worker). */
  queryRole: Role;
  /** Share of the title's words that cleaning dropped (levels, ids, qualifiers, noise). */
  droppedShare: number;
  /** Known title words in the title's other parts ("- Seafood Restaurant"): 2 here. */
  qualifierTerms: number;
  /**
   * Occupations that have a title with exactly the query's words: 0 for most queries, 1 for
   * "Bottling Machine Operator", about ten for "Teacher"; 1 when a qualifier names the top one of
   * them in its own title ("Assistant Professor - Computer Science").
   */
  sameTitleOccupations: number;
  /**
   * When several occupations have a title with exactly the query's words, the top result's share
   * of their OEWS employment (restaurant cooks' of every cook occupation's, for "Cook"); 1
   * otherwise. The calibration reads it: a client who sends a shared title more often means the
   * larger occupation.
   */
  sharedTitleShare: number;
  /** Mean idf of the query's words (an unknown word at the mean idf of the index's words). */
  meanIdf: number;
}

/**
 * The weights of the ranking channels (tuned on fold 1 of the development set; prior, title_agg
 * and the role weights on fold 2 of the catalog-style and employer-style subsets, issue 15).
 */
export interface RankerWeights {
  /** Title channel: share of the query's words a title covers. */
  query_cover: number;
  /** Title channel: share of the title the query covers. */
  title_cover: number;
  /** Title channel: role heads agree. */
  head: number;
  /** Title channel: the whole title occurs as a phrase in the query. */
  phrase: number;
  /** Context channel: the title's words in description and tasks (BM25, normalised). */
  context: number;
  /** Coverage: BM25 k for the number of titles carrying a word. */
  k_titles: number;
  /** Best title score. */
  best_title: number;
  /** Occupation coverage of the query. */
  occ_cover: number;
  /** Semantic channel. */
  semantic: number;
  /** Description channel (re-ordering only). */
  description: number;
  /** The other parts of an "A - B" title in the occupation's titles (re-ordering only). */
  qualifier: number;
  /** Phrases: the query's adjacent word pairs found in the occupation's titles. */
  pair: number;
  /** Coverage by word family (crude stems) beyond the exact words. */
  stem_cover: number;
  /** OEWS employment prior (log employment scaled to 0-1). */
  prior: number;
  /** Title-level BM25 of every title of the occupation, aggregated by a softmax (log-sum-exp). */
  title_agg: number;
  /** The query's hierarchy role (supervisor, helper) and the occupation's role class agree. */
  role_match: number;
  /**
   * Title vote: the occupation's title-level BM25 softmax (title-level idf) plus a size prior,
   * against the best occupation's: exp(score - best).
   */
  title_vote: number;
  /**
   * A supervisor or helper query on a worker occupation, a worker query on one of those, or a
   * manager query on a worker or helper occupation.
   */
  role_mismatch: number;
  /**
   * The occupation has titles whose role head is the query's ("Welding Teacher": the teachers,
   * not the welders; "Dowel Inspector": the inspectors), n/(n+1) of n such titles. Off when the
   * head is a hierarchy word (supervisor, helper, lead...), which the role channel reads.
   */
  head_occ: number;
  /** A manager query ("Manager, car wash") on an occupation of the management class. */
  manager_match: number;
  /**
   * Coverage of the query's words other than its role head, as occ_cover counts them ("seafood"
   * of "Seafood Laborer"): an occupation that has only the head ("Laborer") says nothing of the
   * domain. 0 for a one-word query or one whose head is not a word of the index.
   */
  rest_cover: number;
  /**
   * A supervisor (helper) query on a supervisor (helper) occupation: the best rest_cover among
   * the domain worker occupations it supervises (helps). "Brickmason Supervisor" names the
   * brickmasons, whose supervisors are the construction trades'; the production supervisors'
   * many "X Supervisor" titles match the role word alone.
   */
  domain_rest: number;
  /**
   * The cleaned query is one of the occupation's coded titles, those a coding index assigns it
   * (its primary title, sources 04 and 06), in any word order ("Manager, Car Wash" is the title
   * "Car Wash Manager"), bracketed words and exclusions of the title aside ("Heavy Equipment
   * Operator (HEO)", "Purchasing Agents, Except Wholesale, ...").
   * Not for a title several occupations share, the query being the title itself (its words in
   * its order once cleaned), when employers' job listings (source 10) give it to another of them
   * and not to this one (ranker 107: "Controls Engineer" is the electrical engineers', not the
   * broadcast technicians' "Control Engineer").
   * Hand-set (issue 15): the held-out folds the fusion is fitted on never contain a query
   * that is one of the index's titles.
   */
  exact: number;
  /**
   * When the query's words are exactly a title of several occupations ("Host", "Assistant
   * Professor"), the size prior again, on those occupations: the larger is the likelier meaning
   * (hand-set, issue 15; O*NET's own labels accept every one of them, so the folds cannot fit it).
   */
  shared_prior: number;
  /**
   * On those occupations too, the log of how many of O*NET's sources list the title for the
   * occupation (alternate-title source codes, a reported title, the primary title): "Data
   * Analyst" is listed for business intelligence analysts by three sources and for database
   * architects by one. Hand-set (issue 15), for the reason shared_prior is.
   */
  shared_sources: number;
  /**
   * Description channel (re-ordering only): the shortlist's title phrases (word pairs) in the
   * description, "HVAC service technician" in a "Service Technician" posting. Hand-set on the
   * real postings (issue 15): the synthetic descriptions the fusion sees are task statements.
   */
  description_phrase: number;
}

/** The weights the server runs with. */
export const DEFAULT_WEIGHTS: Readonly<RankerWeights> = {
  query_cover: 0.413,
  title_cover: 0.45,
  head: 0.15,
  phrase: 0.025,
  context: 0.08,
  k_titles: 1.8,
  best_title: 0.5,
  occ_cover: 0.75,
  semantic: 0.2,
  description: 0.45,
  qualifier: 0.8,
  pair: 0.075,
  stem_cover: 0.45,
  prior: 0.07,
  title_agg: 0.8,
  role_match: 0.15,
  role_mismatch: 0.15,
  title_vote: 0.1,
  head_occ: 0.1,
  manager_match: 0.15,
  rest_cover: 0,
  domain_rest: 0,
  exact: 0.3,
  shared_prior: 0.3,
  shared_sources: 0.1,
  description_phrase: 0.3,
};
/** The ranker weights a fusion model gives (its weights on the linear part, the rest as is). */
export function fusedWeights(
  fusion: { weights: readonly number[] },
  base: Readonly<RankerWeights> = DEFAULT_WEIGHTS,
): RankerWeights {
  const [
    title,
    cover,
    pair,
    stem,
    context,
    semantic,
    prior,
    agg,
    match,
    mismatch,
    description,
    vote,
    headOcc,
    managerMatch,
    restCover,
    domainRest,
  ] = fusion.weights;
  return {
    ...base,
    best_title: title,
    occ_cover: cover,
    pair,
    stem_cover: stem,
    context,
    semantic,
    prior,
    title_agg: agg,
    role_match: match,
    role_mismatch: -mismatch,
    description: description ?? base.description,
    title_vote: vote ?? base.title_vote,
    head_occ: headOcc ?? base.head_occ,
    manager_match: managerMatch ?? base.manager_match,
    rest_cover: restCover ?? base.rest_cover,
    domain_rest: domainRest ?? base.domain_rest,
  };
}

/**
 * The same-title bonus needs this many query words: a one-word title ("Cook", "Operator") is
 * generic, and the coding index's choice for it is not the one employers mean.
 */
const SAME_TITLE_MIN_TERMS = 2;
/**
 * A one-word query whose word heads titles in at least this many occupations ("technician": 348,
 * "analyst": 184, "helper": 56) names a role, not an occupation, even where O*NET lists the word
 * as a title of one or two of them ("Developer", 45 occupations, is read as a title).
 */
const BARE_ROLE_OCCUPATIONS = 50;
/** Titles a word must head to count as a role word when cleaning reads "PT" (text.ts). */
const ROLE_WORD_TITLES = 10;
/** Titles (or words) between two pauses of the build's slower passes. */
const SLICE_TITLES = 2048;
/**
 * Sources of O*NET alternate titles that are coding indexes: the BLS Direct Match Title File
 * (04) and the Census Bureau's Alphabetical Index (06) (occupation_titles.source).
 */
const CATALOG_SOURCES = /alternate_titles:[^;]*\b0[46]\b/;

/** Whether a title's sources include a coding index (04 or 06). */
export function isCatalogSource(source: string | undefined): boolean {
  return source !== undefined && CATALOG_SOURCES.test(source);
}

/** BM25 constants of the title-level aggregation. */
const AGG_K1 = 1.2;
const AGG_B = 0.75;
/** The size prior of the title vote: this much per ln of employment over the median. */
const VOTE_PRIOR = 0.15;
const ALL_OTHER = /,\s*all other\b.*$/i;
/** "Purchasing Agents, Except Wholesale, ...": what follows "except" is not the title's core. */
const EXCEPT = /,\s*except\b.*$/i;
/** A negated word of a title ("Non-Retail", "Nonfarm"), which names what it is not. */
const NEGATED = /\bnon-?[a-z]+/gi;
/** How far under the lowest of the others an occupation named by an exclusion clause goes. */
const EXCLUDED_COST = 1;
const GROUPS = 32;
const GROUP_PROBES = 6;
const PROTOTYPE_MERGE = 0.9;
const PROTOTYPE_CAP = 24;
const SEMANTIC_FLOOR = 0.55;
const SEMANTIC_ONLY_MIN = 0.7;
const SHORTLIST = 40;
const SEGMENT_HEAD_BONUS = ROLE_PART_SCORE;
/** Added for a part that is a title of the index (segmentScore). */
const SEGMENT_TITLE_BONUS = 30;
/**
 * A title before a comma that at most this many occupations have is the role of an employer's
 * title, and what follows the comma a qualifier ("Software Engineer, Machine Learning"; cleanTitle).
 */
const QUALIFIED_TITLE_OCCUPATIONS = 3;
/** Titles a word inside a part must head to name the part's role (segmentScore). */
const SEGMENT_INNER_HEAD_TITLES = 20;
const SEMANTIC_SHORTLIST = 8;
/** The matrices of a DotSpace, in the order #placeVectors gives them. */
const OCCUPATION_ROWS = 0;
const CENTRE_ROWS = 1;
const PROTOTYPE_ROWS = 2;
/**
 * #softwareRole: a word no title has that names software, if at least minShare of the (at least
 * minOccupations) occupations with it in a technology example are computer and mathematical ones
 * (15-): Kafka 20 of 27, Terraform 7 of 8, Azure 25 of 48, Kotlin 2 of 2 in O*NET 29.3; Kronos 0
 * of 13. (Three occupations, before ranker 79, left "Kotlin Engineer" to the civil engineers.)
 */
const SOFTWARE_READING = { reading: "software", minOccupations: 2, minShare: 0.5 } as const;

/** A chief who is an executive or a department's head, not a first-line supervisor. */
const CHIEF_OF = /\bchief (?:of|for|executive|officer)\b|\bofficers?\b|\bexecutives?\b/;

/** An engineer with a rank word at most ("Principal Engineer", "Staff Engineer", "Engineer"). */
const BARE_ENGINEER = /^(?:(?:senior|principal|staff|lead|junior|chief|associate) )?engineer$/;
/** The shortest known word an unknown one may start with for its suffix to stand in for it. */
const MIN_PREFIX = 3;
/**
 * Occupations a scientist's or researcher's field names (#practitioner): the life, physical and
 * social scientists, the mathematical scientists, the computer and information research scientists.
 */
const SCIENTIST_GROUPS = ["19-", "15-2", "15-1221"];
/** "Tech Lead" and its spellings ("tech" is written out as technician by then): #techLead. */
const TECH_LEAD = /\b(?:technician|technical|technology) (?:team )?lead(?:er)?\b/;
/** The fewest titles a word needs for #namesComputing to read it. */
const COMPUTING_TITLES = 3;
/**
 * Layers of a software system an engineer's qualifier names ("Principal Engineer - Backend"):
 * computing words that O*NET's titles have too rarely for #namesComputing (#computingEngineer).
 */
const SOFTWARE_LAYERS = new Set(["backend", "frontend", "fullstack", "devops", "microservices"]);
/** A "co-" prefix in a raw title ("Co-Manager", "CO-TEACHER"), and the word it is before. */
const CO_PREFIX = /\bco-\p{L}/iu;
const CO_PREFIXED = /\bco-(\p{L}+)/giu;
/** Doubles per title in the title loop's records (one cache line). */
const TITLE_REC = 8;
/**
 * The qualifier channel's share is of at least this much idf: a qualifier whose known words are
 * all common ("- Loyalty Services", "- Kubernetes Operators": "Loyalty" and "Kubernetes" are no
 * words of the index) says little, and its one word in a shortlisted occupation's titles ("Service
 * Technician", "Boiler Operator") had the qualifier's whole weight. About the idf of a word in 5%
 * of the occupations' titles. Measured at 3, 4, 5 and 6 on the read blind rounds (ranker 108:
 * 2 fixed / 0 broken, 3 / 1, 4 / 5, 11 / 8).
 */
const QUALIFIER_MIN_IDF = 3;
/**
 * Added at most to a residual category's score ("Entertainers and Performers, ..., All Other") when
 * the title says it is classified nowhere else ("Entertainer, n.e.c."; CleanedTitle.residual), in
 * proportion to the query's words its name has (#residualNamed): a coding index's own pointer to
 * the residual code of the group it names. Hand-set (ranker 110): no dev subset has such titles;
 * 0.5 left "Teacher", "Clerk" and "Engineer, n.e.c." with a worker occupation.
 */
const RESIDUAL_NAMED = 1;
/** Rank words that lead a title as seniority (#withoutRank). */
const RANK_WORDS = new Set(["lead", "principal", "staff", "associate"]);
/**
 * head_occ saturates in the number of the occupation's titles with the query's role head: n/(n+1)
 * (issue 15: 1 and 3 measured the same, both above a 0/1 indicator).
 */
const HEAD_TITLES_HALF = 1;
/**
 * #joinCompounds joins two words the index has apart in at most this many titles, and joined in
 * more ("House Keeper": "Lodging House Keeper" once, "housekeeper" in 10 titles).
 */
const JOIN_APART_MAX = 3;
/** What an old "-man" title's worker is read as (#manAsRole), in order of preference. */
const MAN_ROLES = ["operator", "worker", "tender", "attendant"];
/** What a machine's jockey is read as (#manAsRole), in order of preference. */
const JOCKEY_ROLES = ["operator", "driver"];
/** Places between a gerund and "worker" (#gerundWorker: "Sorting Line Worker"). */
const GERUND_PLACES = new Set(["line", "table", "room", "floor", "house", "shed"]);
/** The roles a crew of a domain may name after "crew" (#crewWorker: "Lambing Crew Worker"). */
const CREW_ROLES = new Set(["worker", "workers", "laborer", "laborers", "hand", "hands"]);
/** Words #genderedForms may read: a gendered ending, or a boy or girl. */
const GENDERED_ENDING = /(?:ess|ette|girl|boy|hand|lady|woman|person)\b/;
/** The words of a "crew member" head (rest_cover): the crew is not the domain. */
const MEMBER_OF = new Set(["crew", "team", "staff"]);

const round4 = (x: number) => Math.round(x * 10000) / 10000;

/** The titles an (occupation, title count) postings list counts; 0 for none. */
function titleCount(list: Int32Array | undefined): number {
  let n = 0;
  if (list) { for (let i = 1; i < list.length; i += 2) n += list[i]; }
  return n;
}
/** The parts of an index snapshot, in the order they are written and restored. */
export const SNAPSHOT_FIELDS = [
  "occupations",
  "weights",
  "vectors",
  "terms",
  "headIds",
  "headCount",
  "textPostings",
  "vectorIndex",
  "pairPostings",
  "stemPostings",
  "titleIdf",
  "titlePostings",
  "titleOcc",
  "titleKind",
  "titleText",
  "titleNorm",
  "titleHead",
  "titleHeadId",
  "titleWeight",
  "titleBm25",
  "prior",
  "bias",
  "roleClass",
  "supervisorOf",
  "helperOf",
  "heads",
  "primaryTerms",
  "primaryNorm",
  "textLength",
  "textAvg",
  "occVectors",
  "prototypes",
  "groups",
  "groupCentres",
  "prototypeOffsets",
  "titlesByOcc",
  "occPostings",
  "avgIdf",
  "sortedTerms",
  "termGrams",
  "skillTerms",
  "titleIdfT",
  "votePrior",
  "titleCoded",
  "titleBreadth",
  "titleListed",
  "reranker",
] as const;
type SnapshotField = typeof SNAPSHOT_FIELDS[number];

/** Copies a map's entries into a (readonly, empty) map. */
function fill<K, V>(target: Map<K, V>, source: Map<K, V>): void {
  for (const [key, value] of source) target.set(key, value);
}

/** Tells the constructor to leave the build steps to {@linkcode OccupationIndex.buildAsync}. */
const DEFERRED: unique symbol = Symbol("deferred build");

/** An in-memory occupation index. */
export class OccupationIndex {
  readonly occupations: IndexOccupation[];
  readonly #terms = new Map<string, number>();
  readonly #occIndex = new Map<string, number>();
  #titleIdf!: Float64Array;
  /** term id -> the titles with the term, ascending. */
  #titlePostings!: PackedLists;
  #titleOcc!: Int32Array;
  /** #titleOwners' answer (scratch, reused: rank is synchronous). */
  readonly #owners: number[] = [];
  #titleKind!: Uint8Array;
  #titleText!: PackedStrings;
  /** Each title's index terms joined by spaces. */
  #titleNorm!: PackedStrings;
  #titleHead!: string[];
  /** Role head of each title as a number (-1 when it has none), for fast comparison. */
  #titleHeadId!: Int32Array;
  readonly #headIds = new Map<string, number>();
  #titleWeight!: Float64Array;
  /** Per title, the BM25 factor of a matched word: (k1 + 1) / (1 + k1 (1 - b + b len / avg)). */
  #titleBm25!: Float64Array;
  /** Per occupation: size prior (0-1), role class, supervisor and helper occupation (-1: none). */
  #prior!: Float64Array;
  /** Per-occupation offsets of the fused score (engine/fusion.ts); zeros without a fit. */
  #bias!: Float64Array;
  /** The trees that re-order the first candidates (engine/rerank.ts), or null. */
  #reranker: CompiledReranker | null = null;
  #roleClass!: Uint8Array;
  #supervisorOf!: Int32Array;
  #helperOf!: Int32Array;
  #heads!: Set<string>;
  readonly #headCount = new Map<string, number>();
  #primaryTerms!: Set<string>[];
  #primaryNorm!: string[];
  /** term -> [occ, tfDescription, tfTasks, ...] flattened. */
  #textPostings!: PackedMap;
  #textLength!: Float64Array;
  #textAvg!: number;
  readonly #vectorIndex = new Map<string, number>();
  #vectors: ByteVectors | null = null;
  #occVectors: Float32Array | null = null;
  #prototypes: Float32Array | null = null;
  #groups: Int32Array[] | null = null;
  #groupCentres: Float32Array | null = null;
  #prototypeOffsets: Int32Array | null = null;
  /** The three matrices above and the query's vector in WebAssembly memory (engine/dot.ts). */
  #space: DotSpace | null = null;
  #titlesByOcc!: Int32Array[];
  /** term id -> [occupation, number of its titles with the term, ...] flattened. */
  #occPostings!: PackedLists;
  #avgIdf!: number;
  #sortedTerms!: string[];
  /** Character trigram -> ids of the title words that have it (unknown-word fallback). */
  #termGrams!: PackedMap;
  /** Unknown words already looked up by trigrams, and what stood in (null: nothing). */
  #unknownMemo = new Map<string, string | null>();
  /** Abbreviations read in context (#contraction), bounded as #unknownMemo. */
  #contractionMemo = new Map<string, string | null>();
  /** "term term" -> [occupation, number of its titles with the pair, ...] flattened. */
  #pairPostings!: PackedMap;
  /** crude stem -> [occupation, number of its titles with a word of that stem, ...]. */
  #stemPostings!: PackedMap;

  readonly #w: RankerWeights;
  /** Per occupation: technology then skill names with their index terms (for matching_skills). */
  #skillTerms!: [string, string[]][][];
  #skillWordOccs!: PackedMap;
  /**
   * Per title, one 64-byte record of what the title loop of rank reads and writes: its two
   * matched-idf sums (scratch, zero between calls), weight, BM25 length factor, role head id and
   * occupation. One cache line per touched title instead of six arrays.
   */
  #titleRec!: Float64Array;
  #titleIdfT!: Float64Array;
  #votePrior!: Float64Array;
  /**
   * For a title a coding index assigns (the primary title, sources 04 and 06), the weight of its
   * words outside brackets ("Heavy Equipment Operator (HEO)": the first three); 0 for others.
   */
  #titleCoded!: Float64Array;
  /** Per title, how many of O*NET's sources list it for its occupation (titleBreadth). */
  #titleBreadth!: Uint8Array;
  /** Per title, 1 when employers' job listings (source 10) list it for its occupation. */
  #titleListed!: Uint8Array;
  /** Per occupation: 1 for a residual category ("..., All Other"). */
  readonly #residual: Uint8Array;
  #work!: {
    titleScore: Float64Array;
    bestTitle: Int32Array;
    exactOcc: Uint8Array;
    /** 1: the query has the words of one of the occupation's coded titles and no others. */
    sameTitle: Uint8Array;
    /** 1: the query's words are exactly those of one of the occupation's titles (any source). */
    sameWords: Uint8Array;
    /** Of those titles, the most sources that list one for the occupation (titleBreadth). */
    sharedBreadth: Float64Array;
    /** 1: one of those titles is listed by employers (titleListed). */
    sameListed: Uint8Array;
    /** Title phrases of the description per occupation (#phraseScores). */
    phrases: Float64Array;
    phraseOcc: Uint8Array;
    cover: Float64Array;
    stemCover: Float64Array;
    pairCover: Float64Array;
    agg: Float64Array;
    vote: Float64Array;
    /** How many of the occupation's titles have the query's role head (head_occ). */
    headOcc: Float64Array;
    /** Occupation coverage of the query's role head alone (rest_cover). */
    headCover: Float64Array;
    transfer: Float64Array;
    /** Best rest_cover of the domain workers a supervisor (helper) occupation is linked to. */
    domainRest: Float64Array;
    context: Float64Array;
    contextList: Int32Array;
    transferFrom: Int32Array;
    qualifier: Float64Array;
    /** Channel values per occupation (FUSION_FEATURES), allocated on the first request for them. */
    features: Float64Array;
    /** What the reranker reads of the first candidates (RERANK_FEATURES each), and its moves. */
    rerankRows: Float64Array;
    rerankDeltas: Float64Array;
    inPool: Uint8Array;
    /** Occupations with a title match, and those whose centroid was compared (any order). */
    titled: Int32Array;
    probed: Int32Array;
    pool: Int32Array;
    scores: Float64Array;
    semantic: Float64Array;
    centroid: Float64Array;
    /** The query's similarity to each group centre. */
    centres: Float64Array;
    /** Dot products of a group's occupations or of an occupation's prototypes (#dots). */
    dots: Float64Array;
  };
  #touched!: Int32Array;

  /** A scratch buffer of at least `n` dot products (DotSpace.dotRange, dotRows). */
  #dots(n: number): Float64Array {
    if (this.#work.dots.length < n) this.#work.dots = new Float64Array(n);
    return this.#work.dots;
  }

  /** Whether the index has word vectors (the semantic channel). */
  get hasVectors(): boolean {
    return this.#vectors !== null;
  }

  /** Builds the index synchronously (the calibration fit, the quality bench and tests). */
  constructor(source: IndexSource, weights?: Readonly<RankerWeights>);
  /** @internal With DEFERRED the steps are left to the caller (see {@linkcode buildAsync}). */
  constructor(source: IndexSource, weights: Readonly<RankerWeights>, deferred: typeof DEFERRED);
  constructor(
    source: IndexSource,
    weights: Readonly<RankerWeights> = DEFAULT_WEIGHTS,
    deferred?: typeof DEFERRED,
  ) {
    this.#w = source.fusion ? fusedWeights(source.fusion, weights) : { ...weights };
    this.occupations = [...source.occupations].sort((a, b) => a.onetCode < b.onetCode ? -1 : 1);
    this.#residual = Uint8Array.from(this.occupations, (o) => ALL_OTHER.test(o.title) ? 1 : 0);
    for (const [i, o] of this.occupations.entries()) this.#occIndex.set(o.onetCode, i);
    this.#bias = new Float64Array(this.occupations.length);
    for (const [code, v] of Object.entries(source.fusion?.biases ?? {})) {
      const at = this.#occIndex.get(code);
      if (at !== undefined) this.#bias[at] = v;
    }
    const reranker = source.fusion?.reranker;
    this.#reranker =
      reranker && JSON.stringify(reranker.features) === JSON.stringify(RERANK_FEATURES)
        ? compileReranker(reranker)
        : null;
    if (deferred !== DEFERRED) {
      for (const _ of this.#build(source)) {
        /* every step, at once */
      }
    }
  }

  /**
   * Builds the same index as the constructor in slices of about `sliceMs` of work, pausing
   * between them (a macrotask by default), so a server loading a new version keeps answering:
   * the full taxonomy takes over a second of CPU.
   */
  static async buildAsync(
    source: IndexSource,
    options: { weights?: Readonly<RankerWeights>; sliceMs?: number; pause?: () => Promise<void> } =
      {},
  ): Promise<OccupationIndex> {
    const index = new OccupationIndex(source, options.weights ?? DEFAULT_WEIGHTS, DEFERRED);
    await runSliced(index.#build(source), options.sliceMs ?? 8, options.pause ?? timerPause);
    return index;
  }

  /** Per-request scratch buffers, sized for the titles and occupations (reused: rank is sync). */
  /**
   * Derived from the skill terms, not stored in the snapshot: per word of a skill or technology
   * name, the occupations (ascending) with that word in one of theirs.
   */
  *#indexSkillWords(): Generator<void, void, void> {
    const occsOfWord = new Map<string, number[]>();
    for (let occ = 0; occ < this.occupations.length; occ++) {
      for (const word of new Set(this.#skillTerms[occ].flatMap(([, words]) => words))) {
        const list = occsOfWord.get(word);
        if (list) list.push(occ);
        else occsOfWord.set(word, [occ]);
      }
      if (occ % 128 === 127) yield;
    }
    this.#skillWordOccs = PackedMap.from(occsOfWord);
  }

  /**
   * Keeps values that repeat across occupations and titles once: a skill or technology (its name
   * and words) that many occupations list is one tuple, its name one string, and a role head one
   * string. Built or read from a snapshot, every occurrence was a copy of its own: 12.3 MB of the
   * ranking worker's heap for the skills of 29.3. Yields between slices, as the build does.
   */
  *#shareRepeats(): Generator<void, void, void> {
    const one = interner();
    const tuples = new Map<string, [string, string[]]>();
    for (let occ = 0; occ < this.#skillTerms.length; occ++) {
      this.#skillTerms[occ] = this.#skillTerms[occ].map((tuple) => {
        // A tuple's words are its name's terms (#build), so the name is the key.
        const key = tuple[0];
        const kept = tuples.get(key);
        if (kept) return kept;
        const shared: [string, string[]] = [one(tuple[0]), tuple[1].map(one)];
        tuples.set(key, shared);
        return shared;
      });
      const o = this.occupations[occ];
      for (let i = 0; i < o.skills.length; i++) o.skills[i] = one(o.skills[i]);
      for (let i = 0; i < o.technologies.length; i++) o.technologies[i] = one(o.technologies[i]);
      if (occ % 64 === 63) yield;
    }
    for (let t = 0; t < this.#titleHead.length; t++) {
      this.#titleHead[t] = one(this.#titleHead[t]);
      if (t % 8192 === 8191) yield;
    }
  }

  #allocateScratch(nTitles: number): void {
    const nOcc = this.occupations.length;
    const rec = new Float64Array(TITLE_REC * nTitles);
    for (let t = 0; t < nTitles; t++) {
      rec[t * TITLE_REC + 2] = this.#titleWeight[t];
      rec[t * TITLE_REC + 3] = this.#titleBm25[t];
      rec[t * TITLE_REC + 4] = this.#titleHeadId[t];
      rec[t * TITLE_REC + 5] = this.#titleOcc[t];
    }
    this.#titleRec = rec;
    this.#touched = new Int32Array(nTitles);
    this.#work = {
      titleScore: new Float64Array(nOcc),
      bestTitle: new Int32Array(nOcc),
      exactOcc: new Uint8Array(nOcc),
      sameTitle: new Uint8Array(nOcc),
      sameWords: new Uint8Array(nOcc),
      sharedBreadth: new Float64Array(nOcc),
      sameListed: new Uint8Array(nOcc),
      phrases: new Float64Array(nOcc),
      phraseOcc: new Uint8Array(nOcc),
      cover: new Float64Array(nOcc),
      stemCover: new Float64Array(nOcc),
      pairCover: new Float64Array(nOcc),
      agg: new Float64Array(nOcc),
      vote: new Float64Array(nOcc),
      headOcc: new Float64Array(nOcc),
      headCover: new Float64Array(nOcc),
      transfer: new Float64Array(nOcc),
      domainRest: new Float64Array(nOcc),
      context: new Float64Array(nOcc),
      contextList: new Int32Array(nOcc),
      transferFrom: new Int32Array(nOcc),
      qualifier: new Float64Array(nOcc),
      features: new Float64Array(0),
      rerankRows: new Float64Array(RERANK_TOP * RERANK_FEATURES.length),
      rerankDeltas: new Float64Array(RERANK_TOP),
      inPool: new Uint8Array(nOcc),
      titled: new Int32Array(nOcc),
      probed: new Int32Array(nOcc),
      pool: new Int32Array(nOcc),
      scores: new Float64Array(nOcc),
      semantic: new Float64Array(nOcc),
      centroid: new Float64Array(nOcc),
      centres: new Float64Array(0),
      dots: new Float64Array(0),
    };
  }

  /**
   * The built index as named parts (engine/snapshot.ts writes each with node:v8): everything
   * {@linkcode fromSnapshot} needs to rank exactly as this index does, without the build. The
   * scratch buffers and the unknown-word memo are not in it. A field the build sets must be listed
   * in SNAPSHOT_FIELDS; the round-trip test ranks with both indexes and compares.
   */
  snapshot(): [string, unknown][] {
    return SNAPSHOT_FIELDS.map((name) => [name, OccupationIndex.#fields[name][0](this)]);
  }

  /**
   * An index from {@linkcode snapshot}'s parts, by name (serve/stores/snapshot.ts reads them), as
   * a generator that yields between fields (a caller pauses there, as buildAsync does); its return
   * value is the index.
   */
  static *fromSnapshot(
    byName: Map<string, unknown>,
  ): Generator<void, OccupationIndex, void> {
    for (const name of SNAPSHOT_FIELDS) {
      if (!byName.has(name)) throw new Error(`snapshot has no ${name}`);
    }
    const index = new OccupationIndex(
      {
        occupations: byName.get("occupations") as IndexOccupation[],
        titles: [],
        vectors: null,
      },
      byName.get("weights") as RankerWeights,
      DEFERRED,
    );
    for (const name of SNAPSHOT_FIELDS) {
      if (name === "occupations" || name === "weights") continue;
      OccupationIndex.#fields[name][1](index, byName.get(name));
      yield;
    }
    yield* index.#shareRepeats();
    index.#placeVectors();
    yield* index.#indexSkillWords();
    index.#allocateScratch(index.#titleOcc.length);
    return index;
  }

  /** Getter and setter of each snapshot part (a setter takes what the getter gave). */
  static readonly #fields: Record<
    SnapshotField,
    // deno-lint-ignore no-explicit-any
    [(i: OccupationIndex) => unknown, (i: OccupationIndex, v: any) => void]
  > = {
    // Descriptions and tasks only feed the build's text postings (2 MB of the 29.3 release's text).
    occupations: [
      (i) => i.occupations.map((o) => ({ ...o, description: "", tasks: [] })),
      () => {},
    ],
    weights: [(i) => i.#w, () => {}],
    vectors: [(i) => i.#vectors, (i, v) => i.#vectors = v],
    terms: [(i) => i.#terms, (i, v: Map<string, number>) => fill(i.#terms, v)],
    headIds: [(i) => i.#headIds, (i, v: Map<string, number>) => fill(i.#headIds, v)],
    headCount: [(i) => i.#headCount, (i, v: Map<string, number>) => fill(i.#headCount, v)],
    textPostings: [
      (i) => i.#textPostings.parts(),
      (i, v: PackedMapParts) => i.#textPostings = PackedMap.fromParts(v),
    ],
    vectorIndex: [(i) => i.#vectorIndex, (i, v: Map<string, number>) => fill(i.#vectorIndex, v)],
    pairPostings: [
      (i) => i.#pairPostings.parts(),
      (i, v: PackedMapParts) => i.#pairPostings = PackedMap.fromParts(v),
    ],
    stemPostings: [
      (i) => i.#stemPostings.parts(),
      (i, v: PackedMapParts) => i.#stemPostings = PackedMap.fromParts(v),
    ],
    titleIdf: [(i) => i.#titleIdf, (i, v) => i.#titleIdf = v],
    titlePostings: [
      (i) => i.#titlePostings.parts(),
      (i, v: PackedListsParts) => i.#titlePostings = PackedLists.fromParts(v),
    ],
    titleOcc: [(i) => i.#titleOcc, (i, v) => i.#titleOcc = v],
    titleKind: [(i) => i.#titleKind, (i, v) => i.#titleKind = v],
    titleText: [
      (i) => i.#titleText.parts(),
      (i, v: PackedStringsParts) => i.#titleText = PackedStrings.fromParts(v),
    ],
    titleNorm: [
      (i) => i.#titleNorm.parts(),
      (i, v: PackedStringsParts) => i.#titleNorm = PackedStrings.fromParts(v),
    ],
    titleHead: [(i) => i.#titleHead, (i, v) => i.#titleHead = v],
    titleHeadId: [(i) => i.#titleHeadId, (i, v) => i.#titleHeadId = v],
    titleWeight: [(i) => i.#titleWeight, (i, v) => i.#titleWeight = v],
    titleBm25: [(i) => i.#titleBm25, (i, v) => i.#titleBm25 = v],
    prior: [(i) => i.#prior, (i, v) => i.#prior = v],
    bias: [(i) => i.#bias, (i, v) => i.#bias = v],
    reranker: [(i) => i.#reranker, (i, v) => i.#reranker = v],
    roleClass: [(i) => i.#roleClass, (i, v) => i.#roleClass = v],
    supervisorOf: [(i) => i.#supervisorOf, (i, v) => i.#supervisorOf = v],
    helperOf: [(i) => i.#helperOf, (i, v) => i.#helperOf = v],
    heads: [(i) => i.#heads, (i, v) => i.#heads = v],
    primaryTerms: [(i) => i.#primaryTerms, (i, v) => i.#primaryTerms = v],
    primaryNorm: [(i) => i.#primaryNorm, (i, v) => i.#primaryNorm = v],
    textLength: [(i) => i.#textLength, (i, v) => i.#textLength = v],
    textAvg: [(i) => i.#textAvg, (i, v) => i.#textAvg = v],
    // Copies: the live ones are views of the WebAssembly memory, which V8 would write whole.
    occVectors: [(i) => i.#occVectors?.slice() ?? null, (i, v) => i.#occVectors = v],
    prototypes: [(i) => i.#prototypes?.slice() ?? null, (i, v) => i.#prototypes = v],
    groups: [(i) => i.#groups, (i, v) => i.#groups = v],
    groupCentres: [(i) => i.#groupCentres?.slice() ?? null, (i, v) => i.#groupCentres = v],
    prototypeOffsets: [(i) => i.#prototypeOffsets, (i, v) => i.#prototypeOffsets = v],
    titlesByOcc: [(i) => i.#titlesByOcc, (i, v) => i.#titlesByOcc = v],
    occPostings: [
      (i) => i.#occPostings.parts(),
      (i, v: PackedListsParts) => i.#occPostings = PackedLists.fromParts(v),
    ],
    avgIdf: [(i) => i.#avgIdf, (i, v) => i.#avgIdf = v],
    sortedTerms: [(i) => i.#sortedTerms, (i, v) => i.#sortedTerms = v],
    termGrams: [
      (i) => i.#termGrams.parts(),
      (i, v: PackedMapParts) => i.#termGrams = PackedMap.fromParts(v),
    ],
    skillTerms: [(i) => i.#skillTerms, (i, v) => i.#skillTerms = v],
    titleIdfT: [(i) => i.#titleIdfT, (i, v) => i.#titleIdfT = v],
    votePrior: [(i) => i.#votePrior, (i, v) => i.#votePrior = v],
    titleCoded: [(i) => i.#titleCoded, (i, v) => i.#titleCoded = v],
    titleBreadth: [(i) => i.#titleBreadth, (i, v) => i.#titleBreadth = v],
    titleListed: [(i) => i.#titleListed, (i, v) => i.#titleListed = v],
  };

  /** The build steps; yields every few hundred items so a caller can pause between slices. */
  *#build(source: IndexSource): Generator<void, void, void> {
    const occIndex = this.#occIndex;
    // A title written two ways ("SPED Aide (Special Education Aide)") is indexed as two titles.
    const titles = source.titles.filter((t) => occIndex.has(t.onetCode)).flatMap((t) => {
      const forms = twoForms(t.title);
      return forms ? forms.map((title) => ({ ...t, title })) : [t];
    });
    const n = titles.length;
    this.#titleOcc = new Int32Array(n);
    this.#titleKind = new Uint8Array(n);
    this.#titleCoded = new Float64Array(n);
    const titleText: string[] = new Array(n);
    const titleNorm: string[] = new Array(n);
    this.#titleHead = new Array(n);
    this.#titleWeight = new Float64Array(n);
    const titleTerms: string[][] = new Array(n);
    // term (or word pair) -> the occupation of every title that has it, one entry per title
    const occsOfTerm = new Map<string, number[]>();
    const occsOfPair = new Map<string, number[]>();
    const byOcc: number[][] = this.occupations.map(() => []);
    // "Production Workers, All Other": the catch-all suffix is not a word of the occupation.
    const written: string[][] = new Array(n);
    for (let i = 0; i < n; i++) {
      written[i] = indexTerms(titles[i].title.replace(ALL_OTHER, ""));
      if (i % 512 === 511) yield;
    }
    // A word the titles mostly write as two ("Tank Crewmember" beside 42 titles with "Crew
    // Member") is the two words in every title, so that one phrase is one phrase.
    const splits = yield* compoundSplitSteps(
      written.map((terms, i) => ({ terms, group: titles[i].onetCode.slice(0, 2) })),
    );
    for (let i = 0; i < n; i++) {
      const t = titles[i];
      const occ = occIndex.get(t.onetCode)!;
      this.#titleOcc[i] = occ;
      this.#titleKind[i] = TITLE_KINDS.indexOf(t.kind);
      titleText[i] = t.title;
      const terms = written[i].flatMap((term) => splits.get(term) ?? [term]);
      titleNorm[i] = terms.join(" ");
      const head = roleHead(t.title);
      this.#titleHead[i] = splits.get(head)?.[1] ?? head;
      titleTerms[i] = [...new Set(terms)];
      byOcc[occ].push(i);
      for (const term of titleTerms[i]) {
        const list = occsOfTerm.get(term);
        if (list) list.push(occ);
        else occsOfTerm.set(term, [occ]);
      }
      for (const pair of new Set(bigrams(terms))) {
        const list = occsOfPair.get(pair);
        if (list) list.push(occ);
        else occsOfPair.set(pair, [occ]);
      }
      if (i % 128 === 127) yield;
    }
    this.#titleText = PackedStrings.from(titleText);
    this.#titleNorm = PackedStrings.from(titleNorm);
    ({ breadth: this.#titleBreadth, listed: this.#titleListed } = yield* titleBreadthSteps(
      titles,
      titleNorm,
      this.#titleOcc,
    ));
    let step = 0;
    const pairPostings = new Map<string, Int32Array>();
    for (const [pair, list] of occsOfPair) {
      pairPostings.set(pair, countByOcc(list));
      if (++step % 512 === 0) yield;
    }
    this.#pairPostings = PackedMap.from(pairPostings);
    const occsOfStem = new Map<string, number[]>();
    for (const [term, list] of occsOfTerm) {
      const key = stem(term);
      const all = occsOfStem.get(key);
      if (all) all.push(...list);
      else occsOfStem.set(key, [...list]);
      if (++step % 512 === 0) yield;
    }
    const stemPostings = new Map<string, Int32Array>();
    for (const [key, list] of occsOfStem) {
      stemPostings.set(key, countByOcc(list));
      if (++step % 512 === 0) yield;
    }
    this.#stemPostings = PackedMap.from(stemPostings);
    this.#titlesByOcc = byOcc.map((list) => Int32Array.from(list));
    this.#heads = new Set(this.#titleHead.filter((h) => h));
    for (const h of this.#titleHead) {
      if (h) this.#headCount.set(h, (this.#headCount.get(h) ?? 0) + 1);
    }
    this.#titleHeadId = Int32Array.from(this.#titleHead, (h) => {
      if (!h) return -1;
      let id = this.#headIds.get(h);
      if (id === undefined) this.#headIds.set(h, id = this.#headIds.size);
      return id;
    });
    yield;
    const terms = [...occsOfTerm.keys()].sort();
    this.#sortedTerms = terms;
    yield;
    const grams = new Map<string, number[]>();
    for (let id = 0; id < terms.length; id++) {
      for (const g of trigrams(terms[id])) {
        const list = grams.get(g);
        if (list) list.push(id);
        else grams.set(g, [id]);
      }
      if (id % 2048 === 2047) yield;
    }
    this.#termGrams = PackedMap.from(grams);
    yield;
    const nOcc = this.occupations.length;
    this.#titleIdf = new Float64Array(terms.length);
    const occPostings: Int32Array[] = new Array(terms.length);
    for (let id = 0; id < terms.length; id++) {
      const term = terms[id];
      this.#terms.set(term, id);
      const counts = countByOcc(occsOfTerm.get(term)!);
      this.#titleIdf[id] = Math.log((nOcc + 1) / (counts.length / 2 + 0.5));
      occPostings[id] = counts;
      if (id % 512 === 511) yield;
    }
    this.#occPostings = PackedLists.from(occPostings);
    this.#avgIdf = terms.length ? this.#titleIdf.reduce((a, b) => a + b, 0) / terms.length : 1;
    const postings: number[][] = terms.map(() => []);
    for (let i = 0; i < n; i++) {
      let weight = 0;
      for (const term of titleTerms[i]) {
        const id = this.#terms.get(term)!;
        postings[id].push(i);
        weight += this.#titleIdf[id];
      }
      this.#titleWeight[i] = weight;
      const title = titles[i];
      if (title.kind === "primary" || isCatalogSource(title.source)) {
        const core = new Set(indexTerms(
          title.title.replace(/\([^)]*\)/g, " ").replace(ALL_OTHER, "").replace(EXCEPT, ""),
        ));
        let coded = 0;
        for (const term of core) coded += this.#titleIdf[this.#terms.get(term) ?? -1] ?? 0;
        this.#titleCoded[i] = coded;
      }
      if (i % 1024 === 1023) yield;
    }
    let totalLength = 0;
    for (let i = 0; i < n; i++) totalLength += titleTerms[i].length;
    const avgLength = n ? totalLength / n : 1;
    this.#titleBm25 = Float64Array.from(
      titleTerms,
      (t) => (AGG_K1 + 1) / (1 + AGG_K1 * (1 - AGG_B + AGG_B * t.length / avgLength)),
    );
    yield* this.#buildRoles(source, titles);
    yield;
    this.#titlePostings = PackedLists.from(postings);
    this.#titleIdfT = new Float64Array(terms.length);
    for (let id = 0; id < terms.length; id++) {
      const df = postings[id].length;
      this.#titleIdfT[id] = Math.max(1e-6, Math.log((n - df + 0.5) / (df + 0.5)));
      if (id % 1024 === 1023) yield;
    }
    this.#skillTerms = new Array(nOcc);
    this.#primaryTerms = new Array(nOcc);
    this.#primaryNorm = new Array(nOcc);
    for (let occ = 0; occ < nOcc; occ++) {
      const o = this.occupations[occ];
      this.#skillTerms[occ] = [...o.technologies, ...o.skills]
        .map((name): [string, string[]] => [name, [...new Set(indexTerms(name))]])
        .filter(([, words]) => words.length > 0);
      this.#primaryTerms[occ] = new Set(indexTerms(o.title.replace(ALL_OTHER, "")));
      this.#primaryNorm[occ] = indexTerms(o.title.replace(ALL_OTHER, "")).join(" ");
      if (occ % 16 === 15) yield;
    }

    // Context text: description and tasks, one document per occupation.
    this.#textLength = new Float64Array(nOcc);
    yield* this.#shareRepeats();
    yield* this.#indexSkillWords();
    this.#allocateScratch(n);
    const text = new Map<string, number[]>();
    for (let occ = 0; occ < nOcc; occ++) {
      const o = this.occupations[occ];
      const tf = new Map<string, [number, number]>();
      const add = (value: string, field: 0 | 1) => {
        for (const term of indexTerms(value)) {
          const entry = tf.get(term) ?? [0, 0];
          entry[field]++;
          tf.set(term, entry);
          this.#textLength[occ]++;
        }
      };
      add(o.description, 0);
      for (const task of o.tasks) add(task, 1);
      for (const [term, [d, t]] of [...tf].sort((a, b) => a[0] < b[0] ? -1 : 1)) {
        let list = text.get(term);
        if (!list) text.set(term, list = []);
        list.push(occ, d, t);
      }
      if (occ % 8 === 7) yield;
    }
    this.#textPostings = PackedMap.from(text);
    yield;
    this.#textAvg = nOcc ? this.#textLength.reduce((a, b) => a + b, 0) / nOcc : 1;

    if (source.vectors && source.vectors.terms.length > 0) {
      this.#vectors = yield* toBytes(source.vectors);
      yield* this.#buildVectors(source.vectors.terms, titleTerms);
    }
  }

  /** Size prior and SOC role structure (engine/roles.ts) per occupation. */
  *#buildRoles(source: IndexSource, titles: IndexTitle[]): Generator<void, void, void> {
    const nOcc = this.occupations.length;
    this.#prior = new Float64Array(nOcc);
    const employment = source.employment;
    const known = this.occupations.map((o) => employment?.get(o.onetCode) ?? 0)
      .filter((x) => x > 0).sort((a, b) => a - b);
    if (known.length > 0) {
      // log employment from the 10th percentile (0) to the largest (1); unknown codes at 0.
      const low = Math.log(known[Math.floor(known.length / 10)]);
      const high = Math.log(known[known.length - 1]);
      for (let occ = 0; occ < nOcc; occ++) {
        const e = employment!.get(this.occupations[occ].onetCode) ?? 0;
        this.#prior[occ] = e > 0 ? Math.min(1, Math.max(0, (Math.log(e) - low) / (high - low))) : 0;
      }
    }
    this.#votePrior = new Float64Array(nOcc);
    if (known.length > 0) {
      const median = known[Math.floor(known.length / 2)];
      const floor = known[Math.floor(known.length / 10)];
      for (let occ = 0; occ < nOcc; occ++) {
        const e = employment!.get(this.occupations[occ].onetCode) ?? 0;
        this.#votePrior[occ] = VOTE_PRIOR * Math.log((e || floor) / median);
      }
    }
    const maps = yield* roleMapsInSlices(this.occupations, titles);
    const index = (code: string | undefined) =>
      code === undefined ? -1 : this.#occIndex.get(code) ?? -1;
    this.#roleClass = Uint8Array.from(
      this.occupations,
      (o) => ROLE_CLASSES.indexOf(maps.classOf.get(o.onetCode) ?? "worker"),
    );
    this.#supervisorOf = Int32Array.from(
      this.occupations,
      (o) => index(maps.supervisorOf.get(o.onetCode)),
    );
    this.#helperOf = Int32Array.from(this.occupations, (o) => index(maps.helperOf.get(o.onetCode)));
  }

  /** The semantic channel: occupation centroids, their groups and title prototypes. */
  *#buildVectors(words: string[], titleTerms: string[][]): Generator<void, void, void> {
    const n = titleTerms.length;
    const nOcc = this.occupations.length;
    for (let i = 0; i < words.length; i++) {
      this.#vectorIndex.set(words[i], i);
      if (i % 4096 === 4095) yield;
    }
    const dims = this.#vectors!.dims;
    const titleVectors = new Float32Array(n * dims);
    for (let i = 0; i < n; i++) {
      this.#embed(titleTerms[i], titleVectors.subarray(i * dims, (i + 1) * dims));
      if (i % 512 === 511) yield;
    }
    const occVectors = new Float32Array(nOcc * dims);
    this.#occVectors = occVectors;
    for (let occ = 0; occ < nOcc; occ++) {
      const target = occVectors.subarray(occ * dims, (occ + 1) * dims);
      for (const i of this.#titlesByOcc[occ]) {
        const weight = this.#titleKind[i] === 0 ? 3 : 1;
        const v = titleVectors.subarray(i * dims, (i + 1) * dims);
        for (let d = 0; d < dims; d++) target[d] += weight * v[d];
      }
      normalise(target);
      if (occ % 64 === 63) yield;
    }
    // Groups of occupations by their centroids (k-means, deterministic start, fixed rounds).
    const groupCount = Math.min(GROUPS, nOcc);
    const centresOut = new Float32Array(groupCount * dims);
    for (let g = 0; g < groupCount; g++) {
      const from = Math.floor(g * nOcc / groupCount);
      centresOut.set(occVectors.subarray(from * dims, (from + 1) * dims), g * dims);
    }
    let members: number[][] = [];
    for (let round = 0; round < 8; round++) {
      members = Array.from({ length: groupCount }, () => []);
      for (let occ = 0; occ < nOcc; occ++) {
        const v = occVectors.subarray(occ * dims, (occ + 1) * dims);
        let best = 0;
        let bestDot = -Infinity;
        for (let g = 0; g < groupCount; g++) {
          const d = dotJs(v, centresOut, g * dims);
          if (d > bestDot) [best, bestDot] = [g, d];
        }
        members[best].push(occ);
        if (occ % 128 === 127) yield;
      }
      for (let g = 0; g < groupCount; g++) {
        if (members[g].length === 0) continue;
        const centre = centresOut.subarray(g * dims, (g + 1) * dims);
        centre.fill(0);
        for (const occ of members[g]) {
          for (let d = 0; d < dims; d++) centre[d] += occVectors[occ * dims + d];
        }
        normalise(centre);
      }
      yield;
    }
    this.#groups = members.map((list) => Int32Array.from(list));
    this.#groupCentres = centresOut;
    // Prototypes: each occupation's title vectors merged greedily (cosine >= PROTOTYPE_MERGE,
    // at most PROTOTYPE_CAP), so the title-level semantic check reads a few dozen vectors
    // instead of every title.
    const offsets = [0];
    const all: Float32Array[] = [];
    for (let occ = 0; occ < nOcc; occ++) {
      const mine: Float32Array[] = [];
      for (const i of this.#titlesByOcc[occ]) {
        const v = titleVectors.subarray(i * dims, (i + 1) * dims);
        if (v[0] === 0 && v[1] === 0) continue; // no word of the title has a vector
        let best = -1;
        let bestCos = -2;
        for (let p = 0; p < mine.length; p++) {
          const cos = dotArrays(v, mine[p]) / Math.sqrt(dotArrays(mine[p], mine[p]));
          if (cos > bestCos) [best, bestCos] = [p, cos];
        }
        if (best < 0 || (bestCos < PROTOTYPE_MERGE && mine.length < PROTOTYPE_CAP)) {
          mine.push(Float32Array.from(v));
        } else {
          for (let d = 0; d < dims; d++) mine[best][d] += v[d];
        }
      }
      for (const p of mine) normalise(p);
      all.push(...mine);
      offsets.push(all.length);
      if (occ % 16 === 15) yield;
    }
    const prototypes = new Float32Array(all.length * dims);
    for (let i = 0; i < all.length; i++) prototypes.set(all[i], i * dims);
    this.#prototypes = prototypes;
    this.#prototypeOffsets = Int32Array.from(offsets);
    this.#placeVectors();
  }

  /** Moves the semantic channel's matrices into WebAssembly memory for the query's dot products. */
  #placeVectors(): void {
    if (!this.#occVectors || !this.#groupCentres || !this.#prototypes || !this.#vectors) return;
    const space = new DotSpace(this.#vectors.dims, [
      this.#occVectors,
      this.#groupCentres,
      this.#prototypes,
    ]);
    [this.#occVectors, this.#groupCentres, this.#prototypes] = space.matrices;
    this.#space = space;
  }

  /** Idf of a title term (average idf for a word no title has). */
  idf(term: string): number {
    const id = this.#terms.get(term);
    return id === undefined ? this.#avgIdf : this.#titleIdf[id];
  }

  /** Whether some title has the word. */
  knows(term: string): boolean {
    return this.#terms.has(term);
  }

  /** How occupational a fragment of a title looks: idf of its known words, plus a known head. */
  segmentScore = (raw: string): number => {
    // Scored as it will be ranked: "restaurant crewmember" as "restaurant crew member".
    const segment = this.#splitCompounds(raw);
    const terms = indexTerms(segment);
    let score = 0;
    for (const term of terms) {
      const id = this.#terms.get(term);
      if (id !== undefined) score += this.#titleIdf[id];
    }
    // A part whose head is a known role ("line cook" of "Line Cook - Seafood Restaurant") wins
    // over a qualifier with rarer words; the first such part on a tie.
    // The more titles share the head, the more surely it names a role ("cook", not "crops").
    const heads = this.#headCount.get(roleHead(segment)) ?? 0;
    if (heads > 0) {
      // A part that is a title of the index, two words or more, names the role for certain
      // ("Fish Filleter - Processing Plant": "processing plant" has the commoner head).
      const title = terms.length >= 2 && this.#isTitle(terms) ? SEGMENT_TITLE_BONUS : 0;
      return score + SEGMENT_HEAD_BONUS + title + 10 * Math.log(1 + heads);
    }
    // A part that ends in a lead's or a supervisor's word names a role ("Concession Stand Lead -
    // Fair Circuit"), though few titles end in one ("Lead" ends one title of 29.3's index): a
    // setting of rarer words ("fair circuit", the electronics engineers' "Circuit Designer") had
    // outscored it.
    const last = segment.slice(segment.lastIndexOf(" ") + 1);
    if (terms.length >= 2 && (ROLE_WORDS[last] === "lead" || ROLE_WORDS[last] === "supervisor")) {
      return score + SEGMENT_HEAD_BONUS;
    }
    // A part whose last word heads no title may still name its role before words that qualify
    // it ("Medical Assistant Certified Float - Urgent Care"): the last of its words that heads
    // many titles counts, at half the bonus of a part that ends in its role.
    for (let i = terms.length - 2; i >= 0; i--) {
      const n = this.#headCount.get(terms[i]) ?? 0;
      if (n >= SEGMENT_INNER_HEAD_TITLES) {
        return score + SEGMENT_HEAD_BONUS / 2 + 10 * Math.log(1 + n);
      }
    }
    return score;
  };

  /**
   * Whether at least ROLE_WORD_TITLES titles end with the word, as roles do ("cashier"). Counted
   * over the word's own titles, so that it costs nothing until a title needs it.
   */
  #isRoleWord = (word: string): boolean => {
    const term = indexTerms(word)[0] ?? "";
    const id = this.#terms.get(term);
    if (id === undefined) return false;
    const list = this.#titlePostings.at(id);
    let titles = 0;
    for (let i = 0; i < list.length && titles < ROLE_WORD_TITLES; i++) {
      const norm = this.#titleNorm.at(list[i]);
      if (norm === term || norm.endsWith(` ${term}`)) titles++;
    }
    return titles >= ROLE_WORD_TITLES;
  };

  /** Occupations with a title whose role head is the term ("technician": 348), up to limit. */
  #occupationsHeadedBy(term: string, limit: number): number {
    const id = this.#terms.get(term);
    if (id === undefined) return 0;
    const list = this.#titlePostings.at(id);
    const occupations = new Set<number>();
    for (let i = 0; i < list.length && occupations.size < limit; i++) {
      if (this.#titleHead[list[i]] === term) occupations.add(this.#titleOcc[list[i]]);
    }
    return occupations.size;
  }

  /**
   * Whether exactly one occupation has the word as a title of its own ("Custodian"), and the word
   * is not a bare role ("Director": a title of one occupation, the role of titles in 91).
   */
  #namesOneOccupation = (word: string): boolean => {
    const id = this.#terms.get(word);
    if (id === undefined) return false;
    const list = this.#titlePostings.at(id);
    let owner = -1;
    for (let i = 0; i < list.length; i++) {
      if (this.#titleNorm.at(list[i]) !== word) continue;
      const occ = this.#titleOcc[list[i]];
      if (owner >= 0 && occ !== owner) return false;
      owner = occ;
    }
    return owner >= 0 &&
      this.#occupationsHeadedBy(word, BARE_ROLE_OCCUPATIONS) < BARE_ROLE_OCCUPATIONS;
  };

  /** Writes the idf-weighted, normalised centroid of the terms' vectors into target. */
  #embed(terms: string[], target: Float32Array): boolean {
    const { dims, data, scales } = this.#vectors!;
    let any = false;
    for (const term of terms) {
      const row = this.#vectorIndex.get(term);
      if (row === undefined) continue;
      const weight = this.idf(term) * scales[row];
      const offset = row * dims;
      for (let d = 0; d < dims; d++) target[d] += weight * data[offset + d];
      any = true;
    }
    if (any) normalise(target);
    return any;
  }

  /**
   * A known title word standing in for an unknown one: the longest known suffix of at least five
   * letters after a known word of at least three ("chemotherapist" → "therapist", "foodservice" →
   * "service"), or else the neighbour in sorted order sharing a prefix of at least six letters and
   * 70% of the word ("bioinformatician" → "bioinformatics"); failing both, for a word of five
   * letters or more, the title word with the most character trigrams in common (Jaccard over 0.5;
   * a misspelling or another form: "restaurateur" → "restauranteur", "recepcionist" →
   * "receptionist"). Until ranker 49 any known suffix stood in ("advancement" read as cement,
   * "governmental" as mental, "midnight" as night) and a Jaccard of 0.4 did ("middleware" as
   * middle, "forever" as forester, "insight" as inflight, "pyspark" as park). `loose` reads a word
   * that way still, for a title none of whose words would otherwise be known (#rankTitle): a loose
   * guess, its confidence low, rather than no answer at all.
   */
  resolveUnknown(term: string, loose = false): string | null {
    if (this.#terms.has(term) || term.length < 5 || /\d/.test(term)) return null;
    if (term.length < 6) return this.#closestByTrigrams(term, loose);
    for (let i = loose ? 1 : MIN_PREFIX; i <= term.length - 5; i++) {
      if (this.#terms.has(term.slice(i)) && (loose || this.#terms.has(term.slice(0, i)))) {
        return term.slice(i);
      }
    }
    const sorted = this.#sortedTerms;
    const lo = lowerBound(sorted, term);
    let best: string | null = null;
    let bestLength = Math.max(6, Math.ceil(term.length * 0.7)) - 1;
    for (const candidate of [sorted[lo - 1], sorted[lo]]) {
      if (!candidate) continue;
      let k = 0;
      while (k < term.length && k < candidate.length && term[k] === candidate[k]) k++;
      if (k > bestLength) [best, bestLength] = [candidate, k];
    }
    return best ?? this.#closestByTrigrams(term, loose);
  }

  #closestByTrigrams(term: string, loose: boolean): string | null {
    const memo = this.#unknownMemo;
    const key = loose ? `~${term}` : term;
    const known = memo.get(key);
    if (known !== undefined) return known;
    // Bounded: a pure function of the word, so forgetting only costs time.
    if (memo.size >= UNKNOWN_MEMO) memo.clear();
    const found = this.#searchTrigrams(term, loose ? TRIGRAM_LOOSE : TRIGRAM_MIN);
    memo.set(key, found);
    return found;
  }

  #searchTrigrams(term: string, min: number): string | null {
    const mine = trigrams(term);
    const hits = new Map<number, number>();
    for (const g of mine) {
      const ids = this.#termGrams.get(g);
      if (ids) { for (const id of ids) hits.set(id, (hits.get(id) ?? 0) + 1); }
    }
    const sorted = this.#sortedTerms;
    let best = -1;
    let bestSim = 0;
    for (const [id, n] of hits) {
      const theirs = sorted[id].length + 1;
      const sim = n / (mine.size + theirs - n);
      if (sim <= min) continue;
      // Ties go to the word first in sorted order: deterministic.
      if (best < 0 || sim > bestSim || (sim === bestSim && id < best)) [best, bestSim] = [id, sim];
    }
    return best < 0 ? null : sorted[best];
  }

  /**
   * Ranks occupations for a title (and optional description). A title written two ways ("PA
   * Tech (Public Address Technician)", text.ts twoForms) is ranked as each form, and the ranking
   * whose best match is stronger answers, as the index holds such titles as two titles.
   */
  rank(query: RankQuery, options: RankOptions): Ranking {
    // A title written in Spanish is read in English first ("Ayudante de Cocina").
    const english = spanishAsEnglish(query.title);
    if (english !== query.title) query = { ...query, title: english };
    const forms = twoForms(query.title.replace(/\s+/g, " ").trim());
    if (!forms) return this.#rankTitle(query, options);
    const [first, second] = forms.map((title) => this.#rankTitle({ ...query, title }, options));
    const best = (r: Ranking) => r.results[0]?.score ?? -Infinity;
    return best(second) > best(first) ? second : first;
  }

  /**
   * The cleaned title's words as the index reads them, in this order: a leading rank word dropped
   * (#withoutRank), employer contractions written out (#expandContractions), split compounds
   * joined (#joinCompounds), unknown compounds split (#splitCompounds), a functional vice
   * president read as a manager (#functionalVp). The role parse and the apprentice rule
   * (#withoutApprentice) follow in #rankTitle.
   */
  #readWords(text: string, raw: string): string {
    let words = this.#withoutCoPrefix(taxPractice(assuranceAsAudit(text), raw), raw);
    words = this.#withoutRank(words);
    words = this.#expandContractions(words, raw);
    words = this.#joinCompounds(words);
    words = this.#genderedForms(words);
    words = this.#splitCompounds(words);
    words = this.#manAsRole(words);
    words = this.#headAsSupervisor(words);
    words = this.#crewWorker(words, raw);
    words = this.#gerundWorker(words);
    return this.#functionalVp(words);
  }

  /**
   * Gendered forms the index does not have, read as the form it has.
   * - A word ending "-ess" or "-ette" is its role word ("Janitress" the janitor, "Usherette" the
   *   usher, "Manageress" the manager): the stem, or a "-tress" stem with "-tor" or "-ter", that
   *   is a title or ends ROLE_WORD_TITLES titles. A "-mistress" is its "-master" ("Postmistress"),
   *   a "-lady" or "-woman" its "-person" or "-man" ("Saleslady" the salesperson).
   * - A girl is O*NET's boy when the index has that ("Busgirl", "Bus Girl": the busboy); a boy or
   *   girl the index has no title of is the worker of the word before it when the index has that
   *   phrase ("Stock Girl" the stock worker, "Yard Boy" the yard worker; of worker, helper,
   *   attendant and clerk in any order, or #manAsRole's words, "worker" alone was best on the
   *   blind rounds' 28 such titles).
   * - An unknown compound of a known word and "hand", or of a title phrase ("Shopgirl": O*NET's
   *   "Shop Girl"), is its two words ("Cowhand": a cow hand).
   * Read as written, each was an unknown word: no answer, a stand-in that shared its letters, or
   * the busboy through "boy" ("Yard Boy", "Errand Boy").
   */
  #genderedForms(text: string): string {
    if (!GENDERED_ENDING.test(text)) return text;
    const words = text.split(" ");
    let changed = false;
    for (let i = 0; i < words.length; i++) {
      const word = words[i];
      let read: string[] | null = null;
      if ((word === "girl" || word === "boy") && i > 0) {
        const stem = words[i - 1];
        if (!this.#isPhrase(stem, word)) {
          if (word === "girl" && this.#isPhrase(stem, "boy")) read = [stem, "boy"];
          else if (this.#isPhrase(stem, "worker")) read = [stem, "worker"];
          if (read) words.splice(i - 1, 2, ...read);
          changed ||= read !== null;
          continue;
        }
      }
      const found = /^([a-z]{3,}?)(mistress|ess|ette|girl|boy|hand|lady|woman|person)$/.exec(word);
      if (!found || this.#known(word)) continue;
      const [, stem, ending] = found;
      if (ending === "ess" || ending === "ette") {
        // "-tress" drops the vowel of "-tor" and "-ter": janitr-ess, waitr-ess.
        const bare = stem.endsWith("r") ? stem.slice(0, -1) : null;
        const bases = bare === null ? [stem] : [`${bare}or`, `${bare}er`, stem];
        const base = bases.find((w) => this.#isRoleWord(w) || this.#isTitle(indexTerms(w)));
        if (base !== undefined) read = [base];
      } else if (ending === "mistress") {
        if (this.#known(`${stem}master`)) read = [`${stem}master`];
      } else if (ending === "lady" || ending === "woman" || ending === "person") {
        // "Saleslady" the salesperson, "Forelady" the foreman, "Herdsperson" the herdsman (the
        // cleaning reads "Foreperson" as a supervisor before this).
        const base = [`${stem}person`, `${stem}man`].find((w) => w !== word && this.#known(w));
        if (base !== undefined) read = [base];
      } else if (this.#known(stem)) {
        if (ending === "hand" || this.#isPhrase(stem, ending)) read = [stem, ending];
        else if (ending === "girl" && this.#known(`${stem}boy`)) read = [`${stem}boy`];
        else if (this.#isPhrase(stem, "worker")) read = [stem, "worker"];
      }
      if (read === null) continue;
      words.splice(i, 1, ...read);
      changed = true;
    }
    return changed ? words.join(" ") : text;
  }

  /**
   * "Head" before a worker's title is its supervisor ("Head Housekeeper", "Headwaiter",
   * "Gardener, head": O*NET's own "Head Usher" and "Head Butler" are titles of the supervisors of
   * personal service workers), read as "<title> supervisor" when the title, or its last word, is
   * the title of an occupation that has a supervisor occupation. A title phrase of the index
   * stays ("Head Cook", "Head Sawyer", "Head Start"), and so does the head of a worker whose
   * group has no supervisor ("Head Nurse", "Head Teacher", "Head Coach"). Read as written, "head"
   * was one more word, and the worker's occupation took the title.
   */
  #headAsSupervisor(text: string): string {
    if (!text.includes("head") && !text.includes("chief")) return text;
    let words = text.split(" ");
    // A coding index's chief of workers is their head, first or before the last word ("Operator,
    // chief (telephone exchange)" is cleaned to "chief telephone exchange operator", "Housekeeper,
    // chief - hotel" to "hotel chief housekeeper"), unless "chief" and the next word are a title
    // phrase of the index ("Chief Clerk", "Chief Engineer") or the chief is of something or an
    // officer (CHIEF_OF: "Chief of Police", "Chief Operating Officer").
    const chief = words.indexOf("chief");
    if (chief >= 0 && (chief === 0 || chief === words.length - 2) && words.length > 1) {
      const next = words[chief + 1];
      if (this.#isPhrase("chief", next) || CHIEF_OF.test(text)) return text;
      words = ["head", ...words.filter((_, i) => i !== chief)];
    }
    // So is a head before the last word ("Head teller, branch office" is cleaned to "branch office
    // head teller").
    const head = words.lastIndexOf("head");
    if (head > 0 && head === words.length - 2) {
      words = ["head", ...words.filter((_, i) => i !== head)];
    }
    let rest: string[];
    if (words[0] === "head") {
      rest = words.slice(1);
      // "Head Cook", and "Cook, head (school cafeteria)" read as "head school cafeteria cook".
      if (
        rest.length === 0 || this.#isPhrase("head", rest[0]) || this.#isPhrase("head", rest.at(-1))
      ) {
        return text;
      }
    } else {
      // One word the index does not know: "Headwaiter", "Supper Club Headwaiter".
      const at = words.findIndex((w) =>
        w.length > 6 && w.startsWith("head") && !this.#known(w) && this.#known(w.slice(4))
      );
      if (at < 0) return text;
      rest = words.with(at, words[at].slice(4));
    }
    const terms = indexTerms(rest.join(" "));
    let occ = this.#titleOccupation(terms);
    if (occ < 0 && terms.length > 1) occ = this.#titleOccupation(terms.slice(-1));
    // The title first and its setting after it ("Head Housekeeper (Hotel)", "Teller, head (bank)"
    // read as "head teller bank").
    for (let n = terms.length - 1; occ < 0 && n >= 1; n--) {
      occ = this.#titleOccupation(terms.slice(0, n));
    }
    if (occ < 0 || this.#supervisorOf[occ] < 0 || this.#roleClass[occ] !== 0) return text;
    return `${rest.join(" ")} supervisor`;
  }

  /**
   * A crew of a domain ("Harvest Crew Member", "Grounds Crew", "Lambing Crew Worker", "Strawberry
   * Transplant Crew") is a worker of it: "crew", "crew member" or "crew" before worker or laborer
   * reads as "worker" (or as the role that follows). Read as written, "crew member" took the
   * answer to whatever O*NET lists a crew member under: the fishing workers ("Harvest Crew
   * Member"), the artillery crews ("Hand Weeding Crew Member"), the fast food workers. A crew the
   * index has as a title stays ("Kitchen Crew Member", "Flight Crew", "Landscape Crew Member"), and
   * so does a crew's leader, chief or foreman ("Crew Leader"), a crew with no domain and a crew in
   * brackets.
   */
  #crewWorker(text: string, raw: string): string {
    if (!text.includes("crew")) return text;
    // A crew in brackets qualifies a role outside them ("Combine Mechanic (Custom Harvest Crew)").
    if (!/\bcrew\b/i.test(raw.replace(/[([{][^)\]}]*[)\]}]/g, " "))) return text;
    const words = text.split(" ");
    const at = words.indexOf("crew");
    if (at < 1) return text;
    const next = words[at + 1];
    const member = next === "member" || next === "members";
    // A crew the index has as a title ("Kitchen Crew Member", "Asphalt Paving Crew Member").
    const end = member ? at + 2 : at + 1;
    for (let from = Math.max(0, at - 3); from < at; from++) {
      const crew = words.slice(from, end).join(" ");
      if (this.#isTitle(indexTerms(crew))) return text;
      // "Ground Operations Crew": O*NET's "Ground Operations Crew Member".
      if (!member && this.#isTitle(indexTerms(`${crew} member`))) return text;
    }
    let read: string[];
    if (next === undefined) read = ["worker"];
    else if (member) read = ["worker", ...words.slice(at + 2)];
    else if (CREW_ROLES.has(next)) read = words.slice(at + 1);
    else return text;
    return [...words.slice(0, at), ...read].join(" ");
  }

  /**
   * A worker named by what they do ("Cherry Sorting Line Worker", "Pepper Grading Table Worker",
   * "Packing Worker") is its doer: "<verb>ing" with "worker" after it, a line, table, room,
   * floor, house or shed between them or not, reads as "<verb>er" or "<verb>or" ("sorter",
   * "grader", "processor") when that word ends ROLE_WORD_TITLES titles of the index. Read as
   * written, "line worker" and "worker" took the title to the production workers. A phrase the
   * index has stays ("Coating Line Worker", "Picking Table Worker"), unless the word before and
   * the doer are one of its titles ("Fish Processing Worker": "Fish Processor", though
   * "processing worker" is a phrase; it went to the fishing workers) and the whole is not.
   */
  #gerundWorker(text: string): string {
    if (!text.includes("ing ")) return text;
    const words = text.split(" ");
    const at = words.findIndex((w) => w === "worker" || w === "workers");
    if (at < 1) return text;
    const between = GERUND_PLACES.has(words[at - 1]) ? 1 : 0;
    const from = at - 1 - between;
    const gerund = words[from];
    if (gerund === undefined || gerund.length < 6 || !gerund.endsWith("ing")) return text;
    // "-er" or "-or": sorter, processor.
    const stem = gerund.slice(0, -3);
    const doer = [`${stem}er`, `${stem}or`].find(this.#isRoleWord);
    if (doer === undefined) return text;
    // A phrase the index has stays, unless the word before and the doer are a title of it ("Fish
    // Processing Worker": O*NET's "Fish Processor", though "Processing Worker" is a phrase too).
    const titled = from > 0 && this.#isTitle(indexTerms(`${words[from - 1]} ${doer}`)) &&
      !this.#isTitle(indexTerms(text));
    if (!titled && this.#isPhrase(gerund, words[from + 1])) return text;
    return [...words.slice(0, from), doer, ...words.slice(at + 1)].join(" ");
  }

  /**
   * An old "-man" title the index does not have ("Hammerman", "Winchman", "Kettleman", "Oven
   * Man") is the worker of its first word: read as "<word> operator", or worker, tender or
   * attendant, the first the index has as a title phrase ("hammer operator", the forging machine
   * setters). Read as written, the unknown word stood in for whatever shared its letters
   * ("Kettleman" the construction laborers, "Derrickman" the stonemasons). A "-man" word the
   * index has ("Lineman", "Repairman") or a pair it has with "man" stays.
   *
   * So is a machine's jockey ("Tractor Jockey", "Swather Jockey", "Ride Jock"): the slang of its
   * operator or driver, unless the index has the pair ("Disc Jockey", "Car Jockey", "Gas
   * Jockey"). Read as written, the disc jockeys took each through "jockey".
   */
  #manAsRole(text: string): string {
    if (!text.includes("man") && !text.includes("jock")) return text;
    const words = text.split(" ");
    let changed = false;
    for (let i = 0; i < words.length; i++) {
      const word = words[i];
      if ((word === "jockey" || word === "jock") && i > 0) {
        const stem = words[i - 1];
        if (this.#isPhrase(stem, "jockey")) continue;
        const role = JOCKEY_ROLES.find((r) => this.#isPhrase(stem, r));
        if (role === undefined) continue;
        words[i] = role;
        changed = true;
        continue;
      }
      let stem: string | null = null;
      let from = i;
      if (word === "man" && i > 0 && !this.#isPhrase(words[i - 1], "man")) {
        stem = words[i - 1];
        from = i - 1;
      } else if (/^[a-z]{3,}(?:wo)?man$/.test(word) && !this.#terms.has(indexTerms(word)[0])) {
        stem = word.replace(/(?:wo)?man$/, "");
      }
      if (stem === null || stem.length < 3 || !this.#terms.has(indexTerms(stem)[0] ?? "")) continue;
      const role = MAN_ROLES.find((r) => this.#isPhrase(stem, r));
      if (role === undefined) continue;
      words.splice(from, i - from + 1, stem, role);
      i = from + 1;
      changed = true;
    }
    return changed ? words.join(" ") : text;
  }

  /**
   * A physician or trainee named by specialty ("Resident Physician - Psychiatry", "Cardiology
   * Fellow", "Internal Medicine Resident") is read as O*NET's "<specialty> Physician" title
   * ("Psychiatry Physician", a psychiatrist's) when the index has that title. Read as written,
   * the role words took the answer ("Resident Physician" and "Clinical Fellow" are titles of
   * the physicians, all other) and the specialty was a qualifier. A title O*NET has as written
   * ("Chaplain Resident", "Pharmacy Resident") stays.
   */
  #readSpecialty(cleaned: CleanedTitle): void {
    const specialty = medicalSpecialty(cleaned.text, cleaned.rest);
    if (specialty === null) return;
    const trainee = MEDICAL_TRAINEE.test(cleaned.text) || MEDICAL_TRAINEE.test(cleaned.rest);
    const reading = this.#specialtyReading(indexTerms(specialty), trainee);
    const written = indexTerms(cleaned.text);
    if (reading === null || reading.join(" ") === written.join(" ")) return;
    if (cleaned.rest === "" && this.#isTitle(written)) return;
    cleaned.text = reading.join(" ");
    cleaned.rest = "";
    cleaned.reread = true;
  }

  /**
   * A title whose setting decides its occupation (text.ts settingReading: "Groom - Racetrack" an
   * animal caretaker, "Room Attendant - Hotel" a maid) reads as that occupation's title; the
   * qualifier that named the setting has been read.
   */
  #readSetting(cleaned: CleanedTitle, raw: string): void {
    const reading = settingReading(raw);
    if (reading === null) return;
    cleaned.text = reading;
    cleaned.rest = "";
    cleaned.reread = true;
  }

  /**
   * An engineer named by a rank word at most ("Principal Engineer", "Staff Engineer") whose
   * qualifier is a computing team or product ("- Cloud Storage", ", Developer Productivity",
   * "- Guidewire PolicyCenter": at least half of its words computing ones, #namesComputing, or
   * software products, #namesSoftware) is a software engineer: read as written, the bare
   * "engineer" went to the civil engineers and "staff engineer" to the computer hardware
   * engineers, and the qualifier only re-orders their shortlist. A qualifier of other words stays
   * a qualifier ("Lead Engineer - Data Center Facilities").
   */
  #computingEngineer(cleaned: CleanedTitle): void {
    if (cleaned.rest === "" || !BARE_ENGINEER.test(cleaned.text)) return;
    let computing = 0;
    let known = 0;
    for (const term of indexTerms(cleaned.rest)) {
      if (SOFTWARE_LAYERS.has(term)) {
        known++;
        computing++;
      } else if (this.#terms.has(term)) {
        known++;
        if (this.#namesComputing(term)) computing++;
      } else if (this.#namesSoftware(term)) {
        known++;
        computing++;
      }
    }
    if (computing > 0 && computing * 2 >= known) {
      cleaned.text = cleaned.text.replace(/engineer$/, "software engineer");
    }
  }

  /**
   * A title and a qualifier that together make a title of the index ("Crew Leader - Landscaping":
   * O*NET's "Landscaping Crew Leader"; "Project Manager - Construction") are read as that title:
   * as a qualifier, the words re-ordered only a shortlist the shared title had already decided
   * ("Crew Leader" is the food service supervisors' title, so the landscaping crew leader came
   * second).
   */
  #readQualifiedTitle(cleaned: CleanedTitle): void {
    if (cleaned.rest === "" || cleaned.text === "") return;
    const rest = indexTerms(cleaned.rest);
    if (rest.length === 0 || rest.length > 3) return;
    const joined = [...rest, ...indexTerms(cleaned.text)];
    if (!this.#isTitle(joined)) return;
    cleaned.text = joined.join(" ");
    cleaned.rest = "";
  }

  /**
   * A scientist or researcher of a field ("Physics Research Scientist", "Biology Researcher",
   * "Research Scientist - Chemistry", a postdoc's "physics scientist") is the field's practitioner
   * when the index has the word as a title's role (physicist, biologist, chemist; "Data Science
   * Researcher" a data scientist): read as written, the field word matched its teachers ("Physics
   * Instructor") and the role word every scientist. A qualifier is read as the field only when it
   * names one ("Research Scientist - Amazon" stays). A title the index has as written stays.
   */
  #readField(cleaned: CleanedTitle): void {
    const words = cleaned.text.split(" ");
    const last = words.length - 1;
    if (!RESEARCHER_HEADS.has(words[last])) return;
    let at = last - 1;
    if (words[at] === "research") at--;
    if (at < 0) {
      // Only the role: the qualifier may name the field.
      const rest = cleaned.rest.split(" ").filter((w) => w !== "");
      if (rest.length === 0 || rest.length > 3) return;
      const practitioner = this.#practitioner(rest[rest.length - 1]);
      if (practitioner === null) return;
      cleaned.text = [...rest.slice(0, -1), practitioner].join(" ");
      cleaned.rest = "";
      return;
    }
    if (this.#isTitle(indexTerms(cleaned.text))) return;
    const practitioner = this.#practitioner(words[at]);
    if (practitioner !== null) cleaned.text = [...words.slice(0, at), practitioner].join(" ");
  }

  /**
   * The practitioner of a field word, as the index has it as the role of a scientist's title
   * (SCIENTIST_GROUPS), or null: a postdoc in oncology is a medical scientist, not an oncologist.
   */
  #practitioner(word: string): string | null {
    const field = indexTerms(word)[0];
    if (field === undefined) return null;
    for (const form of practitionerForms(field)) {
      const id = this.#terms.get(form);
      if (id === undefined) continue;
      const list = this.#titlePostings.at(id);
      for (let i = 0; i < list.length; i++) {
        if (this.#titleHead[list[i]] !== form) continue;
        const code = this.occupations[this.#titleOcc[list[i]]].onetCode;
        if (SCIENTIST_GROUPS.some((group) => code.startsWith(group))) return form;
      }
    }
    return null;
  }

  /**
   * The title a physician's specialty reads as: "<specialty> physician" ("internal medicine
   * physician"), else, for a resident or fellow, the specialty's practitioner with its other words
   * or alone ("general surgery": general surgeon, surgeon; "diagnostic radiology": diagnostic
   * radiologist, radiologist) when that is the title of a health practitioner (29-1); null when the
   * index has neither. Without the practitioner, "General Surgery Resident" went to the registered
   * nurses ("Surgery Nurse"). Not for a doctor: a "Doctor of Dental Surgery" is a dentist's degree.
   */
  #specialtyReading(words: string[], trainee: boolean): string[] | null {
    const physician = [...words, "physician"];
    if (this.#isTitle(physician)) return physician;
    if (!trainee) return null;
    const forms = practitionerForms(words[words.length - 1]);
    for (const form of forms) {
      for (const reading of [[...words.slice(0, -1), form], [form]]) {
        const occ = this.#titleOccupation(reading);
        if (occ >= 0 && this.occupations[occ].onetCode.startsWith("29-1")) return reading;
      }
    }
    return null;
  }

  /**
   * Whether a cleaned fragment of a title is a title of the index, as written, of at most
   * QUALIFIED_TITLE_OCCUPATIONS occupations (cleanTitle's `isTitle`).
   */
  #isQualifiedTitle = (segment: string): boolean => {
    const terms = indexTerms(this.#splitCompounds(segment));
    const n = this.#titleOwners(terms, QUALIFIED_TITLE_OCCUPATIONS + 1);
    return n > 0 && n <= QUALIFIED_TITLE_OCCUPATIONS;
  };

  /** Whether the index has a title whose terms are exactly these, in this order. */
  #isTitle(terms: string[]): boolean {
    return this.#titleOccupation(terms) >= 0;
  }

  /** The occupation of a title whose terms are exactly these, in this order, or -1. */
  #titleOccupation(terms: string[]): number {
    return this.#titleOwners(terms, 1) > 0 ? this.#owners[0] : -1;
  }

  /**
   * Finds the occupations (up to limit) with a title whose terms are exactly these, in this order:
   * their count, and the occupations in #owners (scratch, reused: rank is synchronous).
   */
  #titleOwners(terms: string[], limit: number): number {
    const owners = this.#owners;
    owners.length = 0;
    // Every neighbouring pair of a title is a phrase of the index: hash lookups rule most queries
    // out before any title is read.
    for (let i = 0; i + 1 < terms.length; i++) {
      if (!this.#pairPostings.has(`${terms[i]} ${terms[i + 1]}`)) return 0;
    }
    let rarest = -1;
    let fewest = Infinity;
    for (const term of terms) {
      const id = this.#terms.get(term);
      if (id === undefined) return 0;
      const n = this.#titlePostings.lengthOf(id);
      if (n < fewest) [rarest, fewest] = [id, n];
    }
    if (rarest < 0) return 0;
    const norm = terms.join(" ");
    const list = this.#titlePostings.at(rarest);
    for (let i = 0; i < list.length && owners.length < limit; i++) {
      const occ = this.#titleOcc[list[i]];
      if (this.#titleNorm.at(list[i]) === norm && !owners.includes(occ)) owners.push(occ);
    }
    return owners.length;
  }

  /**
   * "Co-" before a word is a prefix, not a word: a co-manager is a manager, a co-teacher a
   * teacher. Read as a word, "co" matched O*NET's abbreviations ("Corrections Officer (CO)",
   * "Clinical Orthoptist (CO)"): "Co-Manager" went to the police supervisors ("Police CO"),
   * "Co-Founder" to the correctional officers and "Co-Teacher" to the orthoptists. It stays when
   * the index has the two as a title phrase ("Co-Pilot"); the two are one word when the index
   * writes them so.
   */
  #withoutCoPrefix(text: string, raw: string): string {
    if (!CO_PREFIX.test(raw)) return text;
    const prefixed = new Set<string>();
    for (const match of raw.matchAll(CO_PREFIXED)) prefixed.add(foldText(match[1]));
    const words = text.split(" ");
    let changed = false;
    for (let i = 0; i + 1 < words.length; i++) {
      const next = words[i + 1];
      if (words[i] !== "co" || !prefixed.has(next) || this.#isPhrase("co", next)) continue;
      const joined = indexTerms(`co${next}`);
      if (joined.length === 1 && this.#terms.has(joined[0])) words.splice(i, 2, `co${next}`);
      else words.splice(i, 1);
      changed = true;
    }
    return changed ? words.join(" ") : text;
  }

  /**
   * Whether an exclusion clause's alternatives (each a list of words) name the occupation: its own
   * title has every word of one ("Painter, exc construction and maintenance": the construction
   * painters), unless that title joins the alternative with another of the query's words as a
   * separate kind of worker ("Foreman, construction -- exc extraction" is still one of the
   * "First-Line Supervisors of Construction Trades and Extraction Workers"; "Driver, truck (exc
   * heavy)" is none of the "Heavy and Tractor-Trailer Truck Drivers", where "heavy" is no kind).
   * `qualifiers`: the query's words other than its role head.
   */
  #namedByExclusion(occ: number, alternatives: string[][], qualifiers: string[]): boolean {
    const own = this.#unexceptedTerms(occ);
    let conjuncts: Set<string>[] | null = null;
    for (const terms of alternatives) {
      if (!terms.every((t) => own.has(t))) continue;
      // The title's kinds, read only for an occupation the clause would name.
      conjuncts ??= qualifiers.length === 0 ? [] : this.occupations[occ].title
        .replace(EXCEPT, "").replace(ALL_OTHER, "").split(/,|\band\b|\bor\b/)
        .map((part) => new Set(indexTerms(part)));
      const kinds = conjuncts.some((c) =>
        c.size > terms.length && terms.every((t) => c.has(t)) &&
        !qualifiers.some((q) => c.has(q))
      ) && conjuncts.some((c) => qualifiers.some((q) => c.has(q)));
      if (!kinds) return true;
    }
    return false;
  }

  /**
   * The words of an occupation's own title without its exclusion ("Wholesale and Retail Buyers,
   * Except Farm Products": wholesale, retail, buyer; "Non-Retail Sales": sale), for a query's
   * exclusion clause to name.
   */
  #unexceptedTerms(occ: number): Set<string> {
    const title = this.occupations[occ].title;
    const own = title.replace(EXCEPT, "").replace(NEGATED, " ");
    return own === title
      ? this.#primaryTerms[occ]
      : new Set(indexTerms(own.replace(ALL_OTHER, "")));
  }

  /**
   * An apprentice is coded with the occupation it learns (the SOC coding principle): the word is
   * dropped ("Apprentice Algologist" is an algologist), unless the index has it in a title phrase
   * with a neighbouring word (O*NET codes "Electrician Apprentice" and "Plumber Apprentice" with
   * the construction helpers). Without it, the few occupations with many apprentice titles took
   * every apprentice query.
   */
  #withoutApprentice(text: string): string {
    const words = text.split(" ");
    const at = words.findIndex((word) => ROLE_WORDS[word] === "apprentice");
    if (at < 0 || words.length < 2) return text;
    if (this.#isPhrase(words[at - 1], words[at]) || this.#isPhrase(words[at], words[at + 1])) {
      return text;
    }
    return words.filter((_, i) => i !== at).join(" ");
  }

  /**
   * Two words the index writes as one ("Book Keeper", "Lock Smith", "Care Giver", "Ware House")
   * are read as that word, unless the index also has them apart as a title phrase ("Farm
   * Worker", beside "Farmworker"), or either is in one with its other neighbour ("Funeral Home
   * Owner" is not a homeowner).
   */
  #joinCompounds(text: string): string {
    const words = text.split(" ");
    if (words.length < 2) return text;
    let changed = false;
    for (let i = 0; i + 1 < words.length; i++) {
      const a = words[i];
      const b = words[i + 1];
      if (a.length < 3 || b.length < 3 || /[^a-z]/.test(a) || /[^a-z]/.test(b)) continue;
      const joined = indexTerms(a + b);
      if (joined.length !== 1 || !this.#terms.has(joined[0])) continue;
      // Apart, the words stay when the index has them apart in more than a few titles (its own
      // usage: "Cyber Security Analyst") or at least as often as joined ("Farm Worker").
      const apart = this.#phraseTitles(a, b);
      if (apart > JOIN_APART_MAX || apart >= this.#termTitles(joined[0])) continue;
      // Either word in a title phrase with its other neighbour ("Funeral Home Owner") stays.
      if (this.#isPhrase(words[i - 1], a) || this.#isPhrase(b, words[i + 2])) continue;
      words.splice(i, 2, a + b);
      changed = true;
    }
    return changed ? words.join(" ") : text;
  }

  /**
   * A word the index does not know that is two words it has as a title phrase ("Backend",
   * "Frontend", "Fullstack", "Helpdesk", "Foodservice") is read as those two words; before, a
   * spelling stand-in took its place ("backend" read as "backer", a printing press operator).
   * Of several splits, the one with the longer shorter half.
   */
  #splitCompounds(text: string): string {
    const words = text.split(" ");
    let changed = false;
    for (let i = 0; i < words.length; i++) {
      const word = words[i];
      if (word.length < 6 || /[^a-z]/.test(word) || this.#known(word)) continue;
      let best: [string, string] | null = null;
      for (let at = 3; at <= word.length - 3; at++) {
        const [a, b] = [word.slice(0, at), word.slice(at)];
        if (!this.#isPhrase(a, b)) continue;
        if (!best || Math.min(a.length, b.length) > Math.min(best[0].length, best[1].length)) {
          best = [a, b];
        }
      }
      if (!best) continue;
      words.splice(i, 1, ...best);
      changed = true;
    }
    return changed ? words.join(" ") : text;
  }

  /**
   * "Lead" after a title's first word ("Production Lead", "Technical Lead", "Retail Team Lead")
   * is a role, unless it makes a title phrase with a neighbour ("White Lead Grinder"): O*NET's
   * titles with the word are nearly all of the metal ("Lead Setter", "Lead Refiner"), and they
   * took such titles to the production workers. "Team lead" is a role too (O*NET's one team
   * lead is an instructional coordinator's).
   */
  #leadAsRole(text: string): "lead" | "team lead" | null {
    const words = text.split(" ");
    const at = words.indexOf("lead", 1);
    if (at < 0) return null;
    if (words[at - 1] === "team") return "team lead";
    return this.#isPhrase(words[at - 1], "lead") || this.#isPhrase("lead", words[at + 1])
      ? null
      : "lead";
  }

  /** How many titles have the two words as a phrase (0 when either is not a word). */
  #phraseTitles(a: string, b: string): number {
    const pair = indexTerms(`${a} ${b}`);
    if (pair.length !== 2) return 0;
    return titleCount(this.#pairPostings.get(`${pair[0]} ${pair[1]}`));
  }

  /** How many titles have the index word `term`. */
  #termTitles(term: string): number {
    const id = this.#terms.get(term);
    return id === undefined ? 0 : titleCount(this.#occPostings.at(id));
  }

  /** Whether two words, as index terms, stand next to each other in some title of the index. */
  #isPhrase(a: string | undefined, b: string | undefined): boolean {
    if (!a || !b) return false;
    const pair = indexTerms(`${a} ${b}`);
    return pair.length === 2 && this.#pairPostings.has(`${pair[0]} ${pair[1]}`);
  }

  /**
   * A vice president of a function is coded with that function's managers, as O*NET lists "Sales
   * Vice President" with the sales managers and "Logistics Vice President" with the logistics
   * managers: "HR VP", "VP of Finance", "Vice President, Nursing" read as "... manager". The
   * title stays as it is when the index has the function with "vice president" as a title
   * phrase ("Academic Affairs Vice President"), alone ("Vice President"), or when the words after
   * it end in a title's head ("VP Assistant").
   */
  #functionalVp(text: string): string {
    if (!text.includes("vice president")) return text;
    const m = text.match(
      /^(.*?)\s*\b(?:(?:senior|executive|assistant|associate) )?vice president\b(.*)$/,
    );
    if (!m) return text;
    let after = m[2].trim();
    const of = /^(?:of|for)\b/.test(after);
    if (of) after = after.replace(/^(?:of|for)\s*(?:the\s+)?/, "");
    const before = m[1].trim();
    if (after && !of) {
      const last = after.split(" ").at(-1)!;
      if (this.#headIds.has(last)) return text;
    }
    const domain = [before, after].filter(Boolean).join(" ");
    if (!domain) return text;
    return this.#isPhrase(domain.split(" ").at(-1), "vice")
      ? `${domain} vice president`
      : `${domain} manager`;
  }

  /**
   * A leading rank word ("Lead Engineer", "Principal Engineer", "Staff Engineer", "Associate
   * Scientist") is seniority: a lead is coded with the workers it leads (the SOC coding
   * principle). It is dropped unless the index has the pair as a title phrase ("Lead Abatement
   * Worker", "Principal Investigator", "Staff Nurse", "Associate Professor").
   */
  #withoutRank(text: string): string {
    const space = text.indexOf(" ");
    if (space < 0) return text;
    const first = text.slice(0, space);
    const rest = text.slice(space + 1);
    const led = RANK_WORDS.has(first) && !this.#isPhrase(first, rest.split(" ")[0]) ? rest : text;
    // "Principal" elsewhere is a rank too ("Manufacturing Engineer Principal", "Senior Sci/
    // Principal Scientist" went to the school principals), unless it makes a title phrase with a
    // neighbour ("Assistant Principal", "High School Principal").
    if (!led.includes("principal")) return led;
    const words = led.split(" ");
    const kept = words.filter((word, i) =>
      word !== "principal" || this.#isPhrase(words[i - 1], word) ||
      this.#isPhrase(word, words[i + 1])
    );
    return kept.length === words.length || kept.length === 0 ? led : kept.join(" ");
  }

  /**
   * Employer abbreviations the cleaning table does not list ("Mfg Engineer", "Whse Associate",
   * "Cust Svc Rep", "Tchr Asst"): an unknown word of two to five letters (six or seven with one
   * vowel at most: "Lndscp", "Mnfctr") stands for an index word it contracts (`contracts`: a
   * prefix, or its first letter and then some of its consonants) and
   * that makes a title phrase with a neighbouring word ("manufacturing engineer", "customer
   * service"). Of several, the one the most titles have. Without such a phrase the word is left
   * as it is (a company name, a code), unless it is the whole title ("Mech"): then a word at least
   * CONTRACTION_ALONE titles have, which it begins. An acronym (`acronym`: "Certified Dental
   * Assistant (CDA)", "PHP DEV") stays. Two passes, so that one expanded word can anchor its
   * neighbour.
   */
  #expandContractions(text: string, raw: string): string {
    const words = text.split(" ");
    let changed = false;
    for (let pass = 0; pass < 2; pass++) {
      for (let i = 0; i < words.length; i++) {
        const word = words[i];
        if (
          word.length < 2 || word.length > CONTRACTION_MAX + 2 ||
          (word.length > CONTRACTION_MAX && (word.match(VOWELS)?.length ?? 0) > 1) ||
          /[^a-z]/.test(word) || this.#known(word)
        ) continue;
        if (acronym(word, raw)) continue;
        const found = this.#contraction(word, words[i - 1] ?? "", words[i + 1] ?? "", words.length);
        if (found !== null) {
          words[i] = found;
          changed = true;
        }
      }
    }
    return changed ? words.join(" ") : text;
  }

  #known(word: string): boolean {
    // Most words of a query are index terms as written: no tokenising for them.
    if (this.#terms.has(word)) return true;
    const terms = indexTerms(word);
    return terms.length !== 1 || this.#terms.has(terms[0]);
  }

  #contraction(word: string, previous: string, next: string, count: number): string | null {
    const key = `${previous}|${word}|${next}|${count === 1}`;
    const memo = this.#contractionMemo;
    const cached = memo.get(key);
    if (cached !== undefined) return cached;
    if (memo.size >= UNKNOWN_MEMO) memo.clear();
    const prev = previous && this.#known(previous) ? indexTerms(previous)[0] : "";
    const after = next && this.#known(next) ? indexTerms(next)[0] : "";
    let best: string | null = null;
    const alone = count === 1;
    let bestTitles = alone ? CONTRACTION_ALONE - 1 : 0;
    if (prev || after || alone) {
      const sorted = this.#sortedTerms;
      const end = lowerBound(sorted, String.fromCharCode(word.charCodeAt(0) + 1));
      for (let i = lowerBound(sorted, word[0]); i < end; i++) {
        const candidate = sorted[i];
        if (candidate.length <= word.length || !contracts(candidate, word)) continue;
        if (alone && !candidate.startsWith(word)) continue;
        if (
          !alone && !(prev && this.#pairPostings.has(`${prev} ${candidate}`)) &&
          !(after && this.#pairPostings.has(`${candidate} ${after}`))
        ) continue;
        const titles = this.#titlePostings.lengthOf(this.#terms.get(candidate)!);
        if (titles > bestTitles) [best, bestTitles] = [candidate, titles];
      }
    }
    memo.set(key, best);
    return best;
  }

  #rankTitle(query: RankQuery, options: RankOptions): Ranking {
    const cleaned = cleanTitle(
      query.title,
      this.segmentScore,
      this.#namesOneOccupation,
      this.#isRoleWord,
      this.#isQualifiedTitle,
    );
    this.#readSetting(cleaned, query.title);
    this.#readSpecialty(cleaned);
    this.#readQualifiedTitle(cleaned);
    this.#computingEngineer(cleaned);
    cleaned.text = this.#readWords(cleaned.text, query.title);
    this.#readField(cleaned);
    cleaned.text = this.#productDeveloper(this.#techLead(cleaned.text));
    // Hierarchy words as structure: "supervisor bakery" is a bakery supervisor, and the role
    // (supervisor, helper, worker...) decides between the domain's occupations.
    const parsed = parseRole(cleaned.text);
    cleaned.text = parsed.role === "apprentice"
      ? this.#withoutApprentice(parsed.natural)
      : parsed.natural;
    const substituted = new Set<string>();
    const written = indexTerms(cleaned.text);
    const read = this.#softwareRole(written);
    // The product read as "software" is a stand-in; a title's own "software" is not.
    const readSoftware = read !== written;
    const readAs = (loose: boolean) =>
      read.map((t) => {
        if (readSoftware && t === SOFTWARE_READING.reading) {
          substituted.add(t);
          return t;
        }
        const standIn = this.resolveUnknown(t, loose);
        if (standIn === null) return t;
        substituted.add(standIn);
        return standIn;
      });
    let allTerms = readAs(false);
    // No word known, even through a stand-in: a loose reading rather than no answer.
    if (!allTerms.some((t) => this.#terms.has(t))) {
      substituted.clear();
      allTerms = readAs(true);
    }
    const qTerms = [...new Set(allTerms)];
    const qNorm = allTerms.join(" ");
    const qHead = roleHead(headText(cleaned.text, query.title));
    const qRole: RoleClass | null = parsed.role === "supervisor"
      ? "supervisor"
      : parsed.role === "helper"
      ? "helper"
      : parsed.role === "worker" || parsed.role === "apprentice"
      ? "worker"
      : parsed.role === "manager"
      ? "manager"
      : null;
    const qHeadId = qHead === "" ? -2 : this.#headIds.get(qHead) ?? -2;
    const leadRole = this.#leadAsRole(cleaned.text);
    // The words the title postings are read for: a lead as a role is not the metal, nor is a team
    // lead's team O*NET's "Team Physician" or "Team Assembler".
    const titleTerms = leadRole === null
      ? qTerms
      : qTerms.filter((t) => t !== "lead" && (leadRole !== "team lead" || t !== "team"));
    // A hierarchy word as the head ("technology lead", "bakery supervisor") is the role
    // channel's to read.
    const occHeadId = Object.hasOwn(ROLE_WORDS, qHead) ? -2 : qHeadId;
    const nOcc = this.occupations.length;
    let qWeight = 0;
    let knownWeight = 0;
    let substitutedWeight = 0;
    for (const term of qTerms) {
      const w = this.idf(term);
      qWeight += w;
      if (substituted.has(term)) substitutedWeight += w;
      if (this.#terms.has(term)) knownWeight += w;
    }
    const semanticOn = options.semantic && this.hasVectors;
    const description = query.description ? readDescription(query.description) : null;
    const descTerms = description?.terms ?? [];
    const empty: Ranking = {
      results: [],
      topScores: [],
      cleanedTitle: cleaned.text,
      queryRoleHead: qHead,
      knownRoleHead: this.#heads.has(qHead),
      knownTermShare: qWeight > 0 ? knownWeight / qWeight : 0,
      substitutedShare: qWeight > 0 ? substitutedWeight / qWeight : 0,
      queryTerms: qTerms.length,
      descriptionUsed: false,
      descriptionAgrees: null,
      semanticUsed: semanticOn,
      queryRole: parsed.role,
      droppedShare: droppedShare(query.title, cleaned.text),
      qualifierTerms: cleaned.rest
        ? indexTerms(cleaned.rest).filter((t) => this.#terms.has(t)).length
        : 0,
      sameTitleOccupations: 0,
      sharedTitleShare: 1,
      meanIdf: qTerms.length > 0 ? qWeight / qTerms.length : 0,
    };
    if (qTerms.length === 0) return empty;

    // Title channel.
    // Matched idf per title, accumulated in scratch buffers (rank is synchronous, so one set of
    // buffers per index is safe) and visited in first-touch order.
    // Two sums per title, in its record: occupation-level idf (offset 0) and title-level idf (1).
    const rec = this.#titleRec;
    const touched = this.#touched;
    let nTouched = 0;
    for (const term of titleTerms) {
      const id = this.#terms.get(term);
      if (id === undefined) continue;
      const w = this.#titleIdf[id];
      const wT = this.#titleIdfT[id];
      const list = this.#titlePostings.at(id);
      for (let i = 0; i < list.length; i++) {
        const at = list[i] * TITLE_REC;
        if (rec[at] === 0) touched[nTouched++] = list[i];
        rec[at] += w;
        rec[at + 1] += wT;
      }
    }
    // Per-occupation work arrays, reused across calls (rank is synchronous): a fresh set per
    // request was 80 kB of garbage and showed in the tail latency.
    const work = this.#work;
    for (const a of [work.titleScore, work.exactOcc, work.phraseOcc, work.cover]) a.fill(0);
    const sameTitle = work.sameTitle.fill(0);
    const sameWords = work.sameWords.fill(0);
    const sharedBreadth = work.sharedBreadth.fill(0);
    const sameListed = work.sameListed.fill(0);
    let anyListed = false;
    let sharedTitle = 0;
    for (const a of [work.stemCover, work.pairCover, work.scores, work.semantic]) a.fill(0);
    work.agg.fill(0);
    work.vote.fill(0);
    const headOcc = work.headOcc.fill(0);
    work.context.fill(0);
    work.transfer.fill(0);
    work.domainRest.fill(0);
    // The reranker reads the channel values too.
    const keepFeatures = options.features === true || this.#reranker !== null;
    if (keepFeatures && work.features.length === 0) {
      work.features = new Float64Array(nOcc * FUSION_FEATURES.length);
    }
    const agg = work.agg;
    const vote = work.vote;
    work.centroid.fill(0);
    work.bestTitle.fill(-1);
    const { titleScore, bestTitle, exactOcc, phraseOcc } = work;
    const paddedQuery = ` ${qNorm} `;
    // The occupations the title loop reaches, in the order it first reaches them.
    const titled = work.titled;
    let nTitled = 0;
    // A title read as other words ("Product Owner" as "product manager") is not a title as such.
    const reread = cleaned.reread === true;
    const residualQuery = cleaned.residual === true;
    const bareRole = qTerms.length === 1 &&
      this.#occupationsHeadedBy(qTerms[0], BARE_ROLE_OCCUPATIONS) >= BARE_ROLE_OCCUPATIONS;
    // Hot loop: fields and weights in locals.
    const { query_cover: wQuery, title_cover: wTitle, head: wHead, phrase: wPhrase } = this.#w;
    for (let k = 0; k < nTouched; k++) {
      const t = touched[k];
      const at = t * TITLE_REC;
      const m = rec[at];
      const mT = rec[at + 1];
      rec[at] = 0;
      rec[at + 1] = 0;
      const weight = rec[at + 2];
      const bm25 = rec[at + 3];
      const qCover = m / qWeight;
      const tCover = weight > 0 ? m / weight : 0;
      const head = rec[at + 4] === qHeadId ? 1 : 0;
      const exact = tCover > 0.999 && qCover > 0.999 && this.#titleNorm.equals(t, qNorm);
      const phrase = !exact && tCover > 0.999 && this.#titleNorm.between(t, paddedQuery);
      const s = wQuery * qCover + wTitle * tCover + wHead * head + (phrase ? wPhrase * tCover : 0);
      const occ = rec[at + 5];
      if (rec[at + 4] === occHeadId) headOcc[occ]++;
      agg[occ] += fastExp(m * bm25);
      vote[occ] += fastExp(mT * bm25);
      const current = bestTitle[occ];
      if (current < 0) titled[nTitled++] = occ;
      if (
        current < 0 || s > titleScore[occ] + 1e-12 ||
        (Math.abs(s - titleScore[occ]) <= 1e-12 && this.#preferTitle(t, current))
      ) {
        titleScore[occ] = s;
        bestTitle[occ] = t;
      }
      // A residual category's primary title ("Managers, All Other") names what the SOC classifies
      // nowhere else, not a job: the query that is its words ("Manager") ranks as before but is
      // not reported, nor calibrated, as an exact title match. Nor is a bare role word
      // ("Technician", a title of two occupations and the role of titles in 348), nor a title read
      // as other words ("Product Owner" as O*NET's "Product Manager").
      if (
        exact && !bareRole && !reread && !(this.#titleKind[t] === 0 && this.#residual[occ] === 1)
      ) {
        exactOcc[occ] = 1;
      }
      if (qCover > 0.999 && tCover > 0.999) {
        if (sameWords[occ] === 0) {
          sameWords[occ] = 1;
          sharedTitle++;
        }
        sharedBreadth[occ] = Math.max(sharedBreadth[occ], this.#titleBreadth[t]);
        if (this.#titleListed[t] === 1) {
          sameListed[occ] = 1;
          anyListed = true;
        }
      }
      // The query has the words of a coded title of the occupation, and no others.
      if (
        qCover > 0.999 && Math.abs(m - this.#titleCoded[t]) < 1e-9 &&
        qTerms.length >= SAME_TITLE_MIN_TERMS
      ) {
        // 2: the coded title itself (see below the loop); 1: in another word order, or its core
        // words only (bracketed words, exclusions aside).
        sameTitle[occ] = exact && sameTitle[occ] !== 1 ? 2 : 1;
      }
      if (phrase) phraseOcc[occ] = 1;
    }
    // A coded title several occupations share, the query as it is, is a coding index's choice
    // for one industry ("Control Engineer" the broadcast technicians', "Production Manager" the
    // production supervisors'): when employers list the title (source 10) for another of them
    // and not for the coded one, the coded one gets no coded-title bonus.
    for (let k = 0; k < nTitled; k++) {
      const occ = titled[k];
      if (sameTitle[occ] !== 2) continue;
      sameTitle[occ] = sharedTitle >= 2 && anyListed && sameListed[occ] === 0 ? 0 : 1;
    }

    // Occupation coverage: the query's words anywhere in the occupation's titles, saturating
    // with the number of titles that carry them (BM25's k, no length normalisation: tuning showed
    // that occupations known by many titles should not be penalised).
    const cover = work.cover;
    // The same, of the role head alone (rest_cover is the rest).
    const headCover = work.headCover.fill(0);
    let headWeight = 0;
    const k = this.#w.k_titles;
    for (const term of titleTerms) {
      const id = this.#terms.get(term);
      if (id === undefined) continue;
      const w = this.#titleIdf[id];
      const isHead = titleTerms.length > 1 &&
        (term === qHead || (qHead === "member" && MEMBER_OF.has(term)));
      if (isHead) headWeight += w;
      const list = this.#occPostings.at(id);
      for (let i = 0; i < list.length; i += 2) {
        const count = list[i + 1];
        const c = w * (count * (1 + k)) / (count + k) / (1 + k);
        cover[list[i]] += c;
        if (isHead) headCover[list[i]] += c;
      }
    }
    const restWeight = headWeight > 0 ? qWeight - headWeight : 0;
    // Phrases: adjacent word pairs of the query that the occupation's titles also have.
    // Word families: a query word whose stem the occupation's titles share ("accounting" and
    // "accountant"), for occupations the word itself did not reach.
    const stemCover = work.stemCover;
    // A lead as a role reads as the leaders of O*NET's titles ("Shift Leader", "Crew Leader").
    const leaderId = leadRole === null ? undefined : this.#terms.get("leader");
    const leaders = leaderId === undefined ? undefined : this.#occPostings.at(leaderId);
    for (const term of qTerms) {
      const list = leadRole !== null && term === "lead"
        ? leaders
        : this.#stemPostings.get(stem(term));
      if (!list) continue;
      const w = this.idf(term);
      for (let i = 0; i < list.length; i += 2) {
        const count = list[i + 1];
        stemCover[list[i]] += w * (count * (1 + k)) / (count + k) / (1 + k);
      }
    }
    const pairs = [...new Set(bigrams(allTerms))].filter((p) =>
      leadRole === null || !/\blead\b/.test(p)
    );
    const pairCover = work.pairCover;
    for (const pair of pairs) {
      const list = this.#pairPostings.get(pair);
      if (!list) continue;
      for (let i = 0; i < list.length; i += 2) {
        const count = list[i + 1];
        pairCover[list[i]] += count / (count + 1) / pairs.length;
      }
    }
    // Context channel: the title's words in descriptions and tasks (scratch arrays: a map per
    // request was a few hundred entries of garbage).
    const context = work.context;
    const contextList = work.contextList;
    const nContext = this.#contextScores(qTerms);
    let contextMax = 0;
    for (let k = 0; k < nContext; k++) contextMax = Math.max(contextMax, context[contextList[k]]);

    // Semantic channel.
    let semantic: Float64Array | null = null;
    let queryVector: Float32Array | null = null;
    if (semanticOn) {
      queryVector = this.#space!.query.fill(0);
      if (!this.#embed(qTerms, queryVector)) queryVector = null;
    }
    const scores = work.scores;
    // The pool of candidates: a membership mark and a list, reused across calls.
    const inPool = work.inPool;
    const pool = work.pool;
    let nPool = 0;
    const add = (occ: number) => {
      if (inPool[occ] === 0) {
        inPool[occ] = 1;
        pool[nPool++] = occ;
      }
    };
    for (let occ = 0; occ < nOcc; occ++) {
      if (bestTitle[occ] >= 0 || stemCover[occ] >= 0.5 * qWeight) add(occ);
    }
    for (let k = 0; k < nContext; k++) {
      const occ = contextList[k];
      if (bestTitle[occ] >= 0 || context[occ] >= 0.5 * contextMax) add(occ);
    }
    if (queryVector) {
      semantic = work.semantic;
      const space = this.#space!;
      // Occupation centroids are searched through the groups whose centres are closest to the
      // query (an inverted-file search: a fraction of the dot products of a full scan).
      const centroid = work.centroid;
      const groups = this.#groups!;
      if (work.centres.length !== groups.length) work.centres = new Float64Array(groups.length);
      const centres = work.centres;
      space.dotRange(CENTRE_ROWS, 0, groups.length, centres);
      for (let g = 0; g < groups.length; g++) centres[g] += 1;
      const probed = work.probed;
      let nProbed = 0;
      for (const g of topIndices(centres, GROUP_PROBES)) {
        const members = groups[g];
        const dots = this.#dots(members.length);
        space.dotRows(OCCUPATION_ROWS, members, dots);
        for (let i = 0; i < members.length; i++) {
          centroid[members[i]] = dots[i];
          probed[nProbed++] = members[i];
        }
      }
      // The groups share no occupation, and no other centroid or title score is set.
      const byCentroid = topIndices(centroid, SEMANTIC_SHORTLIST, probed, nProbed);
      const lexicalTop = topIndices(titleScore, SEMANTIC_SHORTLIST, titled, nTitled);
      const offsets = this.#prototypeOffsets!;
      for (const occ of new Set([...byCentroid, ...lexicalTop])) {
        if (centroid[occ] === 0) centroid[occ] = space.dot(OCCUPATION_ROWS, occ);
        let best = centroid[occ];
        const count = offsets[occ + 1] - offsets[occ];
        const dots = this.#dots(count);
        space.dotRange(PROTOTYPE_ROWS, offsets[occ], count, dots);
        for (let i = 0; i < count; i++) best = Math.max(best, dots[i]);
        semantic[occ] = best;
        if (best >= SEMANTIC_ONLY_MIN) add(occ);
      }
    }
    const w = this.#w;
    // With options.features, each candidate's channel values (FUSION_FEATURES) are kept for the
    // fusion fit (engine/fusion.ts); with a reranker, for the trees to read.
    const features = keepFeatures ? work.features : null;
    const wVote = w.title_vote;
    let voteMax = -Infinity;
    if (wVote !== 0 || keepFeatures) {
      for (let p = 0; p < nPool; p++) {
        const occ = pool[p];
        if (vote[occ] > 0) {
          vote[occ] = Math.log(vote[occ]) + this.#votePrior[occ];
          voteMax = Math.max(voteMax, vote[occ]);
        }
      }
    }
    // Titles several occupations share ("Host", "Assistant Professor", "Cook" once cleaned): the
    // larger occupation is the likelier meaning.
    // And the one more of O*NET's sources list the title for is its likelier meaning.
    const tieScale = sharedTitle >= 2 ? w.shared_prior : 0;
    const tieSources = sharedTitle >= 2 ? w.shared_sources : 0;
    for (let p = 0; p < nPool; p++) {
      const occ = pool[p];
      const ctx = contextMax > 0 ? context[occ] / contextMax : 0;
      const sem = semantic ? Math.max(0, semantic[occ] - SEMANTIC_FLOOR) / (1 - SEMANTIC_FLOOR) : 0;
      const fCover = cover[occ] / qWeight;
      const fStem = Math.max(0, stemCover[occ] - cover[occ]) / qWeight;
      const fContext = ctx * (titleScore[occ] > 0 ? 1 : 0.5);
      const fAgg = agg[occ] > 0 ? Math.log(agg[occ]) / qWeight : 0;
      const fHead = headOcc[occ] / (headOcc[occ] + HEAD_TITLES_HALF);
      const fRest = restWeight > 0 ? (cover[occ] - headCover[occ]) / restWeight : 0;
      const fVote = voteMax > -Infinity && vote[occ] !== 0 ? Math.exp(vote[occ] - voteMax) : 0;
      scores[occ] = w.best_title * titleScore[occ] +
        w.occ_cover * fCover + w.pair * pairCover[occ] +
        w.stem_cover * fStem +
        w.context * fContext +
        w.semantic * sem +
        w.prior * this.#prior[occ] +
        (sameWords[occ]
          ? tieScale * this.#prior[occ] + tieSources * Math.log(sharedBreadth[occ] || 1)
          : 0) +
        w.title_agg * fAgg +
        wVote * fVote +
        w.head_occ * fHead +
        w.rest_cover * fRest +
        w.exact * sameTitle[occ] + this.#bias[occ] +
        (residualQuery && this.#residual[occ] === 1
          ? this.#residualNamed(occ, qTerms, qWeight)
          : 0);
      if (features) {
        const f = occ * FUSION_FEATURES.length;
        features[f] = titleScore[occ];
        features[f + 1] = fCover;
        features[f + 2] = pairCover[occ];
        features[f + 3] = fStem;
        features[f + 4] = fContext;
        features[f + 5] = sem;
        features[f + 6] = this.#prior[occ];
        features[f + 7] = fAgg;
        features[f + 8] = 0;
        features[f + 9] = 0;
        features[f + 10] = 0;
        features[f + 11] = fVote;
        features[f + 12] = fHead;
        features[f + 13] = 0;
        features[f + 14] = fRest;
        features[f + 15] = 0;
      }
    }
    // Roles: a supervisor (helper) query reaches the supervisor (helper) occupation of the
    // domain's worker occupations with their score; occupations of another role class lose,
    // except those that have the query's words as a title ("Kitchen Helper" is a title of the
    // food preparation workers, whose major group has no helper occupation). A manager query
    // ("Manager, Software Engineering", "Accounting Manager") favours the management class
    // (manager_match) and costs worker and helper occupations; first-line supervisors lose
    // nothing, since SOC codes many a "manager" of a shop or a shift as one ("Grocery Manager").
    if (
      qRole !== null && (w.role_match !== 0 || w.role_mismatch !== 0 || w.manager_match !== 0)
    ) {
      const transfer = work.transfer;
      const link = qRole === "supervisor"
        ? this.#supervisorOf
        : qRole === "helper"
        ? this.#helperOf
        : null;
      const transferFrom = work.transferFrom;
      const domainRest = work.domainRest;
      const targets: number[] = [];
      if (link) {
        for (let p = 0; p < nPool; p++) {
          const occ = pool[p];
          const to = link[occ];
          if (to < 0 || this.#roleClass[occ] !== 0) continue;
          if (transfer[to] === 0) targets.push(to);
          if (scores[occ] > transfer[to]) [transfer[to], transferFrom[to]] = [scores[occ], occ];
          if (restWeight > 0) {
            const rest = (cover[occ] - headCover[occ]) / restWeight;
            if (rest > domainRest[to]) domainRest[to] = rest;
          }
        }
      }
      for (const to of targets) {
        if (features && inPool[to] === 0) {
          features.fill(0, to * FUSION_FEATURES.length, (to + 1) * FUSION_FEATURES.length);
        }
        add(to);
      }
      const want = ROLE_CLASSES.indexOf(qRole);
      const nf = FUSION_FEATURES.length;
      for (let p = 0; p < nPool; p++) {
        const occ = pool[p];
        const cls = this.#roleClass[occ];
        if (cls === want) {
          if (qRole === "worker") continue;
          if (transfer[occ] > scores[occ]) {
            scores[occ] = transfer[occ];
            // The score is the domain worker's: so are its channel values.
            if (features) {
              features.copyWithin(occ * nf, transferFrom[occ] * nf, transferFrom[occ] * nf + 8);
              features[occ * nf + 11] = features[transferFrom[occ] * nf + 11];
              features[occ * nf + 14] = features[transferFrom[occ] * nf + 14];
            }
          }
          if (qRole === "manager") {
            scores[occ] += w.manager_match;
            if (features) features[occ * nf + 13] = 1;
          } else {
            scores[occ] += w.role_match + w.domain_rest * domainRest[occ];
            if (features) {
              features[occ * nf + 8] = 1;
              features[occ * nf + 15] = domainRest[occ];
            }
          }
        } else if (
          cls !== 3 && (qRole !== "worker" || cls !== 0) && !sameWords[occ] &&
          !(qRole === "manager" && cls === 1) &&
          // A worker whose major group has no helper occupation is its own helpers' answer
          // ("Landscape Helper": SOC has no helpers of the grounds workers).
          !(qRole === "helper" && cls === 0 && this.#helperOf[occ] < 0)
        ) {
          const penalty = qRole === "worker" ? 0.5 : 1;
          scores[occ] -= w.role_mismatch * penalty;
          if (features) features[occ * nf + 9] = penalty;
        }
      }
    }
    for (let p = 0; p < nPool; p++) scores[pool[p]] = round4(scores[pool[p]]);

    // Description: re-orders the shortlist the title found.
    let ordered = topOccupations(pool.subarray(0, nPool), scores, SHORTLIST);
    for (let p = 0; p < nPool; p++) inPool[pool[p]] = 0;
    // Qualifiers: the words of the title's other parts ("Line Cook - Seafood Restaurant") found
    // in the shortlist's titles re-order it, as a description would.
    if (w.qualifier !== 0 && cleaned.rest && ordered.length > 1) {
      const qualifier = work.qualifier;
      for (const occ of ordered) inPool[occ] = 1;
      let total = 0;
      const named: string[] = [];
      for (const term of new Set(indexTerms(cleaned.rest))) {
        const id = this.#terms.get(term);
        if (id === undefined || qTerms.includes(term)) continue;
        named.push(term);
        const weight = this.#titleIdf[id];
        total += weight;
        const list = this.#occPostings.at(id);
        for (let i = 0; i < list.length; i += 2) {
          if (inPool[list[i]] === 0) continue;
          const count = list[i + 1];
          qualifier[list[i]] += weight * (count * (1 + k)) / (count + k) / (1 + k);
        }
      }
      for (const occ of ordered) {
        inPool[occ] = 0;
        if (total > 0) {
          scores[occ] = round4(
            scores[occ] + w.qualifier * qualifier[occ] / Math.max(total, QUALIFIER_MIN_IDF),
          );
        }
        qualifier[occ] = 0;
      }
      if (total > 0) ordered = topOccupations(ordered, scores, SHORTLIST);
      // A title several occupations share, with a qualifier that names one of them in its own
      // title ("Assistant Professor - Computer Science": Computer Science Teachers, Postsecondary)
      // is that occupation's title: the shared title no longer counts as shared.
      if (sharedTitle >= 2 && named.length > 0 && sameWords[ordered[0]]) {
        const naming = ordered.filter((occ) =>
          sameWords[occ] && named.every((t) => this.#primaryTerms[occ].has(t))
        );
        if (naming.length === 1 && naming[0] === ordered[0]) sharedTitle = 1;
      }
    }
    // An exclusion clause ("Painter, exc construction and maintenance") names occupations the
    // title is not (#namedByExclusion): they go below the rest.
    if (cleaned.excluded && ordered.length > 1) {
      const alternatives = cleaned.excluded.split(/,|\bor\b|\//)
        .map((part) => [...new Set(indexTerms(part))].filter((t) => !qTerms.includes(t)))
        .filter((terms) => terms.length > 0);
      const qualifiers = qTerms.filter((t) => t !== qHead);
      const named = ordered.filter((occ) => this.#namedByExclusion(occ, alternatives, qualifiers));
      if (named.length > 0) {
        let floor = Infinity;
        for (const occ of ordered) if (!named.includes(occ)) floor = Math.min(floor, scores[occ]);
        for (const occ of named) {
          scores[occ] = round4(Math.min(scores[occ], floor) - EXCLUDED_COST);
        }
        ordered = topOccupations(ordered, scores, SHORTLIST);
      }
    }
    const titleTop = ordered[0];
    let descriptionAgrees: boolean | null = null;
    const descMatches = new Map<number, [number, number]>();
    if (descTerms.length > 0 && ordered.length > 0) {
      const shortlist = ordered.slice(0, SHORTLIST);
      const desc = this.#textScores(descTerms, new Set(shortlist), descMatches);
      let max = 0;
      for (const v of desc.values()) max = Math.max(max, v);
      const wPhrase = this.#w.description_phrase;
      const phrases = wPhrase !== 0 ? this.#phraseScores(description!.pairs, shortlist) : null;
      let phraseMax = 0;
      if (phrases) { for (const occ of shortlist) phraseMax = Math.max(phraseMax, phrases[occ]); }
      if (phrases && phraseMax > 0) {
        for (const occ of shortlist) {
          scores[occ] = round4(scores[occ] + wPhrase * phrases[occ] / phraseMax);
          phrases[occ] = 0;
        }
      }
      if (max > 0) {
        for (const occ of shortlist) {
          const value = (desc.get(occ) ?? 0) / max;
          scores[occ] = round4(scores[occ] + this.#w.description * value);
          if (features) features[occ * FUSION_FEATURES.length + 10] = value;
        }
        const byDesc = [...shortlist].sort((a, b) =>
          (desc.get(b) ?? 0) - (desc.get(a) ?? 0) || a - b
        );
        descriptionAgrees = byDesc.slice(0, 3).includes(titleTop);
      }
      // No description word in any candidate's description or tasks: no evidence either way.
      ordered = topOccupations(shortlist, scores, SHORTLIST);
    }

    const voteOf = (occ: number) =>
      voteMax > -Infinity && vote[occ] !== 0 ? Math.exp(vote[occ] - voteMax) : 0;
    const results: RankedOccupation[] = [];
    const featureRows: number[][] = [];
    const nf = FUSION_FEATURES.length;
    const listed = ordered.slice(0, Math.max(options.limit, 10));
    for (const occ of listed) {
      if (options.features) featureRows.push([...work.features.subarray(occ * nf, (occ + 1) * nf)]);
      const o = this.occupations[occ];
      const t = bestTitle[occ];
      const reasons: MatchReason[] = [];
      const head = t >= 0 ? this.#titleHead[t] : roleHead(o.title);
      const headAgrees = qHead !== "" && head === qHead;
      if (qNorm === this.#primaryNorm[occ]) reasons.push("normalized_primary_title_match");
      if (exactOcc[occ] || phraseOcc[occ]) reasons.push("complete_occupational_phrase_match");
      if (qTerms.some((term) => this.#primaryTerms[occ].has(term))) {
        reasons.push("primary_title_token_match");
      }
      if (context[occ] > 0) reasons.push("occupational_context_match");
      if (headAgrees) reasons.push("role_head_match");
      const [descHits, taskHits] = descMatches.get(occ) ?? [0, 0];
      if (descHits > 0) reasons.push("description_match");
      if (taskHits > 0) reasons.push("task_match");
      // Brought (or carried) by the vectors: no title word matched, or only weakly.
      const byVectors = semantic !== null && semantic[occ] >= SEMANTIC_ONLY_MIN &&
        (t < 0 || titleScore[occ] < 0.3);
      if (byVectors) reasons.push("vector_candidate_expansion");
      results.push({
        onetCode: o.onetCode,
        title: o.title,
        score: round4(scores[occ]),
        reasons,
        matchedTitle: t >= 0 ? this.#titleText.at(t) : o.title,
        matchedTitleKind: t >= 0 ? TITLE_KINDS[this.#titleKind[t]] : "primary",
        candidateRoleHead: head,
        roleHeadAgreement: headAgrees,
        titleScore: titleScore[occ],
        exact: exactOcc[occ] === 1,
        phrase: phraseOcc[occ] === 1,
        semanticOnly: t < 0 && byVectors,
        titleMatched: t >= 0,
        descriptionTermMatches: descHits,
        taskTermMatches: taskHits,
        prior: this.#prior[occ],
        vote: round4(voteOf(work.transfer[occ] > 0 ? work.transferFrom[occ] : occ)),
      });
    }
    // Reranker: the trees move the first candidates by what they read of each (engine/rerank.ts).
    // Not when the query's words are a title of some occupation: the folds it is fitted on never
    // hold such a query.
    let rerankRows: number[][] | undefined;
    if (keepFeatures && sharedTitle === 0 && results.length > 1) {
      const top = Math.min(RERANK_TOP, results.length);
      const first = results[0].score;
      const role = QUERY_ROLES.indexOf(parsed.role);
      const d = RERANK_FEATURES.length;
      const rows = work.rerankRows;
      for (let j = 0, at = 0; j < top; j++, at += d) {
        const r = results[j];
        rows.set(work.features.subarray(listed[j] * nf, (listed[j] + 1) * nf), at);
        rows[at + nf] = r.score;
        rows[at + nf + 1] = first - r.score;
        rows[at + nf + 2] = j;
        rows[at + nf + 3] = r.exact ? 1 : 0;
        rows[at + nf + 4] = r.semanticOnly ? 1 : 0;
        rows[at + nf + 5] = qTerms.length;
        rows[at + nf + 6] = role;
        rows[at + nf + 7] = empty.knownTermShare;
        rows[at + nf + 8] = empty.droppedShare;
        rows[at + nf + 9] = descTerms.length > 0 ? 1 : 0;
      }
      if (options.features) {
        rerankRows = Array.from({ length: top }, (_, j) => [...rows.subarray(j * d, (j + 1) * d)]);
      }
      if (this.#reranker) {
        const deltas = work.rerankDeltas;
        rerankDeltas(this.#reranker, rows, top, deltas);
        for (let j = 0; j < top; j++) results[j].score = round4(results[j].score + deltas[j]);
        // A stable sort: candidates the trees leave tied keep the fused order.
        const order = [...results.keys()].slice(0, top).sort((a, b) =>
          results[b].score - results[a].score || a - b
        );
        const moved = order.map((j) => results[j]);
        results.splice(0, top, ...moved);
        if (options.features) featureRows.splice(0, top, ...order.map((j) => featureRows[j]));
      }
    }
    return {
      ...empty,
      results: results.slice(0, options.limit),
      topScores: results.slice(0, 10).map((r) => r.score),
      descriptionUsed: descTerms.length > 0 && ordered.length > 0,
      descriptionAgrees,
      sameTitleOccupations: sharedTitle,
      sharedTitleShare: sharedTitle >= 2 && results.length > 0
        ? this.#sharedTitleShare(this.#occIndex.get(results[0].onetCode)!, sameWords)
        : 1,
      ...(options.features ? { features: featureRows.slice(0, options.limit) } : {}),
      ...(rerankRows ? { rerankRows } : {}),
    };
  }

  /**
   * `top`'s share of the employment of the occupations `same` flags (sharedTitleShare), from the
   * vote prior (VOTE_PRIOR times log employment over the median: the median cancels out).
   */
  #sharedTitleShare(top: number, same: Uint8Array): number {
    if (!same[top]) return 1;
    let total = 0;
    for (let occ = 0; occ < same.length; occ++) {
      if (same[occ]) total += Math.exp(this.#votePrior[occ] / VOTE_PRIOR);
    }
    return total > 0 ? round4(Math.exp(this.#votePrior[top] / VOTE_PRIOR) / total) : 1;
  }

  /**
   * What a title that says it is classified nowhere else ("Sales worker, n.e.c.") adds to a
   * residual category: RESIDUAL_NAMED times the share of the query's words (by idf) its own name
   * has ("Sales and Related Workers, All Other": all of them; "Production Workers, All Other":
   * "workers" alone), so the residual of the group the title names is the one it points to.
   */
  #residualNamed(occ: number, qTerms: readonly string[], qWeight: number): number {
    const name = this.#primaryTerms[occ];
    let named = 0;
    for (const term of qTerms) if (name.has(term)) named += this.idf(term);
    return qWeight > 0 ? RESIDUAL_NAMED * named / qWeight : 0;
  }

  /** Skills and technologies of an occupation whose words all occur in the given terms. */
  supportedSkills(onetCode: string, terms: Set<string>, limit = 10): string[] {
    const occ = this.#occIndex.get(onetCode) ?? -1;
    const names = this.#skillTerms[occ];
    if (!names) return [];
    // Most results share no word with a title: those are answered without reading their names.
    if (terms.size < names.length && !this.#anySkillWord(occ, terms)) return [];
    const out: string[] = [];
    for (const [name, words] of names) {
      if (words.every((w) => terms.has(w)) && !out.includes(name)) {
        out.push(name);
        if (out.length >= limit) break;
      }
    }
    return out;
  }

  /**
   * A title that is a software product and one role word ("Kafka Engineer", "Hadoop Developer",
   * "Splunk Consultant") is read as that role in software, when O*NET has the two as a title phrase
   * ("Software Engineer"; not "software administrator": "VMware Administrator" stays with the
   * systems administrators): the product is a word no title has, so the bare role answered
   * ("Engineer" is the civil engineers', "Consultant" the industrial-organizational
   * psychologists'). A product is a word of O*NET's technology examples listed mostly by computer
   * and mathematical occupations (SOFTWARE_READING); "Kronos", listed by payroll and scheduling
   * occupations, is not. Otherwise the same array comes back.
   */
  #softwareRole(terms: string[]): string[] {
    if (terms.length !== 2) return terms;
    const at = terms.findIndex((t) => !this.#terms.has(t));
    const role = terms[1 - at];
    if (at < 0 || !this.#terms.has(role) || !this.#namesSoftware(terms[at])) return terms;
    const { reading } = SOFTWARE_READING;
    return this.#isPhrase(reading, role) ? [reading, role] : terms;
  }

  /**
   * A technical lead ("Tech Lead", "Technical Lead", "Technology Lead", "Java Tech Lead", "Azure
   * Tech Lead", "Technical Team Lead", "Technical Leader") leads a software team: read as a
   * software engineer, with the title's computing words. O*NET has no such title, so the words
   * went anywhere: "tech" is written out as technician ("Senior Tech Lead" answered the electrical
   * technicians), "technical" matched "Technical Writers" and "Technical Services Specialist"
   * ("Technical Lead", the user support specialists); "Technical Team Lead" the training and
   * development specialists. Every other word must be a computing one: a software product no
   * title has (#namesSoftware, dropped) or a word of the index that #namesComputing accepts
   * (kept). Any other word leaves the title as written ("Sheet Metal Technical Lead", "Event
   * Technical Lead"), as do an index technician phrase ("Pharmacy Tech Lead" is a lead pharmacy
   * technician) and a tech lead manager.
   */
  #techLead(text: string): string {
    if (!TECH_LEAD.test(text)) return text;
    // A technical team lead is a technical lead.
    // A leader is a lead (ranker 69).
    const words = text.split(" ").map((w) => w === "leader" ? "lead" : w).filter((w, i, all) =>
      !(w === "team" && all[i + 1] === "lead" && TECH_WORDS.has(all[i - 1]))
    );
    const at = words.findIndex((w, i) => w === "lead" && TECH_WORDS.has(words[i - 1]));
    if (at < 1) return text;
    if (words[at - 1] === "technician" && this.#isPhrase(words[at - 2], "technician")) return text;
    const others = words.filter((_, i) => i !== at && i !== at - 1);
    const read = this.#computingWords(others, (term) => this.#namesSoftware(term));
    return read === null ? text : [...read.kept, "software", "engineer"].join(" ");
  }

  /**
   * A developer of words the index does not have ("QlikSense Nprinting Developer", "ForgeRock
   * Developer", "Informatica MDM Developer") develops software in a product: the unknown words are
   * dropped, and the title is read as a developer of its computing words ("ETL Axiom Developer":
   * ETL developer; "PHP Website Developer": website developer) or, without any, a software
   * developer. The unknown words had gone to whatever title shared a fragment of them ("ForgeRock"
   * to the forging machine operators) or "developer" alone to the photographic process workers'
   * film developers. A known word that is not a computing one (#namesComputing) leaves the title as
   * written ("Footwear Developer", "Business Developer"), as does a phrase the index has with
   * "developer" ("Film Developer") or a title of known words only. An IT developer ("IT
   * Developer", "ServiceNow Developer": the platform reads as "information technology") is a
   * software developer: "Information Technology" titles took it to the computer and information
   * systems managers ("Information Technology Coordinator").
   */
  #productDeveloper(text: string): string {
    if (!text.endsWith("developer")) return text;
    if (text.endsWith("information technology developer")) {
      return text.replace(/information technology developer$/, "software developer");
    }
    const words = text.split(" ");
    const last = words.length - 1;
    if (last < 1 || words[last] !== "developer" || this.#isPhrase(words[last - 1], "developer")) {
      return text;
    }
    const read = this.#computingWords(words.slice(0, last), () => true);
    if (read === null || read.unknown === 0) return text;
    // The title's computing words say what is developed ("ETL", "website"); without any, software.
    return [...(read.kept.length > 0 ? read.kept : ["software"]), "developer"].join(" ");
  }

  /**
   * A title's other words as #techLead and #productDeveloper read them: a known word that
   * #namesComputing accepts is kept, an unknown one that `unknownOk` accepts is dropped and
   * counted; null when any word is neither.
   */
  #computingWords(
    words: string[],
    unknownOk: (term: string) => boolean,
  ): { kept: string[]; unknown: number } | null {
    const kept: string[] = [];
    let unknown = 0;
    for (const word of words) {
      const term = indexTerms(word)[0];
      if (term === undefined) continue;
      if (!this.#terms.has(term)) {
        if (!unknownOk(term)) return null;
        unknown++;
      } else if (this.#namesComputing(term)) kept.push(word);
      else return null;
    }
    return { kept, unknown };
  }

  /**
   * Whether at least half of the titles with the word (COMPUTING_TITLES or more) are computer
   * occupations' ("java", "database"; not "data", "platform").
   */
  #namesComputing(term: string): boolean {
    const id = this.#terms.get(term);
    if (id === undefined) return false;
    const list = this.#titlePostings.at(id);
    if (list.length < COMPUTING_TITLES) return false;
    let computing = 0;
    for (let i = 0; i < list.length; i++) {
      if (this.occupations[this.#titleOcc[list[i]]].onetCode.startsWith("15-")) computing++;
    }
    return computing * 2 >= list.length;
  }

  /** Whether a word is a software product's (see #softwareRole). */
  #namesSoftware(word: string): boolean {
    const list = this.#skillWordOccs.get(word);
    if (!list || list.length < SOFTWARE_READING.minOccupations) return false;
    let computing = 0;
    for (let i = 0; i < list.length; i++) {
      if (this.occupations[list[i]].onetCode.startsWith("15-")) computing++;
    }
    return computing >= SOFTWARE_READING.minShare * list.length;
  }

  /** Whether a skill or technology name of the occupation has one of the terms. */
  #anySkillWord(occ: number, terms: Set<string>): boolean {
    for (const term of terms) {
      const list = this.#skillWordOccs.get(term);
      if (list && list[lowerBound(list, occ)] === occ) return true;
    }
    return false;
  }

  #preferTitle(a: number, b: number): boolean {
    if (this.#titleKind[a] !== this.#titleKind[b]) return this.#titleKind[a] < this.#titleKind[b];
    return this.#titleText.less(a, b);
  }

  /**
   * The context channel: BM25 of terms against description + tasks into the work arrays
   * (context, contextList); returns how many occupations it reached.
   */
  #contextScores(terms: string[]): number {
    const nOcc = this.occupations.length;
    const out = this.#work.context;
    const list = this.#work.contextList;
    let n = 0;
    for (const term of terms) {
      const postings = this.#textPostings.get(term);
      if (!postings) continue;
      const df = postings.length / 3;
      if (df > nOcc * 0.5) continue;
      const idf = Math.log(1 + (nOcc - df + 0.5) / (df + 0.5));
      for (let i = 0; i < postings.length; i += 3) {
        const occ = postings[i];
        const tf = postings[i + 1] + postings[i + 2];
        const norm = 1.2 * (0.25 + 0.75 * this.#textLength[occ] / this.#textAvg);
        if (out[occ] === 0) list[n++] = occ;
        out[occ] += idf * (tf * 2.2) / (tf + norm);
      }
    }
    return n;
  }

  /**
   * Title phrases in a description: each word pair of the description that the shortlist's
   * titles have ("hvac service", "service technician"), weighted by how few occupations' titles
   * have it, saturating in its count in the description and in the occupation's titles.
   */
  #phraseScores(pairs: Map<string, number>, shortlist: number[]): Float64Array {
    const out = this.#work.phrases;
    const nOcc = this.occupations.length;
    const inList = this.#work.inPool;
    for (const occ of shortlist) inList[occ] = 1;
    for (const [pair, tf] of pairs) {
      const list = this.#pairPostings.get(pair);
      if (!list) continue;
      const idf = Math.log(1 + nOcc / (list.length / 2));
      const f = tf / (tf + 1);
      for (let i = 0; i < list.length; i += 2) {
        if (inList[list[i]] === 0) continue;
        const count = list[i + 1];
        out[list[i]] += idf * f * count / (count + 1);
      }
    }
    for (const occ of shortlist) inList[occ] = 0;
    return out;
  }

  /** BM25 of terms against description + tasks; optional restriction and match counts. */
  #textScores(
    terms: string[],
    only?: Set<number>,
    counts?: Map<number, [number, number]>,
  ): Map<number, number> {
    const out = new Map<number, number>();
    const nOcc = this.occupations.length;
    for (const term of terms) {
      const list = this.#textPostings.get(term);
      if (!list) continue;
      const df = list.length / 3;
      if (df > nOcc * 0.5) continue;
      const idf = Math.log(1 + (nOcc - df + 0.5) / (df + 0.5));
      for (let i = 0; i < list.length; i += 3) {
        const occ = list[i];
        if (only && !only.has(occ)) continue;
        const tf = list[i + 1] + list[i + 2];
        const norm = 1.2 * (0.25 + 0.75 * this.#textLength[occ] / this.#textAvg);
        out.set(occ, (out.get(occ) ?? 0) + idf * (tf * 2.2) / (tf + norm));
        if (counts) {
          const entry = counts.get(occ) ?? [0, 0];
          if (list[i + 1] > 0) entry[0]++;
          if (list[i + 2] > 0) entry[1]++;
          counts.set(occ, entry);
        }
      }
    }
    return out;
  }
}

/**
 * The k best occupations of a pool by score (already rounded), ties to the lower index, which is
 * the lower O*NET code because occupations are indexed in code order. A partial selection: pools
 * can hold hundreds of occupations and only the head is needed.
 */
function topOccupations(pool: ArrayLike<number>, scores: Float64Array, k: number): number[] {
  const top: number[] = [];
  const before = (a: number, b: number) =>
    scores[a] > scores[b] || (scores[a] === scores[b] && a < b);
  // By index: `for...of` over the pool's typed array made an iterator result per element (9 KB of
  // garbage a ranking).
  for (let p = 0; p < pool.length; p++) {
    const occ = pool[p];
    if (top.length === k && !before(occ, top[k - 1])) continue;
    let j = top.length < k ? top.length : k - 1;
    while (j > 0 && before(occ, top[j - 1])) {
      top[j] = top[j - 1];
      j--;
    }
    top[j] = occ;
  }
  return top;
}

const SUFFIXES = [
  "ization",
  "ation",
  "ician",
  "ment",
  "ness",
  "ing",
  "ist",
  "ian",
  "ant",
  "ent",
  "ance",
  "ence",
  "ery",
  "er",
  "or",
  "ion",
  "al",
  "ic",
  "ive",
  "y",
  "e",
];

/** A crude stem: one common suffix off, keeping at least four letters ("accountant" → "account"). */
function stem(term: string): string {
  for (const suffix of SUFFIXES) {
    if (term.endsWith(suffix) && term.length - suffix.length >= 4) {
      return term.slice(0, -suffix.length);
    }
  }
  return term;
}

/** Share of a raw title's word tokens absent from its cleaned form. */
function droppedShare(raw: string, cleaned: string): number {
  const kept = new Set(tokenize(cleaned));
  const tokens = tokenize(raw);
  if (tokens.length === 0) return 0;
  let dropped = 0;
  for (const t of tokens) if (!kept.has(t)) dropped++;
  return dropped / tokens.length;
}

/** exp(x) for x >= 0 from a table in steps of 1/32 (under 1.6% off; capped at x = 64). */
const EXP_STEPS = 32;
const EXP_TABLE = Float64Array.from(
  { length: 64 * EXP_STEPS + 1 },
  (_, i) => Math.exp(i / EXP_STEPS),
);
/** A trigram Jaccard similarity an unknown word's stand-in must exceed. */
const TRIGRAM_MIN = 0.5;
/** The same for a title with no known word otherwise (resolveUnknown's `loose`). */
const TRIGRAM_LOOSE = 0.4;
/** Unknown words remembered per index before the memo starts over. */
const UNKNOWN_MEMO = 20_000;
/** A one-word title's abbreviation stands for a word at least this many titles have ("Mech"). */
const CONTRACTION_ALONE = 20;
/** The longest unknown word read as a contraction; two letters more with one vowel at most. */
const CONTRACTION_MAX = 5;
const VOWELS = /[aeiouy]/g;

/** A word's distinct character trigrams, padded ("  w", " wo", ..., "rd "). */
function trigrams(word: string): Set<string> {
  const padded = `  ${word} `;
  const out = new Set<string>();
  for (let i = 0; i + 3 <= padded.length; i++) out.add(padded.slice(i, i + 3));
  return out;
}

function fastExp(x: number): number {
  return EXP_TABLE[Math.min(EXP_TABLE.length - 1, (x * EXP_STEPS) | 0)];
}

/** [occupation, count, ...] in occupation order from one entry per title. */
function countByOcc(occs: number[]): Int32Array {
  occs.sort((a, b) => a - b);
  const out: number[] = [];
  for (const occ of occs) {
    if (out.length > 0 && out[out.length - 2] === occ) out[out.length - 1]++;
    else out.push(occ, 1);
  }
  return Int32Array.from(out);
}

/**
 * Per title, how many of O*NET's sources list it (as normalised, however its compounds are spaced:
 * ranker 109) for its occupation: the distinct alternate-title source codes ("02,08,10": three), one
 * for a reported title, one for the primary title; at most 255.
 */
export function titleBreadth(
  titles: readonly IndexTitle[],
  norms: readonly string[],
  occs: Int32Array,
): Uint8Array {
  return drain(titleBreadthSteps(titles, norms, occs)).breadth;
}

/**
 * titleBreadth in steps: yields every SLICE_TITLES titles (the build runs in slices). Also, per
 * title, 1 when employers' job listings (source 10) are among the sources (`listed`).
 */
function* titleBreadthSteps(
  titles: readonly IndexTitle[],
  norms: readonly string[],
  occs: Int32Array,
): Generator<void, { breadth: Uint8Array; listed: Uint8Array }, void> {
  const sources = new Map<string, Set<string>>();
  const keys: string[] = new Array(titles.length);
  for (let i = 0; i < titles.length; i++) {
    const title = titles[i];
    // One title however its compounds are spaced ("Cyber Security Analyst", "Cybersecurity
    // Analyst"): its sources are those of every spelling.
    const key = `${occs[i]} ${norms[i].replaceAll(" ", "")}`;
    const set = sources.get(key) ?? new Set<string>();
    if (title.kind === "primary" || title.kind === "reported") set.add(title.kind);
    // "alternate_titles:02,08,10" (occupation_titles.source, parts joined by ";"); the other
    // sources ("reported_titles", "occupation_data") carry no codes: the kind counts for them.
    for (const part of (title.source ?? "").split(";")) {
      const codes = /:(.*)$/.exec(part)?.[1] ?? "";
      for (const code of codes.split(",")) if (code.trim()) set.add(code.trim());
    }
    sources.set(key, set);
    keys[i] = key;
    if (i % SLICE_TITLES === SLICE_TITLES - 1) yield;
  }
  return {
    breadth: Uint8Array.from(keys, (key) => Math.min(255, Math.max(1, sources.get(key)!.size))),
    listed: Uint8Array.from(keys, (key) => sources.get(key)!.has("10") ? 1 : 0),
  };
}

/**
 * Words that titles mostly write as two words, each with its two words: "crewmember" (22 titles,
 * all in one major group, the military's) beside "crew member" (42 titles in ten groups),
 * "toolmaker" (1) beside "tool maker" (7). A word splits where its pair is in more titles and
 * more SOC major groups than the word itself, at the pair in most titles: a spelling one group
 * keeps for itself ("caseworker", 9 titles in two groups; "case worker", 10 in two) stays a word.
 */
export function compoundSplits(
  titles: { terms: string[]; group: string }[],
): Map<string, [string, string]> {
  return drain(compoundSplitSteps(titles));
}

/** compoundSplits in steps: yields every SLICE_TITLES titles or words. */
function* compoundSplitSteps(
  titles: { terms: string[]; group: string }[],
): Generator<void, Map<string, [string, string]>, void> {
  const words = new Map<string, { titles: number; groups: Set<string> }>();
  const pairs = new Map<string, { titles: number; groups: Set<string> }>();
  const count = (
    map: Map<string, { titles: number; groups: Set<string> }>,
    key: string,
    group: string,
  ) => {
    const entry = map.get(key) ?? { titles: 0, groups: new Set<string>() };
    entry.titles++;
    entry.groups.add(group);
    map.set(key, entry);
  };
  let step = 0;
  for (const { terms, group } of titles) {
    for (const word of new Set(terms)) count(words, word, group);
    for (const pair of new Set(bigrams(terms))) count(pairs, pair, group);
    if (++step % SLICE_TITLES === 0) yield;
  }
  const splits = new Map<string, [string, string]>();
  for (const [word, alone] of words) {
    if (++step % SLICE_TITLES === 0) yield;
    if (word.length < 6 || /[^a-z]/.test(word)) continue;
    let most = alone.titles;
    for (let at = 3; at <= word.length - 3; at++) {
      const [a, b] = [word.slice(0, at), word.slice(at)];
      const together = pairs.get(`${a} ${b}`);
      if (together && together.titles > most && together.groups.size > alone.groups.size) {
        splits.set(word, [a, b]);
        most = together.titles;
      }
    }
  }
  return splits;
}

/** Runs steps to their end without pausing. */
function drain<T>(steps: Generator<void, T, void>): T {
  for (;;) {
    const next = steps.next();
    if (next.done) return next.value;
  }
}

function bigrams(terms: string[]): string[] {
  const out: string[] = [];
  for (let i = 1; i < terms.length; i++) out.push(`${terms[i - 1]} ${terms[i]}`);
  return out;
}

function normalise(v: Float32Array): void {
  let sum = 0;
  for (let i = 0; i < v.length; i++) sum += v[i] * v[i];
  const norm = Math.sqrt(sum);
  if (norm > 0) { for (let i = 0; i < v.length; i++) v[i] /= norm; }
}

/**
 * Whether a word is written as an acronym in the raw title: in capitals in a title that is not all
 * capitals, or alone; in an all-capitals title, three letters or fewer without a vowel ("PHP",
 * "CRM": "MFG" is lost with them).
 */
function acronym(word: string, raw: string): boolean {
  const tokens = raw.split(/[^A-Za-z]+/).filter(Boolean);
  if (!tokens.includes(word.toUpperCase())) return false;
  if (raw !== raw.toUpperCase() || tokens.length === 1) return true;
  return word.length <= 3 && !/[aeiouy]/.test(word);
}

/**
 * Whether `short` contracts `long` as abbreviations do: a prefix ("equip", "cust"), or the first
 * letter and then consonants of the word in order, its last letter allowed as well ("mfg",
 * "whse", "tchr", "acctg"). Letters taken from several words ("cda", "sri") mostly are not.
 */
function contracts(long: string, short: string): boolean {
  if (long.startsWith(short)) return true;
  if (long[0] !== short[0]) return false;
  let at = 1;
  for (let i = 1; i < long.length && at < short.length; i++) {
    const c = long[i];
    if (c !== short[at]) continue;
    if (!/[aeiouy]/.test(c) || (i === long.length - 1 && at === short.length - 1)) at++;
  }
  return at === short.length;
}

/** The first index of a sorted list whose value is not below `value` (its length if none). */
function lowerBound<T extends number | string>(list: ArrayLike<T>, value: T): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (list[mid] < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

function dotArrays(a: Float32Array, b: Float32Array): number {
  let sum = 0;
  for (let i = 0; i < a.length; i++) sum += a[i] * b[i];
  return sum;
}

/**
 * The indexes of the k largest positive values, largest first, ties to the lower index. With
 * `among` (its first `n` entries, in any order), only those indexes are looked at: the caller
 * knows every other value is zero, and skips a scan of all of them.
 */
function topIndices(
  values: Float64Array,
  k: number,
  among?: Int32Array,
  n = among ? among.length : values.length,
): number[] {
  // Partial selection: k is small, so an insertion into a sorted window beats a full sort.
  const top: number[] = [];
  const ahead = (v: number, i: number, j: number) => v > values[j] || (v === values[j] && i < j);
  for (let c = 0; c < n; c++) {
    const i = among ? among[c] : c;
    const v = values[i];
    if (v <= 0 || (top.length === k && !ahead(v, i, top[k - 1]))) continue;
    let j = top.length < k ? top.length : k - 1;
    while (j > 0 && ahead(v, i, top[j - 1])) {
      top[j] = top[j - 1];
      j--;
    }
    top[j] = i;
  }
  return top;
}
