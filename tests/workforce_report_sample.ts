/**
 * A realistic evidence pack document for report tests: SOC 29-1211 Anesthesiologists with three
 * OEWS vintages, every OEWS marker kind, a broad-aggregate vintage, several industry sectors
 * (one suppressed), QWI context with status flags 1, 5 and 9, skills, tasks and lineage.
 */
import { createHash } from "node:crypto";
import type { EvidencePackDocument, Figure, OewsMarker } from "../serve/workforce/document.ts";

/** A published number. */
const v = (value: number): Figure => ({ value, marker: null });
/** A marker standing in for a number. */
const m = (marker: OewsMarker): Figure => ({ value: null, marker });
/** A stable fake sha256 of a file name. */
const sha = (name: string) => createHash("sha256").update(name).digest("hex");

const review = { reviewer: "m.okafor", reviewed_on: "2026-04-14" };

/** Builds a fresh sample document (callers may change it). */
export function sampleDocument(): EvidencePackDocument {
  return {
    schema: "workforce-evidence-pack/v1",
    evidence_pack_id: "wep_5f0c2d9e8b7a41c3a2e6d4b1",
    request: {
      soc_code: "29-1211",
      country_code: "US",
      geography: { level: "national", code: "US" },
      sections: ["employment", "wages", "industries", "industry_dynamics", "skills", "tasks"],
      oews_vintages: ["May 2025", "May 2024", "May 2023"],
    },
    evidence: {
      artifact: "evidence",
      version: "2025.05-3f9a1c02",
      content_hash: sha("evidence content"),
      taxonomy: { release: "O*NET 30.3", version: "30.3-8d1e44b0", content_hash: sha("taxonomy") },
    },
    occupation: {
      soc_code: "29-1211",
      soc_version: "SOC 2018",
      title: "Anesthesiologists",
      definition:
        "Physicians who administer anesthetics and analgesics for pain management prior to, " +
        "during, or after surgery.",
      groups: {
        major: { code: "29-0000", title: "Healthcare Practitioners and Technical Occupations" },
        minor: { code: "29-1000", title: "Healthcare Diagnosing or Treating Practitioners" },
        broad: { code: "29-1210", title: "Physicians" },
      },
      onet_occupations: [{ onet_code: "29-1211.00", title: "Anesthesiologists" }],
      lineage_id: "soc-2018-definitions-29-1211",
    },
    employment_and_wages: {
      geography: { level: "national", code: "US", name: "United States" },
      vintages: [
        {
          vintage: "May 2025",
          reference_period: "2025-05",
          published_as: {
            occ_code: "29-1211",
            occ_title: "Anesthesiologists",
            o_group: "detailed",
            note: null,
          },
          employment: v(41890),
          employment_rse_percent: v(7.9),
          wages: {
            hourly_mean: v(161.85),
            annual_mean: v(336640),
            mean_rse_percent: v(22.1),
            hourly_percentiles: {
              p10: m("*"),
              p25: v(89.75),
              median: m("#"),
              p75: m("#"),
              p90: m("#"),
            },
            annual_percentiles: {
              p10: m("*"),
              p25: v(186680),
              median: m("#"),
              p75: m("#"),
              p90: m("#"),
            },
            annual_only: false,
            hourly_only: false,
            top_code: { hourly: 115, annual: 239200 },
          },
          lineage_id: "oews-2025-national-555",
        },
        {
          vintage: "May 2024",
          reference_period: "2024-05",
          published_as: {
            occ_code: "29-1210",
            occ_title: "Physicians",
            o_group: "broad",
            note: "OEWS May 2024 publishes 29-1211 only within the broad group 29-1210 " +
              "Physicians; these figures are for the broad group.",
          },
          employment: v(754760),
          employment_rse_percent: v(1),
          wages: {
            hourly_mean: v(133.3),
            annual_mean: v(277260),
            mean_rse_percent: v(0.9),
            hourly_percentiles: {
              p10: v(36.43),
              p25: v(66.3),
              median: m("#"),
              p75: m("#"),
              p90: m("#"),
            },
            annual_percentiles: {
              p10: v(75760),
              p25: v(137900),
              median: m("#"),
              p75: m("#"),
              p90: m("#"),
            },
            annual_only: false,
            hourly_only: false,
            top_code: { hourly: 115, annual: 239200 },
          },
          lineage_id: "oews-2024-national-549",
        },
        {
          vintage: "May 2023",
          reference_period: "2023-05",
          published_as: {
            occ_code: "29-1211",
            occ_title: "Anesthesiologists",
            o_group: "detailed",
            note: null,
          },
          employment: v(33470),
          employment_rse_percent: v(5.4),
          wages: {
            hourly_mean: v(163.21),
            annual_mean: v(339470),
            mean_rse_percent: v(2.7),
            hourly_percentiles: {
              p10: v(40.84),
              p25: v(92.3),
              median: m("#"),
              p75: m("#"),
              p90: m("#"),
            },
            annual_percentiles: {
              p10: v(84940),
              p25: v(191980),
              median: m("#"),
              p75: m("#"),
              p90: m("#"),
            },
            annual_only: false,
            hourly_only: false,
            top_code: { hourly: 115, annual: 239200 },
          },
          lineage_id: "oews-2023-national-552",
        },
      ],
      note: "BLS: OEWS estimates are not designed for comparisons over time; each vintage " +
        "pools six semiannual panels collected over three years.",
    },
    industries: {
      vintage: "May 2024",
      rows: [
        industry("62", "Health Care and Social Assistance", "58", 40890, 8.2, 0.18, v(1), m("#")),
        industry(
          "99",
          "Federal, State, and Local Government, excluding State and Local Government Schools " +
            "and Hospitals and the U.S. Postal Service (OEWS Designation)",
          "123",
          1150,
          6.4,
          0.01,
          m("~"),
          v(231450),
        ),
        industry("61", "Educational Services", "235", 680, 0.3, 0, m("~"), v(217170)),
        industry(
          "56",
          "Administrative and Support and Waste Management and Remediation Services",
          "5",
          210,
          14.2,
          0,
          m("~"),
          m("*"),
        ),
        {
          naics: "52",
          naics_title: "Finance and Insurance",
          ownership: { code: "5", meaning: "Private" },
          employment: m("**"),
          employment_rse_percent: m("**"),
          pct_of_industry_employment: m("**"),
          pct_establishments_reporting: m("~"),
          annual_median: m("*"),
          lineage_id: "oews-2024-natsector-52",
        },
      ],
      note: "Sector estimates come from the OEWS national industry-sector file; they do not sum " +
        "to the cross-industry total.",
    },
    industry_dynamics: {
      context_only: true,
      source: "Census Bureau Quarterly Workforce Indicators (QWI), county by NAICS sector",
      geography: "North Carolina counties (state FIPS 37)",
      period: "2010 Q1 to 2010 Q4",
      measure: "Emp: beginning-of-quarter employment, all ages and sexes, not seasonally adjusted",
      flags: {
        "1": "OK",
        "5": "Value suppressed: does not meet Census Bureau publication standards",
        "9": "Data significantly distorted by noise infusion",
      },
      sectors: [
        qwiSector("62", "Health Care and Social Assistance", [
          [548120, 97, 2, 1],
          [551930, 96, 3, 1],
          [553410, 97, 2, 1],
          [556870, 98, 1, 1],
        ]),
        qwiSector("61", "Educational Services", [
          [48210, 71, 22, 7],
          [49060, 70, 24, 6],
          [44980, 72, 21, 7],
          [50330, 73, 20, 7],
        ]),
      ],
      note: "QWI describes jobs in the sector, not in the occupation, and is never combined " +
        "with OEWS figures.",
    },
    skills: {
      source: "O*NET 30.3 Skills (importance scale IM, level scale LV)",
      bound: 10,
      items: [
        ["2.A.2.b", "Active Learning", 4.12, 4.38],
        ["2.A.1.a", "Reading Comprehension", 4.0, 4.5],
        ["2.B.4.e", "Judgment and Decision Making", 4.0, 4.62],
        ["2.A.2.a", "Critical Thinking", 3.88, 4.5],
        ["2.B.1.a", "Social Perceptiveness", 3.75, null],
        ["2.A.1.d", "Speaking", 3.62, 4.0],
      ].map(([element_id, name, importance, level]) => ({
        element_id: element_id as string,
        name: name as string,
        importance: importance as number,
        level: level as number | null,
        onet_code: "29-1211.00",
      })),
    },
    tasks: {
      source: "O*NET 30.3 Task Statements",
      bound: 10,
      items: [
        [
          20447,
          "Monitor patient before, during, and after anesthesia and counteract adverse " +
          "reactions or complications.",
          "Core",
        ],
        [
          20452,
          "Provide and maintain life support and airway management and help prepare " +
          "patients for emergency surgery.",
          "Core",
        ],
        [
          20448,
          "Record type and amount of anesthesia and patient condition throughout " +
          "procedure.",
          "Core",
        ],
        [
          20458,
          "Coordinate and direct work of nurses, medical technicians, and other health " +
          "care providers.",
          null,
        ],
      ].map(([task_id, task, task_type]) => ({
        task_id: task_id as number,
        task: task as string,
        task_type: task_type as string | null,
        onet_code: "29-1211.00",
      })),
    },
    lineage: [
      lineage(
        "soc-2018-definitions-29-1211",
        "BLS Standard Occupational Classification (SOC) 2018, definitions",
        "SOC 2018",
        "soc_2018_definitions.csv",
        "line 741: SOC Code=29-1211",
      ),
      ...[["2025", "555"], ["2024", "549"], ["2023", "552"]].map(([year, line]) =>
        lineage(
          `oews-${year}-national-${line}`,
          "BLS Occupational Employment and Wage Statistics (OEWS), national",
          `May ${year}`,
          `national_M${year}_dl.csv`,
          `line ${line}: OCC_CODE=${year === "2024" ? "29-1210" : "29-1211"}, NAICS=000000`,
        )
      ),
      ...["62", "99", "61", "56", "52"].map((naics) =>
        lineage(
          `oews-2024-natsector-${naics}`,
          "BLS OEWS national industry-sector estimates",
          "May 2024",
          "natsector_M2024_dl.csv",
          `OCC_CODE=29-1211, NAICS=${naics}, I_GROUP=sector`,
        )
      ),
      ...["62", "61"].map((naics) =>
        lineage(
          `qwi-nc-2010-${naics}`,
          "Census Bureau QWI, North Carolina county extract",
          "2010",
          "nc_qwi_2010_county_sector_emp.csv",
          `state=37, industry=${naics}, year=2010, quarters 1-4, all counties`,
        )
      ),
    ],
    boundaries: [
      "It does not classify any job or posting into this occupation.",
      "It does not compare OEWS vintages over time or compute growth rates.",
      "It does not infer NAICS industries for employers, nor attribute QWI sector dynamics " +
      "to the occupation.",
      "It does not estimate figures that OEWS suppressed or top-coded.",
    ],
    attributions: [
      "U.S. Bureau of Labor Statistics, Occupational Employment and Wage Statistics.",
      "U.S. Census Bureau, Quarterly Workforce Indicators.",
      "O*NET 30.3 Database by the U.S. Department of Labor, Employment and Training " +
      "Administration (USDOL/ETA), used under the CC BY 4.0 license.",
    ],
    integrity: { canonicalization: "RFC 8785 (JCS)", sha256: sha("canonical pack") },
  };
}

