/**
 * Workforce intelligence routes (spec 4.2, records 2.9): the U.S. SOC help catalog and
 * account-scoped, deterministic evidence packs with a standalone HTML report. Catalog answers
 * come from the evidence artifact in memory; packs are stored in Postgres. Help only: nothing
 * here classifies a job, selects an occupation, ranks investments or infers NAICS.
 */
import { createHash } from "node:crypto";
import { createRoute } from "@hono/zod-openapi";
import type { Context, MiddlewareHandler } from "hono";
import type { Kysely } from "kysely";
import { type AppEnv, createRouter, jsonBody, jsonResponse } from "../http/router.ts";
import { ApiError, problemResponses } from "../http/errors.ts";
import { IDEMPOTENCY_DOC } from "../http/idempotency.ts";
import type { ArtifactRegistry } from "../stores/artifacts.ts";
import type { DB } from "../stores/schema.ts";
import { EVIDENCE } from "../../build/evidence/pipeline.ts";
import type { WorkforceData } from "./artifact.ts";
import { PACK_SECTIONS } from "./document.ts";
import type { EvidencePackDocument } from "./document.ts";
import { canonicalize } from "../text/canonical.ts";
import { CursorCodec, CursorError } from "./cursor.ts";
import { assemblePack, canonicalRequest, Lineage, publishedRow, vintageFigures } from "./pack.ts";
import { renderReport } from "./report.ts";
import { foldText, searchCatalog } from "./search.ts";
import { PackStore, type StoredPack } from "./store.ts";
import {
  CapabilitiesQuery,
  CapabilitiesResponse,
  OccupationDetailResponse,
  OccupationListResponse,
  OccupationParams,
  OccupationQuery,
  OccupationsQuery,
  PackCreateRequest,
  PackDocument,
  PackParams,
  PackResource,
  ReportQuery,
} from "./schemas.ts";

/** The entitlement that opens evidence pack creation. */
export const PACK_ENTITLEMENT = "workforce_evidence_packs";
const SUPPORTED = ["US"];
const HELP_NOTE = "Help to find a SOC 2018 code: not a classification of any job. Order: " +
  "matches on the code first, then on the SOC title, then on an O*NET title under it, each " +
  "in SOC code order.";

/** Runs fn on the evidence version this request leases; 503 when none is loaded. */
async function withEvidence<R>(
  artifacts: ArtifactRegistry,
  fn: (data: WorkforceData) => R | Promise<R>,
): Promise<R> {
  const lease = artifacts.acquire<WorkforceData>(EVIDENCE);
  if (!lease) {
    throw new ApiError(
      "not_ready",
      "no evidence artifact is loaded: build one with `deno task build --soc <file> --oews " +
        "<files> --qwi <files>`",
      { missing: [EVIDENCE] },
    );
  }
  try {
    return await fn(lease.artifact.data);
  } finally {
    lease.release();
  }
}

const invalid = (loc: (string | number)[], type: string, msg: string) =>
  new ApiError("validation_failed", msg, { errors: [{ loc, msg, type }] });

/** Serialised catalog answers per version (bounded), like the market routes. */
const answers = new WeakMap<WorkforceData, Map<string, Uint8Array<ArrayBuffer>>>();
/**
 * The same answers by request target (path and query string exactly as sent), per version:
 * a target that once validated and answered 200 answers the same bytes while the version
 * lasts, so a repeat skips query validation and the handler (see `fromTargetCache`).
 */
const byTarget = new WeakMap<WorkforceData, Map<string, Uint8Array<ArrayBuffer>>>();
const encoder = new TextEncoder();
const MAX_CACHED = 2_000;
const JSON_TYPE = { "content-type": "application/json" };

/**
 * The request target (the path and the raw query string, without scheme and host), and
 * whether the key may create packs: the one thing besides the target a catalog answer
 * (the capabilities) depends on.
 */
function requestTarget(c: Context<AppEnv>): string {
  const url = c.req.url;
  const target = url.slice(url.indexOf("/", url.indexOf("//") + 2));
  return c.get("runtime").entitlements.includes(PACK_ENTITLEMENT) ? `${target}\u0000e` : target;
}

/** Stores bytes under key in the version's map, emptying a full map first. */
function remember(
  maps: WeakMap<WorkforceData, Map<string, Uint8Array<ArrayBuffer>>>,
  data: WorkforceData,
  key: string,
  bytes: Uint8Array<ArrayBuffer>,
): void {
  let cache = maps.get(data);
  if (!cache) maps.set(data, cache = new Map());
  if (cache.size >= MAX_CACHED) cache.clear();
  cache.set(key, bytes);
}

