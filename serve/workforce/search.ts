/**
 * Catalog search: help to find a SOC code, never a classifier. A detailed code matches when
 * the query is a prefix of its code ("15-12", "1512"), or when every query word starts a word
 * of its SOC title, or of one O*NET title under it. Results come in three bands, by where the
 * query matched (code, SOC title, O*NET title), each in SOC code order; no score is computed
 * or returned, so the order is stable and explainable.
 */
import type { WorkforceData } from "./artifact.ts";

/** Lower case, accents and punctuation removed, single spaces. */
export function foldText(text: string): string {
  return text.normalize("NFKD").replace(/\p{M}+/gu, "").toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ").trim();
}

/** Where a query matched an occupation. */
export type MatchedOn = "soc_code" | "soc_title" | "onet_title" | "all";

function wordsMatch(words: string[], keyWords: string[]): boolean {
  return words.every((w) => keyWords.some((k) => k.startsWith(w)));
}

/** The matching detailed codes in their stable order, with where each matched. */
export function searchCatalog(
  data: WorkforceData,
  query: string | null,
): { index: number; matched_on: MatchedOn }[] {
  const folded = query === null ? "" : foldText(query);
  if (folded === "") return data.detailed.map((_d, index) => ({ index, matched_on: "all" }));
  const codeQuery = query!.trim().replace(/-/g, "");
  const words = folded.split(" ");
  const bands: { index: number; matched_on: MatchedOn }[][] = [[], [], []];
  data.detailed.forEach((d, index) => {
    if (/^\d{2,6}$/.test(codeQuery) && d.codeKey.startsWith(codeQuery)) {
      bands[0].push({ index, matched_on: "soc_code" });
    } else if (wordsMatch(words, d.titleWords)) {
      bands[1].push({ index, matched_on: "soc_title" });
    } else if (d.onetWords.some((k) => wordsMatch(words, k))) {
      bands[2].push({ index, matched_on: "onet_title" });
    }
  });
  return bands.flat();
}
