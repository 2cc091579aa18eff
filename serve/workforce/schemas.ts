/** Request and response schemas of the workforce routes (spec 4.2, records 2.9). */
import { z } from "@hono/zod-openapi";
import { PACK_SECTIONS } from "./document.ts";

export const CountryCode = z.string().length(2).regex(/^[A-Za-z]{2}$/).openapi({
  description: "ISO 3166-1 alpha-2 country code, exactly 2 letters (case-insensitive). The " +
    "controlled beta covers US only; another well-formed code is answered with supported: false.",
  example: "US",
});

export const SocCode = z.string().regex(/^\d{2}-\d{4}$/).openapi({
  description: "A detailed SOC 2018 code, NN-NNNN.",
  example: "15-1252",
});

/** Query of GET /workforce/capabilities. */
export const CapabilitiesQuery = z.object({ country_code: CountryCode });

/** Query of GET /workforce/occupations. */
export const OccupationsQuery = z.object({
  country_code: CountryCode,
  query: z.string().max(200).nullish().openapi({
    description: 'Up to 200 characters. Matches SOC codes by prefix ("15-12") and, word by ' +
      "word, SOC titles and the O*NET titles under them. Help to find a code, not a " +
      "classification: results come in bands (code, SOC title, O*NET title), each in SOC code " +
      "order, with no score. Empty or absent lists the whole catalog in code order.",
  }),
  limit: z.coerce.number().int().min(1).max(100).default(20).openapi({
    type: "integer",
    minimum: 1,
    maximum: 100,
    default: 20,
  }),
  cursor: z.string().max(500).nullish().openapi({
    description: "The next_cursor of the previous page, as given. Opaque and signed; a forged " +
      "or altered one, one of another query, or one issued before the evidence version " +
      "changed is 422.",
  }),
});

/** Path and query of GET /workforce/occupations/{soc_code}. */
export const OccupationParams = z.object({ soc_code: SocCode });
export const OccupationQuery = z.object({ country_code: CountryCode });

const Group = z.object({ code: z.string(), title: z.string() });
const Figure = z.object({
  value: z.number().nullable(),
  marker: z.enum(["*", "**", "#", "~"]).nullable().openapi({
    description: "OEWS marker printed in place of the value: `*` wage not available, `**` " +
      "employment not available, `#` at or above the vintage's top code, `~` under 0.5% of " +
      "establishments reporting. Never turned into a number.",
  }),
}).openapi("Figure");
const OnetOccupation = z.object({ onet_code: z.string(), title: z.string() });

const SourceRef = z.object({
  source: z.string(),
  vintage: z.string(),
  file: z.string(),
  sha256: z.string(),
  row_key: z.string(),
});

export const CapabilitiesResponse = z.object({
  country_code: z.string(),
  supported: z.boolean(),
  supported_countries: z.array(z.string()),
  status: z.literal("controlled_beta"),
  message: z.string(),
  geography_levels: z.array(z.object({
    level: z.enum(["national", "state"]),
    available: z.boolean(),
    codes: z.array(z.string()),
    note: z.string(),
  })),
  occupation_taxonomy: z.object({
    catalog: z.literal("SOC 2018"),
    detailed_occupations: z.number().int(),
    onet_soc: z.object({
      release: z.string(),
      taxonomy_version: z.string(),
      linked_occupations: z.number().int(),
    }),
  }),
  evidence: z.object({
    version: z.string(),
    content_hash: z.string(),
    sources: z.array(z.object({
      kind: z.string(),
      source: z.string(),
      vintage: z.string(),
      file: z.string(),
      sha256: z.string(),
      reviewer: z.string(),
      reviewed_on: z.string(),
    })),
    oews_vintages: z.array(z.string()),
  }),
  evidence_packs: z.object({
    entitlement: z.literal("workforce_evidence_packs"),
    available_to_this_key: z.boolean(),
    sections: z.array(z.enum(PACK_SECTIONS)),
  }),
  not_offered: z.array(z.object({ capability: z.string(), reason: z.string() })),
}).openapi("WorkforceCapabilities");

export const OccupationListItem = z.object({
  soc_code: z.string(),
  title: z.string(),
  major_group: Group,
  onet_codes: z.array(z.string()),
  matched_on: z.enum(["soc_code", "soc_title", "onet_title", "all"]),
});

export const OccupationListResponse = z.object({
  country_code: z.string(),
  supported: z.boolean(),
  query: z.string().nullable(),
  items: z.array(OccupationListItem),
  total: z.number().int(),
  limit: z.number().int(),
  next_cursor: z.string().nullable(),
  evidence_version: z.string(),
  note: z.string(),
}).openapi("WorkforceOccupationList");