/**
 * Answers from the version's cache of serialised bodies, building the body on a miss, and
 * files the answer under the request target for `fromTargetCache`.
 */
async function cached(
  c: Context<AppEnv>,
  data: WorkforceData,
  key: string,
  build: () => unknown,
) {
  // Kept encoded: a 100-row page is about 20 KB, encoded again on every request otherwise.
  let bytes = answers.get(data)?.get(key);
  if (bytes === undefined) {
    bytes = encoder.encode(JSON.stringify(await build()));
    remember(answers, data, key, bytes);
  }
  remember(byTarget, data, requestTarget(c), bytes);
  return c.body(bytes, 200, JSON_TYPE);
}

/**
 * Route middleware (after authentication, limits and metering): a request target answered
 * before on the current evidence version gets those bytes again at once, without validating
 * the query again or running the handler. The catalog routes (capabilities, list, detail) use
 * it: their answers depend on the target, the version and the pack entitlement only.
 */
function fromTargetCache(artifacts: ArtifactRegistry): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const lease = artifacts.acquire<WorkforceData>(EVIDENCE);
    if (lease) {
      const bytes = byTarget.get(lease.artifact.data)?.get(requestTarget(c));
      lease.release();
      if (bytes !== undefined) return c.body(bytes, 200, JSON_TYPE);
    }
    await next();
  };
}

function capabilities(data: WorkforceData, country: string, entitled: boolean) {
  const supported = SUPPORTED.includes(country);
  const linked = new Set([...data.onet.values()].flat().map((o) => o.onet_code)).size;
  return {
    country_code: country,
    supported,
    supported_countries: SUPPORTED,
    status: "controlled_beta" as const,
    message: supported
      ? "Controlled beta: the U.S. SOC help catalog and, with the workforce_evidence_packs " +
        "entitlement, evidence packs from reviewed national OEWS snapshots."
      : `Country ${country} is not covered: the controlled beta supports US only.`,
    geography_levels: [
      {
        level: "national" as const,
        available: supported && data.national.length > 0,
        codes: supported && data.national.length > 0 ? ["US"] : [],
        note: "OEWS national estimates, vintages " +
          (data.national.map((f) => f.info.vintage).join(", ") || "none reviewed"),
      },
      {
        level: "state" as const,
        available: false,
        codes: [],
        note: "No reviewed OEWS state snapshot: state geography is not offered.",
      },
    ],
    occupation_taxonomy: {
      catalog: "SOC 2018" as const,
      detailed_occupations: data.detailed.length,
      onet_soc: {
        release: data.details.taxonomy.release,
        taxonomy_version: data.details.taxonomy.version,
        linked_occupations: linked,
      },
    },
    evidence: {
      version: data.version,
      content_hash: data.contentHash,
      sources: [...data.files.values()].sort((a, b) =>
        a.kind.localeCompare(b.kind) || a.file.localeCompare(b.file)
      ).map((f) => ({
        kind: f.kind,
        source: f.source,
        vintage: f.vintage,
        file: f.file,
        sha256: f.sha256,
        reviewer: f.reviewer,
        reviewed_on: f.reviewed_on,
      })),
      oews_vintages: data.national.map((f) => f.info.reference_period ?? f.info.vintage),
    },
    evidence_packs: {
      entitlement: PACK_ENTITLEMENT,
      available_to_this_key: entitled && supported,
      sections: [...PACK_SECTIONS],
    },
    not_offered: [
      {
        capability: "evidence_pack_creation_without_entitlement",
        reason: "Pack creation is a controlled-beta feature: the key needs the " +
          "workforce_evidence_packs entitlement.",
      },
      {
        capability: "onet_v2_enrichment",
        reason: "No approved O*NET v2 enrichment snapshot; packs use the local O*NET catalog only.",
      },
      {
        capability: "naics_inference",
        reason: "The service never infers an industry; industry figures are OEWS's own sectors.",
      },
      {
        capability: "job_classification",
        reason: "Workforce search is help only; use /api/v1/job/classify to code a job.",
      },
      {
        capability: "state_geography",
        reason: "No reviewed state snapshot.",
      },
    ],
  };
}

