/**
 * What a taxonomy version's answers need beside its ranking index and its summary and profile
 * bodies: its occupations, attribution, related occupations and confidence calibrations, read
 * from the data file. The taxonomy build stores them with the bodies in `answers.snapshot`
 * (answers.ts), so a server running this code loads a version without opening its data file.
 */
import type { DuckDBConnection } from "@duckdb/node-api";
import type { Channel } from "./engine/calibrate.ts";
import type { Calibration } from "./engine/confidence.ts";
import { eachRow } from "./engine/load.ts";
import type { OccupationRecord, RelatedOccupation } from "./artifact.ts";
import { readAttribution } from "./queries.ts";
import { encodeRelatedTexts, type RelatedTexts, type VersionFacts } from "./respond.ts";

/** A version's occupations (in code order) and the facts its answers carry. */
export interface TaxonomyFacts {
  occupations: Map<string, OccupationRecord>;
  facts: VersionFacts;
}

/** The confidence calibration of each retrieval channel the build fitted. */
export async function readCalibrations(
  connection: DuckDBConnection,
): Promise<Map<Channel, Calibration>> {
  const calibrations = new Map<Channel, Calibration>();
  await eachRow(
    connection,
    "SELECT channel, ranker_version, method, model, report FROM ranker_calibration ORDER BY channel",
    ([channel, rankerVersion, method, model, report]) =>
      calibrations.set(String(channel) as Channel, {
        ranker_version: String(rankerVersion),
        method: String(method) as Calibration["method"],
        model: JSON.parse(String(model)),
        report: JSON.parse(String(report)),
      }),
  );
  return calibrations;
}

/**
 * Reads a version's facts from its data file (`attribution`: the manifest's, used when the
 * artifact's attribution table is empty).
 */
export async function readTaxonomyFacts(
  connection: DuckDBConnection,
  release: string,
  attribution: string,
): Promise<TaxonomyFacts> {
  const reader = await connection.runAndReadAll(
    "SELECT onet_code, title, soc_code, job_zone, has_data FROM occupations ORDER BY onet_code",
  );
  const occupations = new Map<string, OccupationRecord>();
  for (const [onetCode, title, socCode, jobZone, hasData] of reader.getRowsJS()) {
    occupations.set(String(onetCode), {
      onetCode: String(onetCode),
      title: String(title),
      socCode: String(socCode),
      jobZone: jobZone === null ? null : Number(jobZone),
      hasData: Boolean(hasData),
    });
  }
  const calibrations = await readCalibrations(connection);
  if (!calibrations.has("lexical")) throw new Error("the artifact has no lexical calibration");
  const related = new Map<string, RelatedOccupation[]>();
  // Chunk by chunk with a pause between: converting all of them at once held the event loop for
  // 40-70 ms during a hot swap of the full release.
  await eachRow(
    connection,
    `SELECT onet_code, related_code, relatedness_tier, related_index FROM related_occupations
     ORDER BY onet_code, related_index, related_code`,
    ([code, relatedCode, tier, index]) => {
      const title = occupations.get(String(relatedCode))?.title;
      if (!title) return;
      const list = related.get(String(code)) ?? [];
      list.push({
        onet_code: String(relatedCode),
        title,
        relatedness_tier: String(tier),
        rank: Number(index),
      });
      related.set(String(code), list);
    },
  );
  return {
    occupations,
    facts: {
      release,
      attribution: await readAttribution(connection, attribution),
      calibrations,
      relatedTexts: encodeRelatedTexts(related),
    },
  };
}

/** The facts as a snapshot stores them (plain lists and maps). */
export function factsParts(read: TaxonomyFacts): [string, unknown][] {
  return [
    ["release", read.facts.release],
    ["attribution", read.facts.attribution],
    ["occupations", [...read.occupations.values()]],
    ["calibrations", read.facts.calibrations],
    ["related_texts", read.facts.relatedTexts],
  ];
}

/** The facts from a snapshot's parts, or null when a part is missing. */
export function factsFromParts(parts: Map<string, unknown>): TaxonomyFacts | null {
  const names = [
    "release",
    "attribution",
    "occupations",
    "calibrations",
    "related_texts",
  ];
  if (!names.every((name) => parts.has(name))) return null;
  const occupations = new Map<string, OccupationRecord>();
  for (const record of parts.get("occupations") as OccupationRecord[]) {
    occupations.set(record.onetCode, record);
  }
  return {
    occupations,
    facts: {
      release: parts.get("release") as string,
      attribution: parts.get("attribution") as string,
      calibrations: parts.get("calibrations") as VersionFacts["calibrations"],
      relatedTexts: parts.get("related_texts") as RelatedTexts,
    },
  };
}