function industry(
  naics: string,
  title: string,
  ownership: string,
  employment: number,
  rse: number,
  pctIndustry: number,
  pctReporting: Figure,
  median: Figure,
) {
  const meanings: Record<string, string> = {
    "5": "Private",
    "58": "Private, local government",
    "123": "Federal, state and local government",
    "235": "Private, state and local government",
  };
  return {
    naics,
    naics_title: title,
    ownership: { code: ownership, meaning: meanings[ownership] },
    employment: v(employment),
    employment_rse_percent: v(rse),
    pct_of_industry_employment: v(pctIndustry),
    pct_establishments_reporting: pctReporting,
    annual_median: median,
    lineage_id: `oews-2024-natsector-${naics}`,
  };
}

function qwiSector(naics: string, title: string, quarters: number[][]) {
  return {
    naics,
    naics_title: title,
    quarters: quarters.map(([emp, ok, suppressed, distorted], i) => ({
      year: 2010,
      quarter: i + 1,
      employment_ok_counties: emp,
      county_cells_by_flag: { "1": ok, "5": suppressed, "9": distorted },
      lineage_id: `qwi-nc-2010-${naics}`,
    })),
  };
}

function lineage(id: string, source: string, vintage: string, file: string, rowKey: string) {
  return { id, source, vintage, file, sha256: sha(file), row_key: rowKey, review };
}
