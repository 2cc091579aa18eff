/**
 * Evidence pack assembly: a pure function of the evidence version in memory and a canonical
 * request. It either returns the document (without its id and integrity, which the caller
 * adds) or the list of evidence the request needs and the version does not hold (409).
 */
import type { EvidenceFileInfo, OewsFile, OewsRow, WorkforceData } from "./artifact.ts";
import {
  type EvidencePackDocument,
  type Figure,
  type IndustryRow,
  type LineageEntry,
  type OewsVintageFigures,
  PACK_SECTIONS,
  type PackSection,
  type QwiSectorSeries,
} from "./document.ts";
import { canonicalSha256 } from "../text/canonical.ts";
import { stateLabel } from "./fips.ts";

/** A create request after defaults (what the id is derived from). */
export type CanonicalPackRequest = EvidencePackDocument["request"];

/** Evidence a request needs that the version does not hold. */
export interface Unavailable {
  evidence: string;
  reason: string;
  section?: PackSection;
  vintage?: string;
}

/** OEWS ownership codes (field descriptions of the OEWS release). */
export const OWNERSHIP: Record<string, string> = {
  "1": "Federal Government",
  "2": "State Government",
  "3": "Local Government",
  "123": "Federal, State, and Local Government",
  "235": "Private, State, and Local Government",
  "35": "Private and Local Government",
  "5": "Private",
  "57": "Private, Local Government Gambling Establishments (Sector 71), and Local Government " +
    "Casino Hotels (Sector 72)",
  "58": "Private plus State and Local Government Hospitals",
  "59": "Private and Postal Service",
  "1235": "Federal, State, and Local Government and Private Sector",
};

/** QWI status flags (LEHD public-use schema). */
export const QWI_FLAGS: Record<string, string> = {
  "-1": "no data available to compute",
  "0": "data reported but not used",
  "1": "ok",
  "5": "value suppressed: does not meet Census Bureau publication standards",
  "9": "data significantly distorted by noise: use with caution",
  missing: "no flag in the extract",
};

/** What every pack says it does not claim. */
export const BOUNDARIES = [
  "Help and evidence only: this pack does not classify a job, select or recommend an " +
  "occupation, rank investments or infer an industry (NAICS) for anyone.",
  "SOC 2018, O*NET-SOC and NAICS are separate taxonomies; the O*NET-SOC codes listed are those " +
  "the O*NET catalog places under this SOC code, not a mapping of any job.",
  "OEWS estimates are for wage and salary workers and exclude the self-employed.",
  "OEWS vintages are shown side by side and labelled; OEWS is not a time series and no growth " +
  "rate is computed from them.",
  "Markers are kept as published: '*' wage not available, '**' employment not available, '#' " +
  "at or above the vintage's top code, '~' under 0.5% of establishments reporting. No value is " +
  "imputed for a marker.",
  "Relative standard errors are BLS's measure of sampling precision; they do not cover " +
  "non-sampling error.",
  "QWI industry dynamics are context only: another geography and period than the OEWS " +
  "figures, jobs by industry rather than by occupation.",
  "No O*NET web service or other provider was called to build this pack; it is built only " +
  "from the reviewed local snapshots listed in its lineage.",
  "No O*NET v2 enrichment is included.",
];

const WAGE_KEYS = ["p10", "p25", "median", "p75", "p90"] as const;
const HOURLY = ["h_pct10", "h_pct25", "h_median", "h_pct75", "h_pct90"] as const;
const ANNUAL = ["a_pct10", "a_pct25", "a_median", "a_pct75", "a_pct90"] as const;
const NONE: Figure = { value: null, marker: null };

/** "2025-05" -> "May 2025" label of an OEWS file. */
function oewsLabel(file: OewsFile): string {
  return file.info.vintage;
}

/** Collects the lineage entries a document references. */
export class Lineage {
  entries = new Map<string, LineageEntry>();
  add(id: string, file: EvidenceFileInfo, source: string, rowKey: string): string {
    if (!this.entries.has(id)) {
      this.entries.set(id, {
        id,
        source,
        vintage: file.vintage,
        file: file.file,
        sha256: file.sha256,
        row_key: rowKey,
        review: { reviewer: file.reviewer, reviewed_on: file.reviewed_on },
      });
    }
    return id;
  }
}

function oewsRowKey(row: OewsRow): string {
  return `line ${row.line}: OCC_CODE=${row.occ_code}, NAICS=${row.naics}, ` +
    `O_GROUP=${row.o_group}, OWN_CODE=${row.own_code}`;
}

