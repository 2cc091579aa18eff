/// <reference lib="deno.worker" />
/**
 * A staging worker: compiles the term matcher once from the dictionary the main thread sends,
 * then normalises and extracts batches of raw records (build/market/stage.ts).
 */
import { compileMatcher, type TermMatcher } from "./extract.ts";
import { type DictionaryInputs, processRecord } from "./stage.ts";
import type { RawPosting } from "./feeds.ts";

let matcher: TermMatcher | null = null;

self.onmessage = (
  event: MessageEvent<
    | { type: "init"; dictionary: DictionaryInputs }
    | { type: "batch"; id: number; raws: RawPosting[] }
  >,
) => {
  const message = event.data;
  if (message.type === "init") {
    const { technologies, elements, curated } = message.dictionary;
    matcher = compileMatcher(technologies, elements, curated);
    return;
  }
  const results = message.raws.map((raw) => processRecord(raw, matcher!));
  self.postMessage({ id: message.id, results });
};