function detail(data: WorkforceData, soc: string) {
  const entry = data.catalog.get(soc)!;
  const group = (code: string | null) => ({
    code: code ?? "",
    title: code ? data.catalog.get(code)?.title ?? "" : "",
  });
  const newest = data.national[0];
  const lineage = new Lineage();
  const figures = newest ? vintageFigures(newest, soc, lineage) : null;
  const published = newest ? publishedRow(newest, soc) : null;
  const entryLineage = [...lineage.entries.values()][0];
  const none = { value: null, marker: null };
  return {
    soc_code: soc,
    soc_version: "SOC 2018" as const,
    title: entry.title,
    definition: entry.definition ?? "",
    groups: {
      major: group(entry.major_code),
      minor: group(entry.minor_code),
      broad: group(entry.broad_code),
    },
    onet_occupations: data.onet.get(soc) ?? [],
    skills: {
      bound: data.details.bounds.skills,
      source: `O*NET ${data.details.taxonomy.release} Skills, primary O*NET-SOC occupation, by ` +
        "importance",
      items: data.skills.get(soc) ?? [],
    },
    tasks: {
      bound: data.details.bounds.tasks,
      source: `O*NET ${data.details.taxonomy.release} Task Statements, core tasks first`,
      items: data.tasks.get(soc) ?? [],
    },
    oews: figures && published && entryLineage
      ? {
        vintage: figures.vintage,
        geography: "national" as const,
        published_as: figures.published_as,
        employment: figures.employment,
        employment_rse_percent: figures.employment_rse_percent,
        annual_median: figures.wages?.annual_percentiles.median ?? none,
        hourly_median: figures.wages?.hourly_percentiles.median ?? none,
        annual_mean: figures.wages?.annual_mean ?? none,
        mean_rse_percent: figures.wages?.mean_rse_percent ?? none,
        lineage: {
          source: entryLineage.source,
          vintage: entryLineage.vintage,
          file: entryLineage.file,
          sha256: entryLineage.sha256,
          row_key: entryLineage.row_key,
        },
      }
      : null,
    oews_note: !newest
      ? "No reviewed OEWS snapshot in this evidence version."
      : figures
      ? figures.published_as.note
      : `OEWS ${newest.info.vintage} publishes no national estimate for ${soc}, alone or in an ` +
        "aggregate.",
    other_oews_vintages: data.national.slice(1).map((f) => f.info.vintage),
    evidence_version: data.version,
    attribution: data.attribution,
  };
}

/** The pack id: derived from the account, the canonical request and the evidence content. */
export function packId(accountId: string, request: unknown, evidenceContentHash: string): string {
  const digest = createHash("sha256")
    .update(`workforce-evidence-pack-v1\n${accountId}\n${canonicalize(request)}\n`)
    .update(evidenceContentHash).digest("hex");
  return `ep_${digest.slice(0, 32)}`;
}

function resource(pack: StoredPack) {
  return {
    evidence_pack_id: pack.id,
    soc_code: pack.soc_code,
    request: JSON.parse(pack.request_json),
    evidence_version: pack.evidence_version,
    document_sha256: pack.document_sha256,
    created_at: pack.created_at.toISOString(),
    links: {
      document: `/api/v1/workforce/evidence-packs/${pack.id}`,
      report: `/api/v1/workforce/evidence-packs/${pack.id}/report?format=html`,
    },
  };
}

/** Dependencies of the workforce routes. */
export interface WorkforceDeps {
  artifacts: ArtifactRegistry;
  runtime: MiddlewareHandler<AppEnv>;
  db: Kysely<DB>;
  cursorKey: CryptoKey;
  /** Idempotency-Key handling for the creating POST (the platform's, after authentication). */
  idempotent: MiddlewareHandler<AppEnv>;
  clock?: () => Date;
}