/** The national OEWS row a SOC code is published in, with the note when it is an aggregate. */
export function publishedRow(file: OewsFile, soc: string) {
  const where = file.publication.get(soc);
  if (!where) return null;
  const row = file.rows.get(where.occ_code)?.find((r) => r.naics === "000000") ??
    file.rows.get(where.occ_code)?.[0];
  if (!row) return null;
  let note: string | null = null;
  if (where.relation === "aggregate") {
    const others = [...file.publication.entries()]
      .filter(([code, p]) => p.occ_code === where.occ_code && code !== soc)
      .map(([code]) => code).sort();
    note = `OEWS publishes ${soc} only within ${where.occ_code} ${where.occ_title}` +
      (others.length ? `, which also covers ${others.join(", ")}` : "") +
      "; the figures are those of the combined row.";
  }
  return { row, where, note };
}

const fig = (row: OewsRow, key: keyof OewsRow["figures"]): Figure => row.figures[key] ?? NONE;

/** OEWS figures of one vintage for a SOC code, or null when OEWS does not publish it there. */
export function vintageFigures(
  file: OewsFile,
  soc: string,
  lineage: Lineage,
): OewsVintageFigures | null {
  const published = publishedRow(file, soc);
  if (!published) return null;
  const { row, where, note } = published;
  const period = file.info.reference_period ?? "";
  const id = lineage.add(
    `oews-${period}-national-${row.line}`,
    file.info,
    "BLS Occupational Employment and Wage Statistics (OEWS), national cross-industry",
    oewsRowKey(row),
  );
  const pct = (keys: readonly (keyof OewsRow["figures"])[]) =>
    Object.fromEntries(WAGE_KEYS.map((k, i) => [k, fig(row, keys[i])])) as Record<
      (typeof WAGE_KEYS)[number],
      Figure
    >;
  const hasWages = ["h_mean", "a_mean", ...HOURLY, ...ANNUAL].some((k) =>
    row.figures[k as keyof OewsRow["figures"]] !== undefined
  );
  return {
    vintage: oewsLabel(file),
    reference_period: period,
    published_as: {
      occ_code: row.occ_code,
      occ_title: where.occ_title,
      o_group: row.o_group,
      note,
    },
    employment: fig(row, "tot_emp"),
    employment_rse_percent: fig(row, "emp_prse"),
    wages: hasWages
      ? {
        hourly_mean: fig(row, "h_mean"),
        annual_mean: fig(row, "a_mean"),
        mean_rse_percent: fig(row, "mean_prse"),
        hourly_percentiles: pct(HOURLY),
        annual_percentiles: pct(ANNUAL),
        annual_only: row.annual_only,
        hourly_only: row.hourly_only,
        top_code: file.info.top_code,
      }
      : null,
    lineage_id: id,
  };
}

/** Fills the request's defaults: national geography, every section, every approved vintage. */
export function canonicalRequest(
  data: WorkforceData,
  body: {
    soc_code: string;
    country_code: string;
    geography?: { level: "national" | "state"; code?: string };
    sections?: PackSection[];
    oews_vintages?: string[];
  },
): CanonicalPackRequest {
  const level = body.geography?.level ?? "national";
  const sections = body.sections?.length ? body.sections : [...PACK_SECTIONS];
  return {
    soc_code: body.soc_code,
    country_code: body.country_code.toUpperCase(),
    geography: {
      level,
      code: (body.geography?.code ?? (level === "national" ? "US" : "")).toUpperCase(),
    },
    sections: PACK_SECTIONS.filter((s) => sections.includes(s)),
    oews_vintages: body.oews_vintages?.length
      ? [...new Set(body.oews_vintages)].sort().reverse()
      : data.national.map((f) => f.info.reference_period!).filter(Boolean),
  };
}

