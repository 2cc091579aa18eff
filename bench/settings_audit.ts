/**
 * `deno task audit:readings`: every title of the taxonomy artifact's index (O*NET's primary,
 * alternate and reported titles of its release) that the title readings written by hand rewrite,
 * and whether the reading agrees with O*NET's own code for that title. The readings are `engine/text.ts` SETTINGS (a title whose
 * setting decides its occupation, read as that occupation's title) and `engine/spanish.ts` (a
 * Spanish title read in English). A reading that fires on an O*NET title of another occupation is
 * either a choice SOC makes against O*NET's listing (vine pruners are crop farmworkers) or a row
 * that reads too much ("Oil Field Worker" as a crop farmworker): run this after editing either. A
 * reading's codes are those the index lists it under, and a reading that is no title of the index
 * fails the audit.
 *
 * Then the same readings over the distinct titles of real posting samples (`--postings`, by default
 * the LinkedIn 2023 and Adzuna 2026 files of ../shared/data/postings), every rewrite printed for a
 * person to read: there is no code to check them against.
 *
 * Usage: deno task audit:readings [--artifact <dir | version | release>] [--postings <csv>]...
 */
import { parseArgs } from "node:util";
import { loadIndexSource } from "./rank.ts";
import { settingReading, twoForms } from "../serve/occupation/engine/text.ts";
import { spanishAsEnglish } from "../serve/occupation/engine/spanish.ts";
import { normalizeTitle } from "../serve/text/normalize.ts";
import { parseCsvText } from "../build/market/csv.ts";

const POSTINGS = [
  "../../shared/data/postings/linkedin_2023_arshkon_v1_nodesc/job_postings.csv",
  "../../shared/data/postings/adzuna_us_api_2026/adzuna_jobs_raw.csv",
].map((path) => new URL(path, import.meta.url).pathname);

async function main() {
  const { values } = parseArgs({
    args: Deno.args,
    options: {
      artifact: { type: "string" },
      postings: { type: "string", multiple: true, default: POSTINGS },
    },
  });
  const { side, source } = await loadIndexSource(values.artifact);
  // Title -> the SOC codes O*NET lists it under; and by normalised title, for the readings, which
  // are titles of the index written in lower case ("crop farmworker").
  const titles = new Map<string, Set<string>>();
  const byNorm = new Map<string, Set<string>>();
  for (const { title, onetCode } of source.titles) {
    // The index reads a title written two ways as two titles ("Guest Room Attendant (GRA)").
    const forms = (twoForms(title) ?? [title]).map(normalizeTitle);
    for (
      const [map, key] of [
        [titles, title],
        ...forms.map((f) => [byNorm, f] as const),
      ] as const
    ) {
      const codes = map.get(key) ?? new Set<string>();
      codes.add(onetCode.slice(0, 7));
      map.set(key, codes);
    }
  }
  // A reading's codes are those O*NET lists it under: each must be a title of the index.
  const readingCodes = (reading: string) => {
    const codes = byNorm.get(normalizeTitle(reading));
    if (codes === undefined) throw new Error(`reading "${reading}" is no title of the index`);
    return codes;
  };
  let read = 0;
  let against = 0;
  let spanish = 0;
  for (const [title, codes] of [...titles].sort((a, b) => a[0] < b[0] ? -1 : 1)) {
    const reading = settingReading(title);
    if (reading !== null) {
      read++;
      const socs = readingCodes(reading);
      if (![...socs].some((soc) => codes.has(soc))) {
        against++;
        console.log(
          `setting  ${title} -> ${reading} (${[...socs].join(", ")}); O*NET: ${
            [...codes].join(", ")
          }`,
        );
      }
    }
    const english = spanishAsEnglish(title);
    if (english !== title) {
      spanish++;
      console.log(`spanish  ${title} -> ${english}; O*NET: ${[...codes].join(", ")}`);
    }
  }
  console.log(
    `${side.dir}: ${titles.size} titles: SETTINGS read ${read}, ${against} of them against O*NET's ` +
      `code; the Spanish reading rewrote ${spanish}\n`,
  );
  const seen = new Set<string>();
  let rewritten = 0;
  for (const path of values.postings!) {
    const [header, ...rows] = parseCsvText(await Deno.readTextFile(path));
    const at = header.indexOf("title");
    if (at < 0) throw new Error(`${path}: no title column`);
    for (const row of rows) {
      const title = row[at]?.trim();
      if (!title || seen.has(title)) continue;
      seen.add(title);
      const english = spanishAsEnglish(title);
      const reading = settingReading(english);
      if (english === title && reading === null) continue;
      rewritten++;
      console.log(
        `posting  ${title}` + (english !== title ? ` -> ${english}` : "") +
          (reading !== null ? ` -> ${reading} (${[...readingCodes(reading)].join(", ")})` : ""),
      );
    }
  }
  console.log(`${seen.size} posting titles: the readings rewrote ${rewritten}`);
}

if (import.meta.main) await main();