/** The workforce router. */
export function workforceRoutes(deps: WorkforceDeps) {
  const { artifacts, runtime } = deps;
  const router = createRouter();
  const cursors = new CursorCodec(deps.cursorKey);
  const store = new PackStore(deps.db);
  const clock = deps.clock ?? (() => new Date());
  const common = { tags: ["Workforce"], security: [{ runtimeKey: [] }], middleware: runtime };
  const catalog = { ...common, middleware: [runtime, fromTargetCache(artifacts)] };

  router.openapi(
    createRoute({
      ...catalog,
      method: "get",
      path: "/api/v1/workforce/capabilities",
      summary: "Workforce capabilities (controlled-beta boundary)",
      description: "What the controlled beta covers for a country: supported countries (US), " +
        "geography levels, the occupation taxonomy and versions, the reviewed evidence sources " +
        "with vintages and sha256, whether this key may create packs, and what is not offered.",
      request: { query: CapabilitiesQuery },
      responses: {
        200: jsonResponse(CapabilitiesResponse, "The boundary."),
        ...problemResponses(401, 403, 422, 429, 503),
      },
    }),
    (c) => {
      const country = c.req.valid("query").country_code.toUpperCase();
      const entitled = c.get("runtime").entitlements.includes(PACK_ENTITLEMENT);
      return withEvidence(
        artifacts,
        (data) =>
          cached(
            c,
            data,
            `cap|${country}|${entitled}`,
            () => capabilities(data, country, entitled),
          ),
      ) as never;
    },
  );

  router.openapi(
    createRoute({
      ...catalog,
      method: "get",
      path: "/api/v1/workforce/occupations",
      summary: "U.S. SOC occupation catalog (help search)",
      description: HELP_NOTE + " Paged with an opaque, signed cursor.",
      request: { query: OccupationsQuery },
      responses: {
        200: jsonResponse(OccupationListResponse, "A page of the catalog."),
        ...problemResponses(401, 403, 422, 429, 503),
      },
    }),
    async (c) => {
      const { country_code, query, limit, cursor } = c.req.valid("query");
      const country = country_code.toUpperCase();
      return (await withEvidence(artifacts, async (data) => {
        const queryKey = createHash("sha256").update(foldText(query ?? "") + "|" + (query ?? ""))
          .digest("hex").slice(0, 16);
        let offset = 0;
        if (cursor) {
          try {
            offset = await cursors.decode(cursor, data.version, queryKey);
          } catch (error) {
            if (error instanceof CursorError) {
              throw invalid(["query", "cursor"], "cursor_invalid", error.message);
            }
            throw invalid(["query", "cursor"], "cursor_invalid", "the cursor cannot be read");
          }
        }
        const supported = SUPPORTED.includes(country);
        // Same version, query and page: the same bytes (the cursor's tag is deterministic).
        return await cached(
          c,
          data,
          `list|${country}|${queryKey}|${limit}|${offset}`,
          async () => {
            const matches = supported ? searchCatalog(data, query ?? null) : [];
            const page = matches.slice(offset, offset + limit);
            const next = offset + limit < matches.length
              ? await cursors.encode({ v: data.version, q: queryKey, o: offset + limit })
              : null;
            return {
              country_code: country,
              supported,
              query: query ?? null,
              items: page.map(({ index, matched_on }) => {
                const { entry } = data.detailed[index];
                const major = data.catalog.get(entry.major_code);
                return {
                  soc_code: entry.soc_code,
                  title: entry.title,
                  major_group: { code: entry.major_code, title: major?.title ?? "" },
                  onet_codes: (data.onet.get(entry.soc_code) ?? []).map((o) => o.onet_code),
                  matched_on,
                };
              }),
              total: matches.length,
              limit,
              next_cursor: next,
              evidence_version: data.version,
              note: supported ? HELP_NOTE : `Country ${country} is not covered: US only.`,
            };
          },
        );
      })) as never;
    },
  );

  router.openapi(
    createRoute({
      ...catalog,
      method: "get",
      path: "/api/v1/workforce/occupations/{soc_code}",
      summary: "One SOC occupation",
      description: "Title, definition and SOC groups; the O*NET-SOC codes under it; at most 10 " +
        "skills and 10 tasks (from its primary O*NET-SOC occupation); the headline OEWS " +
        "national figures of the newest reviewed vintage, with markers, RSE and lineage. A " +
        "malformed code is 422; a code that is not a detailed SOC 2018 code is 404.",
      request: { params: OccupationParams, query: OccupationQuery },
      responses: {
        200: jsonResponse(OccupationDetailResponse, "The occupation."),
        ...problemResponses(401, 403, 404, 422, 429, 503),
      },
    }),
    (c) => {
      const { soc_code } = c.req.valid("param");
      const country = c.req.valid("query").country_code.toUpperCase();
      return withEvidence(artifacts, (data) => {
        if (!SUPPORTED.includes(country)) {
          throw new ApiError(
            "not_found",
            `the catalog covers US only; country ${country} is not supported`,
          );
        }
        const entry = data.catalog.get(soc_code);
        if (!entry || entry.level !== "detailed") {
          throw new ApiError(
            "not_found",
            entry
              ? `${soc_code} is a ${entry.level} group, not a detailed SOC 2018 occupation`
              : `${soc_code} is not a SOC 2018 detailed code`,
          );
        }
        return cached(c, data, `detail|${soc_code}`, () => detail(data, soc_code));
      }) as never;
    },
  );

  router.openapi(
    createRoute({
      ...common,
      method: "post",
      path: "/api/v1/workforce/evidence-packs",
      summary: "Create an evidence pack",
      description: "Controlled beta: the key needs the workforce_evidence_packs entitlement " +
        "(403 otherwise). The id is derived from the account, the canonical request (defaults " +
        "filled in, sections and vintages sorted) and the evidence artifact's content hash: a " +
        "new pack is 201; the same request again is 200 with the same id and body. When a " +
        "reviewed snapshot the request needs is missing (a vintage, a geography, or a " +
        "suppressed estimate a section requires) the answer is 409 `evidence_unavailable` " +
        "listing each in `unavailable`. An unknown SOC code is 422. " + IDEMPOTENCY_DOC,
      middleware: [runtime, deps.idempotent],
      request: jsonBody(PackCreateRequest),
      responses: {
        201: jsonResponse(PackResource, "A new pack."),
        200: jsonResponse(PackResource, "The same request made before: the existing pack."),
        ...problemResponses(401, 403, 409, 422, 429, 503),
      },
    }),
    async (c) => {
      const principal = c.get("runtime");
      if (!principal.entitlements.includes(PACK_ENTITLEMENT)) {
        throw new ApiError(
          "forbidden",
          "Evidence pack creation is a controlled-beta feature: this key lacks the " +
            "workforce_evidence_packs entitlement. Ask us to enable it on your contract.",
          { entitlement: PACK_ENTITLEMENT },
        );
      }
      const body = c.req.valid("json");
      return await withEvidence(artifacts, async (data) => {
        const entry = data.catalog.get(body.soc_code);
        if (!entry || entry.level !== "detailed") {
          throw invalid(
            ["body", "soc_code"],
            "unknown_soc_code",
            "not a detailed SOC 2018 code of the catalog",
          );
        }
        const request = canonicalRequest(data, body);
        const id = packId(principal.accountId, request, data.contentHash);
        const existing = await store.get(principal.accountId, id);
        if (existing) return c.json(resource(existing), 200);
        const result = assemblePack(data, request, id);
        if ("unavailable" in result) {
          throw new ApiError(
            "evidence_unavailable",
            "the reviewed evidence this pack needs is unavailable: " +
              result.unavailable.map((u) => u.reason).join("; "),
            { unavailable: result.unavailable },
          );
        }
        const document: EvidencePackDocument = result.document;
        const { pack, created } = await store.insert(principal.accountId, {
          id,
          soc_code: request.soc_code,
          request_json: canonicalize(request),
          evidence_version: data.version,
          evidence_content_hash: data.contentHash,
          document_json: canonicalize(document),
          document_sha256: document.integrity.sha256,
          created_at: clock(),
        });
        return c.json(resource(pack), created ? 201 : 200);
      });
    },
  );

  router.openapi(
    createRoute({
      ...common,
      method: "get",
      path: "/api/v1/workforce/evidence-packs/{evidence_pack_id}",
      summary: "An evidence pack document",
      description: "The pack document as stored: its RFC 8785 canonical JSON. Packs are " +
        "account-scoped: another account's id is 404. Reading a pack needs no entitlement.",
      request: { params: PackParams },
      responses: {
        200: jsonResponse(PackDocument, "The pack document."),
        ...problemResponses(401, 403, 404, 422, 429),
      },
    }),
    async (c) => {
      const { evidence_pack_id } = c.req.valid("param");
      const pack = await store.get(c.get("runtime").accountId, evidence_pack_id);
      if (!pack) throw new ApiError("not_found", "no evidence pack with this id in this account");
      return c.body(pack.document_json, 200, { "content-type": "application/json" }) as never;
    },
  );

  router.openapi(
    createRoute({
      ...common,
      method: "get",
      path: "/api/v1/workforce/evidence-packs/{evidence_pack_id}/report",
      summary: "An evidence pack's HTML report",
      description: "One standalone HTML document rendered from the stored pack: inline CSS, " +
        "inline SVG charts, a lineage table and the attributions; no script and no external " +
        "asset, served with a Content-Security-Policy that forbids loading anything. `format` " +
        "must be `html`.",
      request: { params: PackParams, query: ReportQuery },
      responses: {
        200: {
          description: "The report.",
          content: { "text/html": { schema: { type: "string" } } },
        },
        ...problemResponses(401, 403, 404, 422, 429),
      },
    }),
    async (c) => {
      const { evidence_pack_id } = c.req.valid("param");
      const pack = await store.get(c.get("runtime").accountId, evidence_pack_id);
      if (!pack) throw new ApiError("not_found", "no evidence pack with this id in this account");
      const { html, csp } = renderReport(JSON.parse(pack.document_json));
      return c.body(html, 200, {
        "content-type": "text/html; charset=utf-8",
        "content-security-policy": csp,
        "cache-control": "private, max-age=0, must-revalidate",
      }) as never;
    },
  );
  return router;
}