export const OccupationDetailResponse = z.object({
  soc_code: z.string(),
  soc_version: z.literal("SOC 2018"),
  title: z.string(),
  definition: z.string(),
  groups: z.object({ major: Group, minor: Group, broad: Group }),
  onet_occupations: z.array(OnetOccupation),
  skills: z.object({
    bound: z.number().int(),
    source: z.string(),
    items: z.array(z.object({
      element_id: z.string(),
      name: z.string(),
      importance: z.number(),
      level: z.number().nullable(),
      onet_code: z.string(),
    })),
  }),
  tasks: z.object({
    bound: z.number().int(),
    source: z.string(),
    items: z.array(z.object({
      task_id: z.number().int(),
      task: z.string(),
      task_type: z.string().nullable(),
      onet_code: z.string(),
    })),
  }),
  oews: z.object({
    vintage: z.string(),
    geography: z.literal("national"),
    published_as: z.object({
      occ_code: z.string(),
      occ_title: z.string(),
      o_group: z.string(),
      note: z.string().nullable(),
    }),
    employment: Figure,
    employment_rse_percent: Figure,
    annual_median: Figure,
    hourly_median: Figure,
    annual_mean: Figure,
    mean_rse_percent: Figure,
    lineage: SourceRef,
  }).nullable().openapi({
    description: "Headline OEWS national figures of the newest reviewed vintage; null when OEWS " +
      "publishes none for this code (see oews_note).",
  }),
  oews_note: z.string().nullable(),
  other_oews_vintages: z.array(z.string()),
  evidence_version: z.string(),
  attribution: z.string(),
}).openapi("WorkforceOccupationDetail");

/** Body of POST /workforce/evidence-packs. */
export const PackCreateRequest = z.object({
  soc_code: SocCode,
  country_code: CountryCode,
  geography: z.object({
    level: z.enum(["national", "state"]),
    code: z.string().min(2).max(2).optional().openapi({
      description: "US for national (the default); a state's USPS code for state.",
    }),
  }).strict().optional().openapi({
    description: "Default {level: national, code: US}. State geography needs a reviewed " +
      "state snapshot: without one the answer is 409.",
  }),
  sections: z.array(z.enum(PACK_SECTIONS)).min(1).max(20).optional()
    .openapi({
      description: "Sections to include (default: all). Order and repeats do not matter.",
    }),
  oews_vintages: z.array(z.string().regex(/^\d{4}-05$/)).min(1).max(10).optional().openapi({
    description: "OEWS reference periods (YYYY-05) to show side by side (default: every " +
      "reviewed vintage). One without a reviewed snapshot is 409.",
  }),
}).strict().openapi("EvidencePackCreateRequest");

export const PackResource = z.object({
  evidence_pack_id: z.string(),
  soc_code: z.string(),
  request: z.object({
    soc_code: z.string(),
    country_code: z.string(),
    geography: z.object({ level: z.enum(["national", "state"]), code: z.string() }),
    sections: z.array(z.enum(PACK_SECTIONS)),
    oews_vintages: z.array(z.string()),
  }),
  evidence_version: z.string(),
  document_sha256: z.string(),
  created_at: z.string(),
  links: z.object({ document: z.string(), report: z.string() }),
}).openapi("EvidencePackResource");

export const PackParams = z.object({
  evidence_pack_id: z.string().regex(/^ep_[0-9a-f]{32}$/).openapi({
    description: "ep_ and 32 hex digits, as returned by create.",
    example: "ep_0123456789abcdef0123456789abcdef",
  }),
});

export const ReportQuery = z.object({
  format: z.string().regex(/^html$/).default("html"),
});

/** The pack document: validated loosely here; its full shape is documented in the README. */
export const PackDocument = z.object({
  schema: z.literal("workforce-evidence-pack/v1"),
  evidence_pack_id: z.string(),
  integrity: z.object({ canonicalization: z.string(), sha256: z.string() }),
}).passthrough().openapi("EvidencePackDocument", {
  description: "The machine-readable pack: occupation, employment and wages per OEWS vintage " +
    "(figures with markers and RSE), industry distribution, QWI industry dynamics (context " +
    "only), O*NET skills and tasks, lineage (source, vintage, file sha256, row key) for every " +
    "figure, boundaries (what it does not claim), attributions, and the sha256 of its RFC 8785 " +
    "canonical JSON without the integrity member.",
});
