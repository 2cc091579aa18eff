/** The taxonomy artifact spec: verification rules and the data the hot path keeps in memory. */
import type { DuckDBConnection } from "@duckdb/node-api";
import { type Manifest, TAXONOMY_SCHEMA_VERSION } from "../../build/manifest.ts";
import { NORMALIZER_VERSION } from "../text/normalize.ts";
import type { ArtifactSpec } from "./artifacts.ts";
import { TAXONOMY_TABLES } from "../../build/steps/tables.ts";

/** An occupation as the hot path sees it. */
export interface OccupationRecord {
  onetCode: string;
  title: string;
  socCode: string;
  jobZone: number | null;
  hasData: boolean;
}

/** What the server keeps in memory from a taxonomy version. */
export interface TaxonomyData {
  release: string;
  attribution: string;
  occupations: Map<string, OccupationRecord>;
}

/** Loads the taxonomy's in-memory part from an opened artifact. */
export async function loadTaxonomy(
  connection: DuckDBConnection,
  manifest: Manifest,
): Promise<TaxonomyData> {
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
  const attribution = await connection.runAndReadAll("SELECT text FROM attribution");
  return {
    release: manifest.release.version,
    attribution: String(attribution.getRows()[0]?.[0] ?? manifest.attribution),
    occupations,
  };
}

/** The taxonomy artifact: required, same schema and normaliser as this server. */
export const taxonomySpec: ArtifactSpec<TaxonomyData> = {
  name: "taxonomy",
  required: true,
  schemaVersion: TAXONOMY_SCHEMA_VERSION,
  tables: TAXONOMY_TABLES.map((t) => t.name),
  accept: (manifest) =>
    manifest.normalizer_version === NORMALIZER_VERSION
      ? null
      : `built with text normaliser ${manifest.normalizer_version}, this server uses ${NORMALIZER_VERSION}`,
  load: loadTaxonomy,
};
