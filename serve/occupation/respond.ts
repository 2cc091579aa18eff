/**
 * The bodies of candidates, analyze and classify (spec 4.1, shapes 2.2-2.5), made where the
 * version's ranking index lives: in the ranking worker by default (ranker.ts), so the request
 * thread gets one JSON string back instead of a ranking to copy across threads, shape and encode
 * (about 50 µs of CPU per uncached request on this machine, and the garbage of the copies).
 *
 * Pure: a ranking, the version's facts (release, attribution, calibrations, related occupations)
 * and the request's own fields decide the body.
 */
import type { OccupationIndex, Ranking } from "./engine/index.ts";
import { assess, type Assessment, type Calibration, percent } from "./engine/confidence.ts";
import { type Channel, retrievalPolicy } from "./engine/calibrate.ts";
import type { RelatedOccupation } from "./artifact.ts";
import { indexTerms } from "../text/normalize.ts";
import type { z } from "@hono/zod-openapi";
import type { AnalysisResponse, CandidatesResponse, ClassificationResponse } from "./schemas.ts";

// The bodies' types, from the routes' response schemas: a field the schema lacks fails the check.
type CandidatesBody = z.infer<typeof CandidatesResponse>;
type AnalysisBody = z.infer<typeof AnalysisResponse>;
/** An analyze result without its related occupations (spliced in as encoded text). */
type AnalysisResult = Omit<AnalysisBody["results"][number], "related_occupations">;
type ClassificationBody = z.infer<typeof ClassificationResponse>;

/** Results analyze returns. */
const ANALYZE_RESULTS = 5;
/** Results ranked per request: the largest candidates limit, and the confidence's score shape. */
const RANK_DEPTH = 10;

/** What a version's answers need besides its index; the same on both threads. */
export interface VersionFacts {
  release: string;
  attribution: string;
  /** Confidence calibration per retrieval channel (the lexical one always there). */
  calibrations: Map<Channel, Calibration>;
  /**
   * The JSON of each occupation's first five related occupations (analyze results); profiles list
   * all of them from their own bodies (answers.ts).
   */
  relatedTexts: RelatedTexts;
}

/**
 * Each occupation's first five related occupations as JSON text, in one buffer: analyze splices
 * an occupation's in as it is, and they are what the ranking worker is sent of the related
 * occupations (the codes and two typed arrays; the 18,460 related records, copied into the
 * worker's message, held the request thread for 30-50 ms at every hot swap: notes/issue12.md).
 * The taxonomy build stores them in answers.snapshot, instead of the records (whose reading
 * was another 20-30 ms of a swap's request thread).
 */
export interface RelatedTexts {
  codes: string[];
  /** Where each code's text starts in `bytes`, and where the last ends (codes + 1 offsets). */
  offsets: Int32Array;
  bytes: Uint8Array;
}

/** Related occupations an analyze result lists. */
const RELATED_RESULTS = 5;

/** The related occupations as RelatedTexts, in the map's order. */
export function encodeRelatedTexts(
  related: ReadonlyMap<string, readonly RelatedOccupation[]>,
): RelatedTexts {
  const codes = [...related.keys()];
  const texts = codes.map((code) =>
    encoder.encode(JSON.stringify(related.get(code)!.slice(0, RELATED_RESULTS)))
  );
  const offsets = new Int32Array(codes.length + 1);
  texts.forEach((text, i) => offsets[i + 1] = offsets[i] + text.length);
  const bytes = new Uint8Array(offsets[codes.length]);
  texts.forEach((text, i) => bytes.set(text, offsets[i]));
  return { codes, offsets, bytes };
}

/**
 * Only a version's facts, of a value that has more (the request thread's TaxonomyData): what a
 * message to the ranking worker copies.
 */
export function onlyFacts(facts: VersionFacts): VersionFacts {
  const { release, attribution, calibrations, relatedTexts } = facts;
  return { release, attribution, calibrations, relatedTexts };
}

const decodedTexts = new WeakMap<RelatedTexts, Map<string, string>>();

/**
 * The JSON of an occupation's first five related occupations ("[]" for none); the texts are
 * decoded once per version, at its first analyze.
 */
function relatedJson(texts: RelatedTexts, code: string): string {
  let decoded = decodedTexts.get(texts);
  if (!decoded) {
    decoded = new Map();
    const decoder = new TextDecoder();
    const { codes, offsets, bytes } = texts;
    for (let i = 0; i < codes.length; i++) {
      decoded.set(codes[i], decoder.decode(bytes.subarray(offsets[i], offsets[i + 1])));
    }
    decodedTexts.set(texts, decoded);
  }
  return decoded.get(code) ?? "[]";
}

/** One request to candidates, analyze or classify, as validated. */
export type AnswerRequest =
  & {
    title: string;
    description?: string;
    /** Use the semantic channel (the server's setting, and the index has vectors). */
    semantic: boolean;
  }
  & (
    | { route: "candidates"; limit: number }
    | { route: "analyze" | "classify"; debug: boolean }
  );

