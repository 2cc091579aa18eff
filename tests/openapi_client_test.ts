/**
 * The served OpenAPI document: every operation has a unique operationId and the public ones
 * declare `security: []`; and client/schema.d.ts (the typed client's types) is what
 * `deno task gen:client` makes of the document served now.
 */
import assert from "node:assert/strict";
import { servedDocument } from "../client/document.ts";
import { generateTypes, SCHEMA_FILE } from "../client/generate.ts";
import { assignOperationIds, deriveOperationId } from "../serve/docs/operation_ids.ts";

const document = await servedDocument();
type Operation = { operationId?: string; security?: unknown[]; responses?: object };
const operations = Object.entries(document.paths as Record<string, Record<string, Operation>>)
  .flatMap(([path, item]) =>
    Object.entries(item).map(([method, operation]) => ({ method, path, operation }))
  );

Deno.test("openapi: every operation has a unique, readable operationId", () => {
  assert.ok(operations.length >= 50, `only ${operations.length} operations`);
  const ids = operations.map((o) => o.operation.operationId);
  for (const id of ids) assert.match(String(id), /^(get|post|put|patch|delete)[A-Z][A-Za-z0-9]*$/);
  assert.equal(new Set(ids).size, ids.length, "duplicate operationId");
  const byRoute = new Map(
    operations.map((o) => [`${o.method} ${o.path}`, o.operation.operationId]),
  );
  assert.equal(
    byRoute.get("get /api/v1/workforce/occupations/{soc_code}"),
    "getWorkforceOccupation",
  );
  assert.equal(
    byRoute.get("post /api/v1/grounding/sources/{source_id}/ingest-file"),
    "postGroundingSourceIngestFile",
  );
});

Deno.test("openapi: operation ids are derived from method and path, and never collide", () => {
  assert.equal(
    deriveOperationId("get", "/api/v1/platform/api-keys/{key_ref}"),
    "getPlatformApiKey",
  );
  assert.equal(
    deriveOperationId("get", "/api/v1/platform/feedback/{id}"),
    "getPlatformFeedbackItem",
  );
  assert.equal(deriveOperationId("get", "/health/live"), "getHealthLive");
  const kept = { "/a": { get: { operationId: "mine" } } };
  assignOperationIds(kept);
  assert.equal(kept["/a"].get.operationId, "mine");
  assert.throws(
    () => assignOperationIds({ "/x/live": { get: {} }, "/x-live": { get: {} } }),
    /operationId getXLive of GET \/x-live is taken by GET \/x\/live/,
  );
});

Deno.test("openapi: public routes declare security: [], all others a scheme; info has a license", () => {
  const open = operations.filter((o) =>
    Array.isArray(o.operation.security) &&
    o.operation.security.length === 0
  ).map((o) => `${o.method} ${o.path}`).sort();
  assert.deepEqual(open, [
    "get /api/v1/platform/verify-email",
    "get /health/live",
    "get /health/ready",
    "get /problems/{code}",
    "post /api/v1/platform/forgot-password",
    "post /api/v1/platform/login",
    "post /api/v1/platform/register",
    "post /api/v1/platform/resend-verification",
    "post /api/v1/platform/reset-password",
    "post /api/v1/platform/verify-email",
  ]);
  for (const o of operations) {
    assert.ok(Array.isArray(o.operation.security), `${o.method} ${o.path}`);
  }
  assert.equal(
    (document.info as { license?: { identifier?: string } }).license?.identifier,
    "Apache-2.0",
  );
});

Deno.test("client: client/schema.d.ts is up to date with the served document", async () => {
  const committed = await Deno.readTextFile(SCHEMA_FILE);
  const fresh = await generateTypes(document);
  assert.ok(committed === fresh, "client/schema.d.ts is stale: run `deno task gen:client`");
});
