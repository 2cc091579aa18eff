/**
 * Customer grounding routes (spec 4.4, records 2.10, section 3): a tenant's own sources,
 * text and file ingestion into versions and chunks, Postgres full-text retrieval, and
 * extractive role reports with a decision passport. The tenant is the runtime key's account;
 * every store call takes it. Source creation, file ingestion and reports need the key's
 * `customer_grounding` entitlement (403 otherwise); the other routes only a runtime key.
 *
 * What never appears in a response, trace or log: raw source text or uploads, role context,
 * keys, storage references, parser internals. Reports cite chunks by id, span and sha256.
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
import { withTaxonomy } from "../occupation/mod.ts";
import { canonicalize } from "../text/canonical.ts";
import { DocumentError, extractDocument, MAX_FILE_BYTES } from "./documents.ts";
import { chunkText } from "./chunk.ts";
import { composeReport } from "./report.ts";
import { RoleReportRequest, RoleReportResponse } from "./report_schemas.ts";
import { occupationView } from "./occupation_view.ts";
import { DuplicateSourceError, GroundingStore, RETENTION_DAYS, retentionDays } from "./store.ts";
import type { ExtractedDocument } from "./types.ts";
import {
  DecisionParams,
  DeleteRequest,
  EmptyObject,
  FileIngestForm,
  FreeForm,
  ListQuery,
  RunParams,
  SourceCreateRequest,
  SourceParams,
  TextIngestRequest,
  TraceParams,
  UsageQuery,
} from "./schemas.ts";

/** The entitlement that opens source creation, file ingestion and reports. */
export const GROUNDING_ENTITLEMENT = "customer_grounding";
/** Chunks retrieval hands to the report engine at most. */
export const RETRIEVAL_LIMIT = 200;
const TEXT_TYPES = ["text/markdown", "text/plain"];

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");
const newId = (prefix: string) => `${prefix}_${crypto.randomUUID().replaceAll("-", "")}`;
const iso = (d: Date | null) => (d ? d.toISOString() : null);

function requireEntitlement(c: Context<AppEnv>, what: string) {
  if (!c.get("runtime").entitlements.includes(GROUNDING_ENTITLEMENT)) {
    throw new ApiError(
      "forbidden",
      `${what} needs the customer_grounding entitlement (controlled beta); this key lacks it`,
      { entitlement: GROUNDING_ENTITLEMENT },
    );
  }
}

type SourceRow = NonNullable<Awaited<ReturnType<GroundingStore["getSource"]>>>;

function sourceView(row: SourceRow) {
  const deleted = row.status === "deleted";
  return {
    source_id: row.source_id,
    source_type: row.source_type,
    title: row.title,
    owner: row.owner,
    permissions_scope: row.permissions_scope,
    retention_class: row.retention_class,
    retention_days: retentionDays(row.retention_class),
    metadata: deleted ? {} : row.metadata,
    status: row.status,
    retrievable: row.retrievable,
    version_count: row.versions,
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
    deletion: deleted
      ? {
        deleted_at: iso(row.deleted_at),
        reason: row.delete_reason,
        content_removed: true,
        note: "Tombstone: the source's text and chunks were removed; this record remains.",
      }
      : null,
  };
}

type RunRow = NonNullable<Awaited<ReturnType<GroundingStore["getRun"]>>>;
function runView(run: Omit<RunRow, "source_id">, sourceId: string) {
  return {
    ingestion_run_id: run.id,
    source_id: sourceId,
    version_id: run.version_id === null ? null : `ver_${run.version_id}`,
    kind: run.kind,
    status: run.status,
    content_type: run.content_type,
    bytes: run.bytes,
    counts: { pages: run.pages, characters: run.chars, chunks: run.chunks },
    started_at: iso(run.started_at),
    finished_at: iso(run.finished_at),
    duration_ms: run.duration_ms,
    error: run.error_code ? { code: run.error_code, reason: run.error_reason } : null,
  };
}

