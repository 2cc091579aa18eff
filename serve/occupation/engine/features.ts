/**
 * The channel values the learned fusion weighs, in the order of its weights (engine/fusion.ts):
 * the linear part of the score is their weighted sum. The reranker reads them too
 * (engine/rerank.ts).
 */
export const FUSION_FEATURES = [
  "best_title",
  "occ_cover",
  "pair",
  "stem_cover",
  "context",
  "semantic",
  "prior",
  "title_agg",
  "role_match",
  "role_mismatch",
  "description",
  "title_vote",
  "head_occ",
  "manager_match",
  "rest_cover",
  "domain_rest",
] as const;
