/**
 * The evidence pack document (GET /api/v1/workforce/evidence-packs/{id}): the machine-readable
 * pack, built only from the evidence artifact (reviewed OEWS/QWI snapshots, the SOC 2018
 * structure and the O*NET catalog copied in at build time). Every published number carries its
 * marker and a `lineage_id` that points into `lineage`, which names the source, vintage, file
 * sha256 and row key. The HTML report is rendered from this document alone.
 */

/** OEWS reliability and suppression markers, kept as data (never turned into numbers). */
export type OewsMarker = "*" | "**" | "#" | "~";

/** A published figure: a number, or null with the marker that stands in its place. */
export interface Figure {
  value: number | null;
  /** `*` wage not available, `**` employment not available, `#` at or above the top code
   * (value is null; the bound is in `top_code`), `~` under 0.5% of establishments. */
  marker: OewsMarker | null;
}

/** Sections a pack can hold; `occupation` is always present. */
export const PACK_SECTIONS = [
  "employment",
  "wages",
  "industries",
  "industry_dynamics",
  "skills",
  "tasks",
] as const;
export type PackSection = (typeof PACK_SECTIONS)[number];

/** One source row behind one or more figures. */
export interface LineageEntry {
  /** Referenced by `lineage_id` elsewhere in the document, e.g. "oews-2025-national-853". */
  id: string;
  /** e.g. "BLS Occupational Employment and Wage Statistics (OEWS), national". */
  source: string;
  /** e.g. "May 2025". */
  vintage: string;
  /** The snapshot file name as reviewed, e.g. "national_M2025_dl.csv". */
  file: string;
  sha256: string;
  /** Where in the file: e.g. "line 853: OCC_CODE=15-1252, NAICS=000000, O_GROUP=detailed". */
  row_key: string;
  /** The review registry entry that approved the file. */
  review: { reviewer: string; reviewed_on: string };
}

/** OEWS employment and wages for one vintage, as published. */
export interface OewsVintageFigures {
  /** "May 2025" */
  vintage: string;
  /** "2025-05" */
  reference_period: string;
  /** The OEWS row used: the detailed code itself, or the broad aggregate OEWS publishes it in. */
  published_as: { occ_code: string; occ_title: string; o_group: string; note: string | null };
  employment: Figure;
  /** Percent relative standard error of the employment estimate. */
  employment_rse_percent: Figure;
  wages: {
    hourly_mean: Figure;
    annual_mean: Figure;
    mean_rse_percent: Figure;
    /** p10, p25, median, p75, p90 */
    hourly_percentiles: { p10: Figure; p25: Figure; median: Figure; p75: Figure; p90: Figure };
    annual_percentiles: { p10: Figure; p25: Figure; median: Figure; p75: Figure; p90: Figure };
    /** OEWS releases only annual (teachers, pilots) or only hourly (actors) wages for some. */
    annual_only: boolean;
    hourly_only: boolean;
    /** The top code of this vintage ("#" values are at or above it), or null. */
    top_code: { hourly: number; annual: number } | null;
  } | null;
  lineage_id: string;
}

/** One NAICS sector's employment of the occupation (OEWS national industry-sector file). */
export interface IndustryRow {
  naics: string;
  naics_title: string;
  /** OEWS ownership code of the sector estimate, with its meaning. */
  ownership: { code: string; meaning: string };
  employment: Figure;
  employment_rse_percent: Figure;
  /** Percent of the sector's employment in this occupation. */
  pct_of_industry_employment: Figure;
  /** Percent of the sector's establishments reporting the occupation. */
  pct_establishments_reporting: Figure;
  annual_median: Figure;
  lineage_id: string;
}

/** QWI quarterly figures for one sector, as context (another geography and period). */
export interface QwiSectorSeries {
  naics: string;
  naics_title: string;
  quarters: {
    year: number;
    quarter: number;
    /** Sum of the county values published with status flag 1 (ok). */
    employment_ok_counties: number;
    /** County cells by status flag, e.g. {"1": 95, "5": 3, "9": 2}. */
    county_cells_by_flag: Record<string, number>;
    lineage_id: string;
  }[];
}

/** The whole pack document. */
export interface EvidencePackDocument {
  schema: "workforce-evidence-pack/v1";
  evidence_pack_id: string;
  /** The canonical request the id was derived from (defaults filled in). */
  request: {
    soc_code: string;
    country_code: string;
    geography: { level: "national" | "state"; code: string };
    sections: PackSection[];
    oews_vintages: string[];
  };
  evidence: {
    artifact: "evidence";
    version: string;
    content_hash: string;
    taxonomy: { release: string; version: string; content_hash: string };
  };
  occupation: {
    soc_code: string;
    soc_version: "SOC 2018";
    title: string;
    definition: string;
    groups: {
      major: { code: string; title: string };
      minor: { code: string; title: string };
      broad: { code: string; title: string };
    };
    onet_occupations: { onet_code: string; title: string }[];
    lineage_id: string;
  };
  employment_and_wages?: {
    geography: { level: "national"; code: "US"; name: string };
    /** Newest first. Vintages side by side, never a time series or growth rate. */
    vintages: OewsVintageFigures[];
    note: string;
  };
  industries?: {
    vintage: string;
    /** Sectors by employment, largest first; suppressed ones last. */
    rows: IndustryRow[];
    note: string;
  };
  industry_dynamics?: {
    context_only: true;
    source: string;
    geography: string;
    period: string;
    measure: string;
    flags: Record<string, string>;
    /** Sectors of `industries` (largest first) that QWI covers. */
    sectors: QwiSectorSeries[];
    note: string;
  };
  skills?: {
    source: string;
    bound: number;
    items: {
      element_id: string;
      name: string;
      importance: number;
      level: number | null;
      onet_code: string;
    }[];
  };
  tasks?: {
    source: string;
    bound: number;
    items: { task_id: number; task: string; task_type: string | null; onet_code: string }[];
  };
  lineage: LineageEntry[];
  /** What this pack does not claim. */
  boundaries: string[];
  attributions: string[];
  /** sha256 of the RFC 8785 canonical JSON of the document without this field. */
  integrity: { canonicalization: "RFC 8785 (JCS)"; sha256: string };
}
