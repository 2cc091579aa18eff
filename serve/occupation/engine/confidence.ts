/**
 * Confidence for analyze and classify. `confidence_raw` is the top result's share of a softmax
 * over the top ten relevance scores; `confidence` is the probability that the top result is right
 * at the O*NET-SOC level, from a logistic regression fitted at build time on titles held out of
 * the index (engine/calibrate.ts). Bands and the grounding rules are documented constants here.
 */
import { fitLogistic, type LogisticModel, predict } from "./logistic.ts";
import type { Ranking } from "./index.ts";

/** Features the calibration model reads, in order. */
export const CONFIDENCE_FEATURES = [
  "top_score",
  "margin",
  "top_share",
  "entropy",
  "role_head_agreement",
  "exact_title",
  "known_term_share",
  "known_role_head",
  "vector_only",
  "description_agrees",
  "description_disagrees",
  "log_query_terms",
  "dropped_share",
  "role_word",
  "top_prior",
  "top_score_sq",
  "margin_sq",
  "top_share_sq",
  "log_qualifier_terms",
  "top_vote",
  "substituted_share",
  "log_same_title_occupations",
  "shared_title_share",
  "mean_idf",
];

/** Calibration stored in the artifact. */
export interface Calibration {
  ranker_version: string;
  method: "logistic_regression";
  model: CalibrationModel;
  report: Record<string, unknown>;
}

/**
 * The calibration model: one logistic regression, and a second one (`exact`) for rankings whose
 * top result has the query as one of its titles. Those are of two kinds the features cannot tell
 * apart (an O*NET title sent as is, right 99% of the time; a title that cleaning turns into
 * another occupation's title, right about a third of the time): one model for both kinds and the
 * rest left the exact matches under-confident and every other ranking over-confident.
 */
export interface CalibrationModel extends LogisticModel {
  exact?: LogisticModel;
}

/** The model of a calibration that applies to a ranking with at least one result. */
export function segmentModel(model: CalibrationModel, ranking: Ranking): LogisticModel {
  return model.exact && ranking.results[0].exact ? model.exact : model;
}

/** Confidence band thresholds on calibrated confidence. */
export const BANDS = { high: 0.7, medium: 0.4 } as const;

const TEMPERATURE = 0.05;

/** Softmax shares of the top scores, normalised entropy and margin. */
export function scoreShape(scores: readonly number[]) {
  if (scores.length === 0) return { shares: [], entropy: 0, margin: 0 };
  const max = scores[0];
  const exps = scores.map((s) => Math.exp((s - max) / TEMPERATURE));
  const total = exps.reduce((a, b) => a + b, 0);
  const shares = exps.map((e) => e / total);
  const entropy = scores.length > 1
    ? -shares.reduce((a, p) => a + (p > 0 ? p * Math.log(p) : 0), 0) / Math.log(scores.length)
    : 0;
  return { shares, entropy, margin: scores.length > 1 ? scores[0] - scores[1] : scores[0] };
}

/** The calibration model's inputs for a ranking with at least one result. */
export function confidenceFeatures(ranking: Ranking): number[] {
  const top = ranking.results[0];
  const { shares, entropy, margin } = scoreShape(ranking.topScores);
  return [
    top.score,
    margin,
    shares[0],
    entropy,
    top.roleHeadAgreement ? 1 : 0,
    top.exact ? 1 : 0,
    ranking.knownTermShare,
    ranking.knownRoleHead ? 1 : 0,
    top.semanticOnly ? 1 : 0,
    ranking.descriptionAgrees === true ? 1 : 0,
    ranking.descriptionAgrees === false ? 1 : 0,
    Math.log(1 + ranking.queryTerms),
    ranking.droppedShare,
    ranking.queryRole === "worker" ? 0 : 1,
    top.prior,
    top.score * top.score,
    margin * margin,
    shares[0] * shares[0],
    Math.log(1 + ranking.qualifierTerms),
    top.vote,
    ranking.substitutedShare,
    Math.log(1 + ranking.sameTitleOccupations),
    ranking.sharedTitleShare,
    ranking.meanIdf,
  ];
}

/** Fits the calibration model on labelled rankings (label 1 when the top result is right). */
export function fitCalibration(
  features: number[][],
  labels: number[],
  weights?: number[],
): LogisticModel {
  return fitLogistic(CONFIDENCE_FEATURES, features, labels, { weights });
}

export type Level = "high" | "medium" | "low";
export type Decision = "ACCEPT" | "REVIEW" | "REJECT";

/** Everything analyze and classify report about confidence. */
export interface Assessment {
  confidence: number;
  confidenceRaw: number;
  band: Level;
  grounding: Level;
  groundingExplanation: string;
  explanation: string;
  /** Calibrated probability of each result, summing to at most 1 over the list. */
  resultConfidence: number[];
  debug: { entropy: number; margin: number; base_confidence: number; adjusted_confidence: number };
  decision: { decision: Decision; decision_score: number; reason: string; applied_rule: string };
}

const r4 = (x: number) => Math.round(x * 10000) / 10000;

/** Band of a calibrated confidence. */
export function band(confidence: number): Level {
  return confidence >= BANDS.high ? "high" : confidence >= BANDS.medium ? "medium" : "low";
}