/**
 * A 200 body as UTF-8 bytes, or classify's "no occupation at all" (the caller answers 422). Bytes,
 * not a string: the ranking worker transfers their buffer to the request thread (no copy), which
 * sends them as they are and caches them outside the JavaScript heap.
 */
export type Answer = { body: Uint8Array<ArrayBuffer> } | { insufficient: true };

const encoder = new TextEncoder();
const bodyOf = (json: string): Answer => ({ body: encoder.encode(json) });

/** The answer to a request on a version's index. */
export function answerOn(
  index: OccupationIndex,
  facts: VersionFacts,
  request: AnswerRequest,
): Answer {
  const channel: Channel = request.semantic && index.hasVectors ? "hybrid" : "lexical";
  const ranking = index.rank(
    { title: request.title, description: request.description },
    { limit: RANK_DEPTH, semantic: channel === "hybrid" },
  );
  const calibration = facts.calibrations.get(channel) ?? facts.calibrations.get("lexical")!;
  switch (request.route) {
    case "candidates":
      return bodyOf(
        JSON.stringify(
          {
            query: { title: request.title, description_used: ranking.descriptionUsed },
            candidates: ranking.results.slice(0, request.limit).map((r, i) => ({
              rank: i + 1,
              onet_code: r.onetCode,
              title: r.title,
              relevance_score: r.score,
              match_reasons: r.reasons,
              evidence: {
                matched_title: r.matchedTitle,
                title_match_type: r.matchedTitleKind,
                query_role_head: ranking.queryRoleHead,
                candidate_role_head: r.candidateRoleHead,
                role_head_agreement: r.roleHeadAgreement,
                description_term_matches: r.descriptionTermMatches,
                task_term_matches: r.taskTermMatches,
              },
            })),
            decision: "candidates_only",
            mapping_selected: false,
            taxonomy_version: facts.release,
            policy: retrievalPolicy(channel, facts.release),
            score_interpretation: "ordering_only_not_probability",
            attribution: facts.attribution,
          } satisfies CandidatesBody,
        ),
      );
    case "analyze": {
      const a = assess(ranking, calibration);
      // Skills of a result whose words all occur in the title or the description.
      const terms = new Set(indexTerms(`${request.title} ${request.description ?? ""}`));
      const results = ranking.results.slice(0, ANALYZE_RESULTS).map((r, i) =>
        // The result's object, its last field (related occupations) spliced in as kept text.
        JSON.stringify(
          {
            onet_code: r.onetCode,
            title: r.title,
            confidence: a.resultConfidence[i],
            domain_grounding: a.grounding,
            domain_grounding_explanation: a.groundingExplanation,
            matching_skills: index.supportedSkills(r.onetCode, terms),
            confidence_explanation: resultExplanation(i, ranking, a.resultConfidence[i]),
          } satisfies AnalysisResult,
        ).slice(0, -1) +
        `,"related_occupations":${relatedJson(facts.relatedTexts, r.onetCode)}}`
      );
      const rest = JSON.stringify(
        {
          ...confidenceFields(a, request.debug),
          taxonomy_version: facts.release,
        } satisfies Omit<AnalysisBody, "results">,
      );
      return bodyOf(`{"results":[${results.join(",")}],${rest.slice(1)}`);
    }
    case "classify": {
      const top = ranking.results[0];
      if (!top) return { insufficient: true };
      return bodyOf(
        JSON.stringify(
          {
            occupation: { onet_code: top.onetCode, title: top.title },
            ...confidenceFields(assess(ranking, calibration), request.debug),
            taxonomy_version: facts.release,
          } satisfies ClassificationBody,
        ),
      );
    }
  }
}

function resultExplanation(rank: number, ranking: Ranking, confidence: number): string {
  const r = ranking.results[rank];
  const how = r.exact
    ? `matches the known title "${r.matchedTitle}"`
    : r.semanticOnly
    ? "is suggested by words with a similar meaning"
    : r.titleMatched
    ? `is closest to the known title "${r.matchedTitle}"`
    : "shares related words with the occupation's titles or duties";
  const head = r.roleHeadAgreement ? `, same role ("${r.candidateRoleHead}")` : "";
  return `Rank ${rank + 1}: the title ${how}${head}; ${
    percent(confidence)
  } probability of being the right occupation.`;
}

function confidenceFields(a: Assessment, debug: boolean) {
  return {
    confidence: a.confidence,
    confidence_raw: a.confidenceRaw,
    confidence_band: a.band,
    domain_grounding: a.grounding,
    domain_grounding_explanation: a.groundingExplanation,
    confidence_explanation: a.explanation,
    calibration_method: "logistic_regression" as const,
    ...(debug ? { confidence_debug: a.debug, decision: a.decision } : {}),
  };
}