type VersionRow = Awaited<ReturnType<GroundingStore["listVersions"]>>[number];
function versionView(v: VersionRow, sourceId: string) {
  return {
    version_id: `ver_${v.id}`,
    source_id: sourceId,
    version_number: v.version_number,
    version_label: v.version_label,
    content_type: v.content_type,
    metadata: v.metadata,
    text_sha256: v.text_sha256,
    counts: { pages: v.pages, characters: v.chars, chunks: v.chunks },
    created_at: iso(v.created_at),
    retained_until: iso(v.expires_at),
    content_removed_at: iso(v.content_removed_at),
  };
}

/** Dependencies of the grounding routes. */
export interface GroundingDeps {
  artifacts: ArtifactRegistry;
  runtime: MiddlewareHandler<AppEnv>;
  db: Kysely<DB>;
  /** Idempotency-Key handling for the creating POST (the platform's, after authentication). */
  idempotent: MiddlewareHandler<AppEnv>;
  clock?: () => Date;
}

/** The grounding router. */
export function groundingRoutes(deps: GroundingDeps) {
  const router = createRouter();
  const store = new GroundingStore(deps.db);
  const clock = deps.clock ?? (() => new Date());
  const common = {
    tags: ["Customer grounding"],
    security: [{ runtimeKey: [] }],
    middleware: deps.runtime,
  };
  const account = (c: Context<AppEnv>) => c.get("runtime").accountId;
  const sourceOr404 = async (c: Context<AppEnv>, sourceId: string) => {
    const row = await store.getSource(account(c), sourceId);
    if (!row) throw new ApiError("not_found", "no source with this id in this account");
    return row;
  };
  const live = (row: SourceRow) => {
    if (row.status === "deleted") {
      throw new ApiError("conflict", "the source is deleted (a tombstone); create a new source");
    }
    return row;
  };
  const ok = (description: string) => ({
    200: jsonResponse(FreeForm, description),
  });

  /** Extracts, chunks and stores a version; a failed extraction is a failed run, never empty. */
  async function ingest(
    c: Context<AppEnv>,
    row: SourceRow,
    kind: "text" | "file",
    bytes: number,
    extract: () => Promise<ExtractedDocument>,
    meta: { version_label: string | null; metadata: Record<string, unknown> },
  ) {
    const startedAt = clock();
    const runId = newId("run");
    let doc: ExtractedDocument;
    try {
      doc = await extract();
      if (doc.text.trim() === "") {
        throw new DocumentError("no_extractable_text", "the document holds no text");
      }
    } catch (error) {
      if (!(error instanceof DocumentError)) throw error;
      const run = await store.failRun(account(c), row.id, {
        id: runId,
        kind,
        bytes,
        started_at: startedAt,
        content_type: null,
        error_code: error.code,
        error_reason: error.reason,
      }, clock());
      const view = runView(run, row.source_id);
      if (error.code === "unsupported_media_type") {
        throw new ApiError("unsupported_media_type", error.reason, { ingestion_run: view });
      }
      if (error.code === "file_too_large") {
        throw new ApiError("payload_too_large", error.reason, { ingestion_run: view });
      }
      throw new ApiError("ingestion_failed", error.reason, { ingestion_run: view });
    }
    const chunks = chunkText(doc);
    await store.purgeExpired(account(c), startedAt);
    const stored = await store.ingest(account(c), row, {
      doc,
      chunks,
      version_label: meta.version_label,
      metadata: meta.metadata,
      run: { id: runId, kind, bytes, started_at: startedAt },
    }, clock());
    if (!stored) {
      throw new ApiError("conflict", "the source was deleted while this ingest ran");
    }
    return c.json({
      source_id: row.source_id,
      ingestion_run: runView(stored.run, row.source_id),
      version: versionView(stored.version, row.source_id),
    }, 200);
  }

  router.openapi(
    createRoute({
      ...common,
      method: "get",
      path: "/api/v1/grounding/capabilities",
      summary: "Grounding capabilities",
      description: "What customer grounding accepts and does, and whether this key may create " +
        "sources, ingest files and build reports.",
      responses: { ...ok("The capabilities."), ...problemResponses(401, 403, 429) },
    }),
    (c) =>
      c.json({
        status: "controlled_beta",
        tenant: "the runtime key's account: no request sees another account's data",
        entitlement: GROUNDING_ENTITLEMENT,
        entitled: c.get("runtime").entitlements.includes(GROUNDING_ENTITLEMENT),
        needs_entitlement: ["create source", "ingest file", "role report"],
        ingestion: {
          text: { max_characters: 20_000, content_types: TEXT_TYPES },
          file: {
            max_bytes: MAX_FILE_BYTES,
            content_types: [
              "text/plain",
              "text/markdown",
              "application/pdf (selectable text)",
              "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
            ],
          },
          unsupported: ["ocr", "image_extraction", "connector_sync", "raw_document_logging"],
        },
        retention: {
          classes: RETENTION_DAYS,
          default: "short_lived",
          note: "Uploads are never stored: only the extracted text, as chunks, until the " +
            "retention of the version ends or the source is deleted.",
        },
        retrieval: {
          method: "postgres_full_text",
          language: "english",
          ranking: "ts_rank",
          scope: "the account's active sources (optionally only source_ids)",
        },
        reports: {
          kind: "extractive, deterministic (rules over your evidence and the O*NET taxonomy)",
          passport: "DecisionPassportV1 with include_passport",
        },
      }, 200),
  );

  router.openapi(
    createRoute({
      ...common,
      method: "get",
      path: "/api/v1/grounding/sources",
      summary: "List sources",
      description: "The account's sources, oldest first, tombstones included.",
      responses: { ...ok("The sources."), ...problemResponses(401, 403, 429) },
    }),
    async (c) => {
      const rows = await store.listSources(account(c));
      return c.json({ sources: rows.map(sourceView), count: rows.length }, 200);
    },
  );

  router.openapi(
    createRoute({
      ...common,
      method: "post",
      path: "/api/v1/grounding/sources",
      summary: "Create a source",
      description: "Needs the customer_grounding entitlement. Source states: active (retrieved) " +
        "-> disabled (kept, not retrieved) -> active; active or disabled -> deleted (a " +
        "tombstone: excluded from retrieval first, then its text removed; the record remains). " +
        "A taken source_id is 409. " + IDEMPOTENCY_DOC,
      middleware: [deps.runtime, deps.idempotent],
      request: jsonBody(SourceCreateRequest),
      responses: { ...ok("The new source."), ...problemResponses(401, 403, 409, 422, 429) },
    }),
    async (c) => {
      requireEntitlement(c, "source creation");
      const body = c.req.valid("json");
      try {
        const row = await store.createSource(account(c), {
          source_id: body.source_id ?? newId("src").slice(0, 28),
          source_type: body.source_type,
          title: body.title,
          owner: body.owner ?? null,
          permissions_scope: body.permissions_scope,
          retention_class: body.retention_class ?? "short_lived",
          metadata: body.metadata ?? {},
        }, clock());
        return c.json(sourceView(row), 200);
      } catch (error) {
        if (error instanceof DuplicateSourceError) {
          throw new ApiError("conflict", "this account already has a source with this source_id");
        }
        throw error;
      }
    },
  );

  router.openapi(
    createRoute({
      ...common,
      method: "get",
      path: "/api/v1/grounding/sources/{source_id}",
      summary: "Get a source",
      request: { params: SourceParams },
      responses: { ...ok("The source."), ...problemResponses(401, 403, 404, 422, 429) },
    }),
    async (c) => c.json(sourceView(await sourceOr404(c, c.req.valid("param").source_id)), 200),
  );

  router.openapi(
    createRoute({
      ...common,
      method: "delete",
      path: "/api/v1/grounding/sources/{source_id}",
      summary: "Delete a source",
      description: "In one transaction: the source is excluded from retrieval first, then the " +
        "tombstone completes (chunks removed, versions marked content-removed, the source kept " +
        "as the record of the deletion with the optional reason). Deleting a tombstone is 409.",
      request: {
        params: SourceParams,
        body: { required: false, content: { "application/json": { schema: DeleteRequest } } },
      },
      responses: { ...ok("The tombstone."), ...problemResponses(401, 403, 404, 409, 422, 429) },
    }),
    async (c) => {
      const { source_id } = c.req.valid("param");
      // The body is optional: absent (or not JSON) means no reason.
      const body = (c.req.valid("json") as { reason?: string | null } | undefined) ?? {};
      live(await sourceOr404(c, source_id));
      const result = await store.deleteSource(account(c), source_id, body.reason ?? null, clock());
      if (!result) throw new ApiError("conflict", "the source is already deleted");
      return c.json({ ...sourceView(result.row), chunks_removed: result.chunksRemoved }, 200);
    },
  );

  for (const action of ["enable", "disable"] as const) {
    router.openapi(
      createRoute({
        ...common,
        method: "post",
        path: `/api/v1/grounding/sources/{source_id}/${action}`,
        summary: `${action === "enable" ? "Enable" : "Disable"} a source`,
        description: action === "enable"
          ? "Makes the source retrievable again. Optional body: an empty object."
          : "Keeps the source and its versions but leaves it out of retrieval. Optional body: " +
            "an empty object.",
        request: {
          params: SourceParams,
          body: { required: false, content: { "application/json": { schema: EmptyObject } } },
        },
        responses: { ...ok("The source."), ...problemResponses(401, 403, 404, 409, 422, 429) },
      }),
      async (c) => {
        const { source_id } = c.req.valid("param");
        live(await sourceOr404(c, source_id));
        const row = await store.setEnabled(account(c), source_id, action === "enable", clock());
        if (!row) throw new ApiError("conflict", "the source is deleted (a tombstone)");
        return c.json(sourceView(row), 200);
      },
    );
  }

  router.openapi(
    createRoute({
      ...common,
      method: "post",
      path: "/api/v1/grounding/sources/{source_id}/ingest-text",
      summary: "Ingest text into a new version",
      description: "1-20,000 characters of text/markdown (default) or text/plain. Creates a " +
        "version and an ingestion run; the text is chunked with character offsets.",
      request: { params: SourceParams, ...jsonBody(TextIngestRequest) },
      responses: {
        ...ok("The run and version."),
        ...problemResponses(401, 403, 404, 409, 422, 429),
      },
    }),
    async (c) => {
      const { source_id } = c.req.valid("param");
      const body = c.req.valid("json");
      const type = body.content_type.split(";")[0].trim().toLowerCase();
      if (!TEXT_TYPES.includes(type)) {
        throw new ApiError(
          "validation_failed",
          "text ingestion takes text/markdown or text/plain",
          {
            errors: [{
              loc: ["body", "content_type"],
              msg: "must be text/markdown or text/plain (files go to ingest-file)",
              type: "unsupported_content_type",
            }],
          },
        );
      }
      const row = live(await sourceOr404(c, source_id));
      const bytes = new TextEncoder().encode(body.text);
      return await ingest(
        c,
        row,
        "text",
        bytes.length,
        () => extractDocument(bytes, type === "text/markdown" ? "text.md" : "text.txt", type),
        { version_label: body.version_label ?? null, metadata: body.metadata ?? {} },
      );
    },
  );

  router.openapi(
    createRoute({
      ...common,
      method: "post",
      path: "/api/v1/grounding/sources/{source_id}/ingest-file",
      summary: "Ingest a file into a new version",
      description: "multipart/form-data with `file`, optional `version_label` (max 200) and " +
        "`metadata_json` (a JSON object, max 5000 characters). Needs the customer_grounding " +
        `entitlement. Plain text, Markdown, PDF with selectable text and DOCX, at most ` +
        `${MAX_FILE_BYTES} bytes (413 beyond). Images, scans needing OCR and other types are ` +
        "415. A PDF without extractable text ends its run as failed (422 ingestion_failed, " +
        "with the run), never as an empty success.",
      request: {
        params: SourceParams,
        body: { required: true, content: { "multipart/form-data": { schema: FileIngestForm } } },
      },
      responses: {
        ...ok("The run and version."),
        ...problemResponses(401, 403, 404, 409, 413, 415, 422, 429),
      },
    }),
    async (c) => {
      requireEntitlement(c, "file ingestion");
      const { source_id } = c.req.valid("param");
      const form = c.req.valid("form");
      let metadata: Record<string, unknown> = {};
      if (form.metadata_json !== undefined && form.metadata_json !== "") {
        let parsed: unknown;
        try {
          parsed = JSON.parse(form.metadata_json);
        } catch {
          parsed = undefined;
        }
        if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) {
          throw new ApiError("validation_failed", "metadata_json must be a JSON object", {
            errors: [{
              loc: ["body", "metadata_json"],
              msg: "must be a JSON object",
              type: "json_object",
            }],
          });
        }
        metadata = parsed as Record<string, unknown>;
      }
      const row = live(await sourceOr404(c, source_id));
      const file = form.file;
      return await ingest(
        c,
        row,
        "file",
        file.size,
        async () => {
          if (file.size > MAX_FILE_BYTES) {
            throw new DocumentError(
              "file_too_large",
              `files are limited to ${MAX_FILE_BYTES} bytes`,
            );
          }
          return await extractDocument(
            new Uint8Array(await file.arrayBuffer()),
            file.name || null,
            file.type || null,
          );
        },
        { version_label: form.version_label ?? null, metadata },
      );
    },
  );

  router.openapi(
    createRoute({
      ...common,
      method: "get",
      path: "/api/v1/grounding/sources/{source_id}/versions",
      summary: "List a source's versions",
      request: { params: SourceParams },
      responses: { ...ok("The versions."), ...problemResponses(401, 403, 404, 422, 429) },
    }),
    async (c) => {
      const row = await sourceOr404(c, c.req.valid("param").source_id);
      const versions = await store.listVersions(account(c), row.id);
      return c.json({
        source_id: row.source_id,
        versions: versions.map((v) => versionView(v, row.source_id)),
      }, 200);
    },
  );

  router.openapi(
    createRoute({
      ...common,
      method: "get",
      path: "/api/v1/grounding/sources/{source_id}/artifacts",
      summary: "List a source's derived artifacts (metadata only)",
      description: "The chunks of every version: ids, spans, pages, sizes and sha256; never " +
        "their text.",
      request: { params: SourceParams },
      responses: { ...ok("The artifacts."), ...problemResponses(401, 403, 404, 422, 429) },
    }),
    async (c) => {
      const row = await sourceOr404(c, c.req.valid("param").source_id);
      const chunks = await store.listChunks(account(c), row.id);
      return c.json({
        source_id: row.source_id,
        artifacts: chunks.map((ch) => ({
          artifact_id: `ch_${ch.id}`,
          kind: "chunk",
          version_id: `ver_${ch.version_id}`,
          version_number: ch.version_number,
          ordinal: ch.ordinal,
          start_char: ch.start_char,
          end_char: ch.end_char,
          page: ch.page,
          characters: Number(ch.chars),
          sha256: ch.text_sha256,
          index: "postgres_tsvector_english",
        })),
      }, 200);
    },
  );

  router.openapi(
    createRoute({
      ...common,
      method: "get",
      path: "/api/v1/grounding/sources/{source_id}/ingestion-runs",
      summary: "List a source's ingestion runs",
      request: { params: SourceParams, query: ListQuery },
      responses: { ...ok("The runs, newest first."), ...problemResponses(401, 403, 404, 422, 429) },
    }),
    async (c) => {
      const row = await sourceOr404(c, c.req.valid("param").source_id);
      const runs = await store.listRuns(account(c), row.id, c.req.valid("query").limit);
      return c.json({
        source_id: row.source_id,
        ingestion_runs: runs.map((r) => runView(r, row.source_id)),
      }, 200);
    },
  );

  router.openapi(
    createRoute({
      ...common,
      method: "get",
      path: "/api/v1/grounding/ingestion-runs/{ingestion_run_id}",
      summary: "Get an ingestion run",
      request: { params: RunParams },
      responses: { ...ok("The run."), ...problemResponses(401, 403, 404, 422, 429) },
    }),
    async (c) => {
      const run = await store.getRun(account(c), c.req.valid("param").ingestion_run_id);
      if (!run) throw new ApiError("not_found", "no ingestion run with this id in this account");
      return c.json(runView(run, run.source_id), 200);
    },
  );

  router.openapi(
    createRoute({
      ...common,
      method: "post",
      path: "/api/v1/grounding/role-intelligence/reports",
      summary: "Build a role report from your sources",
      description: "Needs the customer_grounding entitlement. Retrieval (Postgres full-text " +
        "search over your active sources, optionally only source_ids) plus the occupation " +
        "engine's view of the role; statements are composed by rules from your evidence and " +
        "the taxonomy, each citing evidence ids (source, version, chunk, span, sha256). " +
        "Deterministic: the same request on the same data gives the same report and ids. An " +
        "unknown or deleted source in source_ids is 422.",
      request: jsonBody(RoleReportRequest),
      responses: {
        200: jsonResponse(RoleReportResponse, "The report."),
        ...problemResponses(401, 403, 422, 429, 503),
      },
    }),
    async (c) => {
      requireEntitlement(c, "role reports");
      const body = c.req.valid("json");
      const tenant = account(c);
      const now = clock();
      const sourceIds = body.source_ids ? [...new Set(body.source_ids)].sort() : undefined;
      if (sourceIds) {
        for (const [i, id] of (body.source_ids ?? []).entries()) {
          const row = await store.getSource(tenant, id);
          if (!row || row.status === "deleted") {
            throw new ApiError("validation_failed", "a source in source_ids is unknown", {
              errors: [{
                loc: ["body", "source_ids", i],
                msg: "no such source in this account (or it is deleted)",
                type: "unknown_source",
              }],
            });
          }
        }
      }
      const view = await withTaxonomy(
        deps.artifacts,
        (artifact) =>
          occupationView(artifact, { title: body.role_title, context: body.role_context ?? null }),
      );
      const focus = [...new Set((body.focus_areas ?? []).map((f) => f.trim()).filter(Boolean))];
      // Retrieval terms: the role, its focus areas, the candidate occupations' titles and
      // technologies. Generic O*NET skills (Speaking, Writing, ...) are left out of retrieval:
      // they match most chunks of any corpus; the engine still matches them in what is found.
      const terms = [
        body.role_title,
        ...focus,
        ...view.candidates.flatMap((cand) => [cand.title, ...cand.technologies]),
      ];
      const chunks = await store.search(tenant, terms, {
        sourceIds,
        limit: RETRIEVAL_LIMIT,
        now,
      });
      const canonical = canonicalize({
        role_title: body.role_title,
        role_context_sha256: body.role_context ? sha256(body.role_context) : null,
        focus_areas: focus,
        source_ids: sourceIds ?? null,
        top_k: body.top_k,
        include_passport: body.include_passport,
      });
      const state = canonicalize({
        taxonomy: view.taxonomy_version,
        chunks: chunks.map((ch) => [ch.evidence_id, ch.excerpt_sha256, ch.rank]),
      });
      const digest = sha256(`grounding-report-v1\n${tenant}\n${canonical}\n${state}`);
      const report = composeReport({
        role_title: body.role_title,
        focus_areas: focus,
        top_k: body.top_k,
        include_passport: body.include_passport,
        chunks,
        occupation: view,
        decision_id: `dec_${digest.slice(0, 32)}`,
        trace_id: `tr_${digest.slice(32, 64)}`,
      });
      const text = JSON.stringify(report);
      const saved = await store.saveReport(tenant, {
        decision_id: `dec_${digest.slice(0, 32)}`,
        trace_id: `tr_${digest.slice(32, 64)}`,
        status: report.passport?.status ?? statusOf(report),
        report_json: text,
        trace_json: JSON.stringify(report.trace),
        request_sha256: sha256(canonical),
      }, now);
      return c.body(saved.report_json, 200, { "content-type": "application/json" }) as never;
    },
  );

  router.openapi(
    createRoute({
      ...common,
      method: "get",
      path: "/api/v1/grounding/usage",
      summary: "Grounding activity (not billing)",
      description: "Counts of ingestion runs (by kind and status, with pages, characters, " +
        "chunks and bytes), reports by status, and sources by state, in [from, to). Default: " +
        "the 30 days before now.",
      request: { query: UsageQuery },
      responses: { ...ok("The activity."), ...problemResponses(401, 403, 422, 429) },
    }),
    async (c) => {
      const q = c.req.valid("query");
      const to = q.to ? new Date(q.to) : clock();
      const from = q.from ? new Date(q.from) : new Date(to.getTime() - 30 * 86_400_000);
      if (from.getTime() >= to.getTime()) {
        throw new ApiError("validation_failed", "from must be before to", {
          errors: [{ loc: ["query", "from"], msg: "must be before to", type: "range" }],
        });
      }
      const usage = await store.usage(account(c), from, to);
      return c.json({
        from: from.toISOString(),
        to: to.toISOString(),
        note: "Aggregate beta visibility, not billing.",
        ingestion_runs: usage.runs.map((r) => ({
          kind: r.kind,
          status: r.status,
          runs: Number(r.runs),
          pages: Number(r.pages),
          characters: Number(r.chars),
          chunks: Number(r.chunks),
          bytes: Number(r.bytes),
        })),
        reports: usage.reports.map((r) => ({ status: r.status, reports: Number(r.reports) })),
        sources: usage.sources.map((s) => ({ status: s.status, sources: Number(s.sources) })),
        chunks_stored: usage.chunks,
      }, 200);
    },
  );

  router.openapi(
    createRoute({
      ...common,
      method: "get",
      path: "/api/v1/grounding/traces",
      summary: "List retrieval traces",
      request: { query: ListQuery },
      responses: { ...ok("The traces, newest first."), ...problemResponses(401, 403, 422, 429) },
    }),
    async (c) => {
      const rows = await store.listTraces(account(c), c.req.valid("query").limit);
      return c.json({
        traces: rows.map((t) => ({
          trace_id: t.id,
          decision_id: t.decision_id,
          created_at: iso(t.created_at),
        })),
      }, 200);
    },
  );

  router.openapi(
    createRoute({
      ...common,
      method: "get",
      path: "/api/v1/grounding/traces/{trace_id}",
      summary: "Get a retrieval trace",
      description: "Steps with counts and ids only: no text, no role context.",
      request: { params: TraceParams },
      responses: { ...ok("The trace."), ...problemResponses(401, 403, 404, 422, 429) },
    }),
    async (c) => {
      const row = await store.getTrace(account(c), c.req.valid("param").trace_id);
      if (!row) throw new ApiError("not_found", "no trace with this id in this account");
      return c.json({
        trace_id: row.id,
        decision_id: row.decision_id,
        created_at: iso(row.created_at),
        trace: JSON.parse(row.trace_json),
      }, 200);
    },
  );

  router.openapi(
    createRoute({
      ...common,
      method: "get",
      path: "/api/v1/grounding/reports",
      summary: "List role reports",
      request: { query: ListQuery },
      responses: { ...ok("The reports, newest first."), ...problemResponses(401, 403, 422, 429) },
    }),
    async (c) => {
      const rows = await store.listReports(account(c), c.req.valid("query").limit);
      return c.json({
        reports: rows.map((r) => ({
          decision_id: r.decision_id,
          trace_id: r.trace_id,
          status: r.status,
          created_at: iso(r.created_at),
        })),
      }, 200);
    },
  );

  router.openapi(
    createRoute({
      ...common,
      method: "get",
      path: "/api/v1/grounding/reports/{decision_id}",
      summary: "Get a role report",
      description: "The report as it was returned when built.",
      request: { params: DecisionParams },
      responses: { ...ok("The report."), ...problemResponses(401, 403, 404, 422, 429) },
    }),
    async (c) => {
      const row = await store.getReport(account(c), c.req.valid("param").decision_id);
      if (!row) throw new ApiError("not_found", "no report with this id in this account");
      return c.body(row.report_json, 200, { "content-type": "application/json" }) as never;
    },
  );
  return router;
}

/** The report's status when it carries no passport: from its review flags and statements. */
function statusOf(report: { passport: unknown; review_flags: string[] }): string {
  if (report.review_flags.some((f) => f.startsWith("abstained"))) return "abstained";
  return report.review_flags.length > 0 ? "review_required" : "completed";
}