/** How well the input is grounded in occupational language, and why, in plain words. */
export function grounding(ranking: Ranking): { level: Level; explanation: string } {
  const parts: string[] = [];
  const head = ranking.queryRoleHead;
  if (ranking.knownRoleHead) {
    parts.push(`the title's role word "${head}" is a role that O*NET titles use`);
  } else if (head) {
    parts.push(`the title's role word "${head}" is not a role that O*NET titles use`);
  } else {
    parts.push("no role word could be found in the title");
  }
  const share = ranking.knownTermShare;
  parts.push(
    share >= 0.999
      ? "every word of the title appears in O*NET occupation titles"
      : share >= 0.5
      ? "most of the title's words appear in O*NET occupation titles"
      : share > 0
      ? "few of the title's words appear in O*NET occupation titles"
      : "none of the title's words appear in O*NET occupation titles",
  );
  if (ranking.descriptionAgrees === true) parts.push("the description supports the title");
  if (ranking.descriptionAgrees === false) {
    parts.push("the description points to different occupations than the title");
  }
  let level: Level = "low";
  if (ranking.knownRoleHead && share >= 0.8 && ranking.descriptionAgrees !== false) level = "high";
  else if (ranking.knownRoleHead || share >= 0.5) level = "medium";
  const text = parts.join("; ");
  return { level, explanation: text.charAt(0).toUpperCase() + text.slice(1) + "." };
}

/** A probability in words: "83%", never "100%" or "0%" for what is not certain. */
export function percent(probability: number): string {
  if (probability >= 0.995) return "over 99%";
  if (probability > 0 && probability < 0.005) return "under 1%";
  return `${Math.round(probability * 100)}%`;
}

/** Relevance within this of the top counts as "nearly as well" in explanations. */
const CLOSE_MARGIN = 0.1;

function explain(ranking: Ranking, confidence: number): string {
  const top = ranking.results[0];
  const parts: string[] = [];
  if (top.exact) {
    parts.push(`the title is a known title of this occupation ("${top.matchedTitle}")`);
  } else if (top.phrase) {
    parts.push(`the title contains the occupation's title "${top.matchedTitle}"`);
  } else if (top.semanticOnly) {
    parts.push("the match rests on words with a similar meaning only");
  } else if (!top.titleMatched) {
    parts.push("no title matches word for word, but related words in its titles or duties do");
  } else parts.push(`the closest known title is "${top.matchedTitle}"`);
  if (top.roleHeadAgreement) parts.push(`the role ("${top.candidateRoleHead}") agrees`);
  else if (ranking.queryRoleHead) {
    parts.push(
      `the role differs ("${ranking.queryRoleHead}" versus "${top.candidateRoleHead}")`,
    );
  }
  const scores = ranking.topScores;
  const close = scores.slice(1).filter((s) => s >= scores[0] - CLOSE_MARGIN).length;
  if (close >= 1) {
    parts.push(
      `${close} other occupation${
        close > 1 ? "s score" : " scores"
      } nearly as well, so the title is ambiguous`,
    );
  } else if (ranking.results.length > 1) parts.push("no other occupation comes close");
  if (ranking.descriptionAgrees === true) parts.push("the description supports it");
  if (ranking.descriptionAgrees === false) parts.push("the description does not support it");
  const lead = confidence >= BANDS.high
    ? "Likely right"
    : confidence >= BANDS.medium
    ? "Plausible but worth a check"
    : "Uncertain";
  return `${lead} (${percent(confidence)} of similar titles were coded correctly): ${
    parts.join("; ")
  }.`;
}

/** Confidence, band, grounding, explanations and the debug and decision blocks. */
export function assess(ranking: Ranking, calibration: Calibration): Assessment {
  const g = grounding(ranking);
  if (ranking.results.length === 0) {
    return {
      confidence: 0,
      confidenceRaw: 0,
      band: "low",
      grounding: g.level,
      groundingExplanation: g.explanation,
      explanation: "No occupation matches the input, so there is nothing to be confident about.",
      resultConfidence: [],
      debug: { entropy: 0, margin: 0, base_confidence: 0, adjusted_confidence: 0 },
      decision: {
        decision: "REJECT" as const,
        decision_score: 0,
        reason: "no occupation matches the input",
        applied_rule: "no_candidate",
      },
    };
  }
  const { shares, entropy, margin } = scoreShape(ranking.topScores);
  const confidence = r4(
    predict(segmentModel(calibration.model, ranking), confidenceFeatures(ranking)),
  );
  // The other results in proportion to their score shares, on the scale the top result sets
  // (confidence per share), shrunk when that would take the list past 1. A result never shows
  // more confidence than one ranked above it: sharing out all of 1 - confidence by score share,
  // as before, gave the second of two near-tied results up to twice the first's confidence (in 552
  // of 1,995 analyze answers for posting titles), though the outcome "neither is right" is there too.
  const rest = 1 - shares[0];
  const scale = Math.min(confidence / shares[0], rest > 0 ? (1 - confidence) / rest : 0);
  const resultConfidence = ranking.results.map((_, i) =>
    i === 0 ? confidence : r4((shares[i] ?? 0) * scale)
  );
  const b = band(confidence);
  const decision: { decision: Decision; reason: string; applied_rule: string } = b === "high"
    ? {
      decision: "ACCEPT",
      reason: "calibrated confidence is high enough to use the top occupation",
      applied_rule: `confidence>=${BANDS.high}`,
    }
    : b === "medium"
    ? {
      decision: "REVIEW",
      reason: "plausible top occupation; a person should confirm it",
      applied_rule: `${BANDS.medium}<=confidence<${BANDS.high}`,
    }
    : {
      decision: "REJECT",
      reason: "calibrated confidence is too low to use the top occupation",
      applied_rule: `confidence<${BANDS.medium}`,
    };
  return {
    confidence,
    confidenceRaw: r4(shares[0]),
    band: b,
    grounding: g.level,
    groundingExplanation: g.explanation,
    explanation: explain(ranking, confidence),
    resultConfidence,
    debug: {
      entropy: r4(entropy),
      margin: r4(margin),
      base_confidence: r4(shares[0]),
      adjusted_confidence: confidence,
    },
    decision: { ...decision, decision_score: confidence },
  };
}
