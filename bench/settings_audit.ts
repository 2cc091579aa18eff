/**
 * `deno task audit:readings`: every title of the taxonomy artifact's index (O*NET's primary,
 * alternate and reported titles of its release) that the title readings written by hand rewrite,
 * and whether the reading agrees with O*NET's own code for that title. The readings are `engine/text.ts` SETTINGS (a title whose
 * setting decides its occupation, read as that occupation's title) and `engine/spanish.ts` (a
 * Spanish title read in English). A reading that fires on an O*NET title of another occupation is
 * either a choice SOC makes against O*NET's listing (vine pruners are crop farmworkers) or a row
 * that reads too much ("Oil Field Worker" as a crop farmworker): run this after editing either.
 *
 * Then the same readings over the distinct titles of real posting samples (`--postings`, by default
 * the LinkedIn 2023 and Adzuna 2026 files of ../shared/data/postings), every rewrite printed for a
 * person to read: there is no code to check them against.
 *
 * Usage: deno task audit:readings [--artifact <dir | version | release>] [--postings <csv>]...
 */
import { parseArgs } from "node:util";
import { loadIndexSource } from "./rank.ts";
import { settingReading } from "../serve/occupation/engine/text.ts";
import { spanishAsEnglish } from "../serve/occupation/engine/spanish.ts";
import { parseCsvText } from "../build/market/csv.ts";

const POSTINGS = [
  "../../shared/data/postings/linkedin_2023_arshkon_v1_nodesc/job_postings.csv",
  "../../shared/data/postings/adzuna_us_api_2026/adzuna_jobs_raw.csv",
].map((path) => new URL(path, import.meta.url).pathname);

/** The SOC code of each SETTINGS reading (a title of that occupation in the index). */
const READING_SOC: Readonly<Record<string, string>> = {
  "animal caretaker": "39-2021",
  "guest room attendant": "37-2012",
  "ski lift operator": "39-3091",
  "carnival worker": "39-3091",
  "food preparation worker": "35-2021",
  "crop farmworker": "45-2092",
  "produce sorter": "45-2041",
  "agricultural equipment operator": "45-2091",
  "seafood processor": "51-3022",
  "slaughterer": "51-3023",
  "landscape laborer": "37-3011",
  "livestock laborer": "45-2093",
  "forestry worker": "45-4011",
  "boat crew deck hand": "53-5011",
  "amusement attendant": "39-3091",
  "pesticide applicator": "37-3012",
  "concrete finisher": "47-2051",
  "brick mason helper": "47-3011",
  "heavy construction equipment operator": "47-2073",
  "psychiatric aide": "31-1133",
  "snack bar attendant": "35-3023",
  "short order cook": "35-2015",
  "housekeeping cleaner": "37-2012",
  "farm supervisor": "45-1011",
  "agricultural produce packer": "53-7064",
  "software test analyst": "15-1253",
  "general maintenance worker": "49-9071",
  "restaurant cook": "35-2014",
  "construction laborer": "47-2061",
  "correctional supervisor": "33-1011",
  "boiler operator": "51-8021",
  "security guard": "33-9032",
  "fast food cook": "35-2011",
  "waiter": "35-3031",
  "line clearance trimmer": "37-3013",
  "dock attendant": "53-6031",
  "web designer": "15-1255",
  "management analyst": "13-1111",
  "computer systems analyst": "15-1211",
};

async function main() {
  const { values } = parseArgs({
    args: Deno.args,
    options: {
      artifact: { type: "string" },
      postings: { type: "string", multiple: true, default: POSTINGS },
    },
  });
  const { side, source } = await loadIndexSource(values.artifact);
  // Title -> the SOC codes O*NET lists it under.
  const titles = new Map<string, Set<string>>();
  for (const { title, onetCode } of source.titles) {
    const codes = titles.get(title) ?? new Set<string>();
    codes.add(onetCode.slice(0, 7));
    titles.set(title, codes);
  }
  let read = 0;
  let against = 0;
  let spanish = 0;
  for (const [title, codes] of [...titles].sort((a, b) => a[0] < b[0] ? -1 : 1)) {
    const reading = settingReading(title);
    if (reading !== null) {
      read++;
      const soc = READING_SOC[reading];
      if (soc === undefined) throw new Error(`reading "${reading}" has no SOC code here`);
      if (!codes.has(soc)) {
        against++;
        console.log(`setting  ${title} -> ${reading} (${soc}); O*NET: ${[...codes].join(", ")}`);
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
          (reading !== null ? ` -> ${reading} (${READING_SOC[reading]})` : ""),
      );
    }
  }
  console.log(`${seen.size} posting titles: the readings rewrote ${rewritten}`);
}

if (import.meta.main) await main();
