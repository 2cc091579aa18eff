/**
 * Ill-formed Unicode never reaches storage: every string field of every JSON request body in
 * the OpenAPI document, sent with a lone UTF-16 surrogate, is a 422 naming the field, without
 * echoing it. Runs on PGlite, and on the real server when TEST_DATABASE_URL is set.
 */
import assert from "node:assert/strict";
import { testApp } from "./helpers.ts";
import { signUp } from "./platform.ts";

type Schema = {
  $ref?: string;
  type?: string | string[];
  properties?: Record<string, Schema>;
  anyOf?: Schema[];
  oneOf?: Schema[];
};

function resolve(doc: { components: { schemas: Record<string, Schema> } }, s: Schema): Schema {
  return s.$ref ? resolve(doc, doc.components.schemas[s.$ref.split("/").pop()!]) : s;
}

function isString(doc: { components: { schemas: Record<string, Schema> } }, s: Schema): boolean {
  const r = resolve(doc, s);
  if (r.type === "string" || (Array.isArray(r.type) && r.type.includes("string"))) return true;
  return [...r.anyOf ?? [], ...r.oneOf ?? []].some((x) => isString(doc, x));
}

Deno.test("a lone surrogate in any JSON string field is a 422 naming the field, never stored", async () => {
  const t = await testApp();
  try {
    const { key, token } = await signUp(t);
    const doc = await (await t.app.request("/openapi.json")).json();
    let fields = 0;
    for (const [path, methods] of Object.entries(doc.paths as Record<string, object>)) {
      for (
        const [method, op] of Object.entries(methods as Record<string, Record<string, unknown>>)
      ) {
        const body = (op.requestBody as { content?: Record<string, { schema: Schema }> })
          ?.content?.["application/json"]?.schema;
        if (!body) continue;
        const schema = resolve(doc, body);
        const security = JSON.stringify(op.security ?? []);
        const bearer = security.includes("runtimeKey")
          ? key
          : security.includes("management")
          ? token
          : null;
        for (const [name, prop] of Object.entries(schema.properties ?? {})) {
          if (!isString(doc, prop)) continue;
          fields++;
          const url = path.replace(/\{[^}]+\}/g, "1");
          const response = await t.app.request(url, {
            method: method.toUpperCase(),
            headers: {
              "content-type": "application/json",
              ...(bearer ? { authorization: `Bearer ${bearer}` } : {}),
            },
            body: `{"${name}": "Secret\\u00e9\\udfff"}`,
          });
          const where = `${method.toUpperCase()} ${path} ${name}`;
          assert.equal(response.status, 422, where);
          const text = await response.text();
          const problem = JSON.parse(text);
          assert.deepEqual(problem.errors, [{
            loc: ["body", name],
            msg: "must be well-formed Unicode text (no lone UTF-16 surrogate)",
            type: "ill_formed_unicode",
          }], where);
          assert.ok(!text.includes("Secret"), `${where}: no echo`);
        }
      }
    }
    assert.ok(fields >= 10, `walked ${fields} string fields`);

    // Nested values and keys are found too; a valid surrogate pair is fine.
    const nested = await t.app.request("/api/v1/platform/feedback", {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
      body: '{"category": "bug", "message": "ok \\ud83d\\ude00"}',
    });
    assert.equal(nested.status, 200);
    const deep = await t.app.request("/api/v1/platform/feedback", {
      method: "POST",
      headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
      body: '{"category": "bug", "message": "x", "extra": [{"\\udfff": 1}]}',
    });
    assert.equal(deep.status, 422);
    assert.deepEqual((await deep.json()).errors[0].loc, ["body", "extra", 0]);
  } finally {
    await t.cleanup();
  }
});