/** Assembles the pack document for a canonical request, or says what evidence is missing. */
export function assemblePack(
  data: WorkforceData,
  request: CanonicalPackRequest,
  id: string,
): { document: EvidencePackDocument } | { unavailable: Unavailable[] } {
  const unavailable: Unavailable[] = [];
  const soc = data.catalog.get(request.soc_code)!;
  const wants = (s: PackSection) => request.sections.includes(s);
  if (request.country_code !== "US") {
    unavailable.push({
      evidence: "country",
      reason: `no reviewed evidence snapshot for country ${request.country_code}; ` +
        "the controlled beta covers US only",
    });
  }
  if (request.geography.level !== "national" || request.geography.code !== "US") {
    unavailable.push({
      evidence: "geography",
      reason: `no reviewed OEWS snapshot for ${request.geography.level} ` +
        `${request.geography.code || "(no code)"}: only national (US) estimates are reviewed`,
    });
  }
  const files: OewsFile[] = [];
  for (const period of request.oews_vintages) {
    const file = data.national.find((f) => f.info.reference_period === period);
    if (file) files.push(file);
    else {
      unavailable.push({
        evidence: "oews_national",
        vintage: period,
        reason: `no reviewed OEWS national snapshot for ${period}; reviewed: ${
          data.national.map((f) => f.info.reference_period).join(", ") || "none"
        }`,
      });
    }
  }
  const lineage = new Lineage();
  const vintages = files.map((f) => ({
    file: f,
    figures: vintageFigures(f, soc.soc_code, lineage),
  }));
  if (wants("employment") || wants("wages")) {
    for (const v of vintages) {
      if (!v.figures) {
        unavailable.push({
          evidence: "oews_national",
          vintage: v.file.info.reference_period ?? undefined,
          section: wants("employment") ? "employment" : "wages",
          reason: `OEWS ${v.file.info.vintage} publishes no national estimate for ` +
            `${soc.soc_code}, alone or in an aggregate`,
        });
        continue;
      }
      const f = v.figures;
      if (wants("employment") && f.employment.value === null) {
        unavailable.push({
          evidence: "oews_national",
          vintage: f.reference_period,
          section: "employment",
          reason: `the ${f.vintage} employment estimate is suppressed ('${f.employment.marker}')`,
        });
      }
      const median = f.wages?.annual_percentiles.median ?? NONE;
      const hourlyMedian = f.wages?.hourly_percentiles.median ?? NONE;
      const wageMissing = (x: Figure) => x.value === null && x.marker !== "#";
      if (wants("wages") && wageMissing(median) && wageMissing(hourlyMedian)) {
        unavailable.push({
          evidence: "oews_national",
          vintage: f.reference_period,
          section: "wages",
          reason: `the ${f.vintage} median wage is not available ('${
            median.marker ?? hourlyMedian.marker ?? "blank"
          }')`,
        });
      }
    }
  }
  const sectorFile = data.sector[0];
  if ((wants("industries") || wants("industry_dynamics")) && !sectorFile) {
    unavailable.push({
      evidence: "oews_sector",
      section: "industries",
      reason: "no reviewed OEWS industry-sector snapshot",
    });
  }
  if (wants("industry_dynamics") && data.qwi.size === 0) {
    unavailable.push({
      evidence: "qwi",
      section: "industry_dynamics",
      reason: "no reviewed QWI sector snapshot",
    });
  }
  let industryRows: IndustryRow[] = [];
  let sectorVintage = "";
  if (sectorFile && (wants("industries") || wants("industry_dynamics"))) {
    sectorVintage = sectorFile.info.vintage;
    const where = sectorFile.publication.get(soc.soc_code);
    const rows = where ? sectorFile.rows.get(where.occ_code) ?? [] : [];
    if (rows.length === 0) {
      unavailable.push({
        evidence: "oews_sector",
        vintage: sectorFile.info.reference_period ?? undefined,
        section: "industries",
        reason: `OEWS ${sectorFile.info.vintage} publishes no industry-sector estimate for ` +
          soc.soc_code,
      });
    }
    industryRows = rows.map((row) => ({
      naics: row.naics,
      naics_title: row.naics_title,
      ownership: { code: row.own_code, meaning: OWNERSHIP[row.own_code] ?? "see OEWS own_code" },
      employment: fig(row, "tot_emp"),
      employment_rse_percent: fig(row, "emp_prse"),
      pct_of_industry_employment: fig(row, "pct_total"),
      pct_establishments_reporting: fig(row, "pct_rpt"),
      annual_median: fig(row, "a_median"),
      lineage_id: lineage.add(
        `oews-${sectorFile.info.reference_period}-sector-${row.line}`,
        sectorFile.info,
        "BLS Occupational Employment and Wage Statistics (OEWS), national industry-sector",
        oewsRowKey(row),
      ),
    })).sort((a, b) =>
      (b.employment.value ?? -1) - (a.employment.value ?? -1) || a.naics.localeCompare(b.naics)
    );
  }
  if (unavailable.length) return { unavailable };

  const group = (code: string | null) => {
    const e = code ? data.catalog.get(code) : undefined;
    return { code: code ?? "", title: e?.title ?? "" };
  };
  const socFile = data.files.get(soc.source_sha256)!;
  const occupationLineage = lineage.add(
    `soc-${soc.line}`,
    socFile,
    "BLS Standard Occupational Classification (SOC) 2018 structure and definitions",
    `line ${soc.line}: SOC Code=${soc.soc_code}`,
  );
  const taxonomy = data.details.taxonomy;
  const document: EvidencePackDocument = {
    schema: "workforce-evidence-pack/v1",
    evidence_pack_id: id,
    request,
    evidence: {
      artifact: "evidence",
      version: data.version,
      content_hash: data.contentHash,
      taxonomy: {
        release: taxonomy.release,
        version: taxonomy.version,
        content_hash: taxonomy.content_hash,
      },
    },
    occupation: {
      soc_code: soc.soc_code,
      soc_version: "SOC 2018",
      title: soc.title,
      definition: soc.definition ?? "",
      groups: {
        major: group(soc.major_code),
        minor: group(soc.minor_code),
        broad: group(soc.broad_code),
      },
      onet_occupations: data.onet.get(soc.soc_code) ?? [],
      lineage_id: occupationLineage,
    },
    lineage: [],
    boundaries: BOUNDARIES,
    attributions: [data.attribution],
    integrity: { canonicalization: "RFC 8785 (JCS)", sha256: "" },
  };
  if (wants("employment") || wants("wages")) {
    document.employment_and_wages = {
      geography: { level: "national", code: "US", name: "United States" },
      vintages: vintages.map((v) => {
        const f = v.figures!;
        return wants("wages") ? f : { ...f, wages: null };
      }).map((f) =>
        wants("employment") ? f : {
          ...f,
          employment: NONE,
          employment_rse_percent: NONE,
        }
      ),
      note: "Vintages side by side, newest first. OEWS is not a time series: survey methods and " +
        "occupational coverage change between vintages, so no change between them is computed.",
    };
  }
  if (wants("industries")) {
    document.industries = {
      vintage: sectorVintage,
      rows: industryRows,
      note: "National employment of this occupation in each NAICS sector, largest first; " +
        "suppressed estimates ('**') last. Sectors are OEWS's, each with its own ownership scope.",
    };
  }
  if (wants("industry_dynamics")) {
    const sectors: QwiSectorSeries[] = [];
    const states = new Set<string>();
    let period = "";
    for (const row of industryRows) {
      const quarters = data.qwi.get(row.naics);
      if (!quarters?.length) continue;
      sectors.push({
        naics: row.naics,
        naics_title: quarters[0].industry_title,
        quarters: quarters.map((q) => {
          states.add(q.state);
          const file = data.files.get(q.sha256)!;
          period = file.vintage;
          return {
            year: q.year,
            quarter: q.quarter,
            employment_ok_counties: q.employment_ok_counties ?? 0,
            county_cells_by_flag: q.cells_by_flag,
            lineage_id: lineage.add(
              `qwi-${q.state}-${q.industry}-${q.year}q${q.quarter}`,
              file,
              "U.S. Census Bureau LEHD Quarterly Workforce Indicators (QWI)",
              `lines ${q.first_line}-${q.last_line}: state=${q.state}, industry=${q.industry}, ` +
                `year=${q.year}, quarter=${q.quarter}, all ages, sexes and ownerships, not ` +
                `seasonally adjusted (${q.county_cells} county rows)`,
            ),
          };
        }),
      });
    }
    document.industry_dynamics = {
      context_only: true,
      source:
        "U.S. Census Bureau LEHD Quarterly Workforce Indicators (QWI), beginning-of-quarter " +
        "employment (Emp)",
      geography: [...states].sort().map(stateLabel).join(", "),
      period,
      measure: "Sum of the county values published with status flag 1 (ok); county cells with " +
        "other flags are counted, not summed",
      flags: QWI_FLAGS,
      sectors,
      note: "Context only: QWI counts jobs in the sector (every occupation), in the reviewed " +
        "snapshot's state and period, which differ from the OEWS figures above.",
    };
  }
  if (wants("skills")) {
    document.skills = {
      source: `O*NET ${taxonomy.release} Skills (importance, 1-5), primary O*NET-SOC occupation`,
      bound: data.details.bounds.skills,
      items: data.skills.get(soc.soc_code) ?? [],
    };
  }
  if (wants("tasks")) {
    document.tasks = {
      source: `O*NET ${taxonomy.release} Task Statements, core tasks first`,
      bound: data.details.bounds.tasks,
      items: data.tasks.get(soc.soc_code) ?? [],
    };
  }
  document.lineage = [...lineage.entries.values()].sort((a, b) => a.id.localeCompare(b.id));
  const { integrity: _omit, ...body } = document;
  document.integrity = { canonicalization: "RFC 8785 (JCS)", sha256: canonicalSha256(body) };
  return { document };
}
