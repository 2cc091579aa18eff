/** Request schemas of the grounding routes (spec 4.4, records 2.10, limits in section 8). */
import { z } from "@hono/zod-openapi";

const Metadata = z.record(z.string(), z.unknown()).openapi({
  description: "Free-form JSON object, stored as given (at most 16 KB serialised).",
}).refine((m) => JSON.stringify(m).length <= 16_384, {
  message: "metadata must serialise to at most 16384 characters",
  params: { type: "too_big.metadata" },
});

/** Body of POST /grounding/sources (no extra properties). */
export const SourceCreateRequest = z.object({
  // deno-lint-ignore no-control-regex -- control characters are what the rule refuses
  source_id: z.string().min(1).max(200).regex(/^[^\u0000-\u001f\u007f/]+$/).nullish().openapi({
    description: "Your id for the source, 1-200 characters without control characters or " +
      "'/'; unique in your account (409 if taken). Generated (src_ + 24 hex) when absent.",
  }),
  source_type: z.string().min(1).max(100).default("customer_text"),
  title: z.string().min(1).max(500),
  owner: z.string().max(300).nullish(),
  permissions_scope: z.string().min(1).max(100).default("customer_private"),
  retention_class: z.string().max(100).nullish().openapi({
    description: "short_lived (default: text kept 30 days after each ingest), standard (365 " +
      "days) or regulated (7 years); any other class is kept as short_lived.",
  }),
  metadata: Metadata.optional(),
}).strict().openapi("GroundingSourceCreateRequest");

/** Body of POST /grounding/sources/{source_id}/ingest-text (no extra properties). */
export const TextIngestRequest = z.object({
  text: z.string().min(1).max(20_000),
  content_type: z.string().max(100).default("text/markdown").openapi({
    description: "text/markdown (default) or text/plain, optionally with a charset=utf-8 " +
      "parameter.",
  }),
  version_label: z.string().max(200).nullish(),
  metadata: Metadata.optional(),
}).strict().openapi("GroundingTextIngestRequest");

/** Form of POST /grounding/sources/{source_id}/ingest-file. */
export const FileIngestForm = z.object({
  file: z.instanceof(File).openapi({
    type: "string",
    format: "binary",
    description: "Plain text, Markdown, PDF with selectable text or DOCX; at most 10 MiB.",
  }),
  version_label: z.string().max(200).optional(),
  metadata_json: z.string().max(5000).optional().openapi({
    description: "A JSON object as a string, at most 5000 characters.",
  }),
}).openapi("GroundingFileIngestForm");

/** Optional body of DELETE /grounding/sources/{source_id}. */
export const DeleteRequest = z.object({ reason: z.string().max(300).nullish() }).strict()
  .openapi("GroundingDeleteRequest");

/** Optional body of enable and disable: an empty object. */
export const EmptyObject = z.object({}).strict().openapi("EmptyObject");

export const SourceParams = z.object({
  source_id: z.string().min(1).max(200).openapi({ description: "The source's id." }),
});
export const RunParams = z.object({
  ingestion_run_id: z.string().regex(/^run_[0-9a-f]{32}$/).openapi({
    description: "run_ and 32 hex digits.",
  }),
});
export const TraceParams = z.object({
  trace_id: z.string().regex(/^tr_[0-9a-f]{32}$/).openapi({ description: "tr_ and 32 hex." }),
});
export const DecisionParams = z.object({
  decision_id: z.string().min(3).max(128).regex(/^[A-Za-z0-9][A-Za-z0-9._:-]*$/),
});

export const ListQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(50).openapi({
    type: "integer",
    minimum: 1,
    maximum: 100,
    default: 50,
  }),
});

export const UsageQuery = z.object({
  from: z.iso.datetime({ offset: true }).optional().openapi({
    description: "Start (inclusive), RFC 3339; default: 30 days before `to`.",
  }),
  to: z.iso.datetime({ offset: true }).optional().openapi({
    description: "End (exclusive), RFC 3339; default: now.",
  }),
});

/** Free-form JSON object responses (spec 4.4): documented per route. */
export const FreeForm = z.record(z.string(), z.unknown()).openapi("GroundingObject");
