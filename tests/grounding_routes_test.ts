/**
 * Customer grounding routes end to end on the embedded database (and on a real PostgreSQL in
 * tests/postgres_test.ts's mode when TEST_DATABASE_URL is set, through testApp): sources and
 * their states, text and file ingestion (Markdown, text, PDF, DOCX; a PDF without text, an
 * image), runs and versions, retrieval exclusion on disable and delete, reports (determinism,
 * conflict, abstention), tenant isolation on every route, and no raw text in any answer.
 */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { serverTestDatabase, TEST_DATABASE_URL, testApp } from "./helpers.ts";
import { call, signUp, type TestApp } from "./platform.ts";
import { runAdminCommand } from "../serve/platform/admin.ts";

const FIXTURES = fileURLToPath(new URL("../fixtures/grounding/", import.meta.url));
const MARKER = "ZQX-MARKER-7731";

async function entitledKey(app: TestApp, email: string, token: string): Promise<string> {
  await runAdminCommand(app.database.db, {
    kind: "entitlements",
    email,
    action: "add",
    entitlement: "customer_grounding",
  }, new Date());
  const created = await call(app, "POST", "/api/v1/platform/api-keys/create", {
    bearer: token,
    body: { name: "grounding" },
  });
  assert.equal(created.status, 200);
  return created.body.key as string;
}

async function upload(
  app: TestApp,
  key: string,
  sourceId: string,
  file: string,
  type: string,
  extra: Record<string, string> = {},
) {
  const form = new FormData();
  const bytes = await Deno.readFile(`${FIXTURES}${file}`);
  form.append("file", new File([bytes], file, { type }));
  for (const [k, v] of Object.entries(extra)) form.append(k, v);
  const response = await app.app.request(
    `/api/v1/grounding/sources/${encodeURIComponent(sourceId)}/ingest-file`,
    { method: "POST", headers: { authorization: `Bearer ${key}` }, body: form },
  );
  const text = await response.text();
  return { status: response.status, text, body: JSON.parse(text) };
}

async function run(label: string, options: Parameters<typeof testApp>[0]) {
  const app = await testApp({
    ...options,
    env: { BETA_RATE_PER_MINUTE: "1000000", BETA_MONTHLY_QUOTA: "10000000" },
  });
  try {
    const ada = await signUp(app);
    const key = await entitledKey(app, ada.email, ada.token);
    const plainKey = ada.key;
    const grace = await signUp(app, "grace@example.com", "other");
    const graceKey = await entitledKey(app, grace.email, grace.token);
    const req = (
      method: string,
      path: string,
      body?: unknown,
      bearer = key,
    ) => call(app, method, `/api/v1/grounding${path}`, { bearer, body });
    const texts: string[] = []; // every answer, to check for raw text afterwards

    // Entitlements: creation, file ingestion and reports need customer_grounding.
    const denied = await req("POST", "/sources", { title: "x" }, plainKey);
    assert.equal(denied.status, 403, label);
    const caps = await req("GET", "/capabilities", undefined, plainKey);
    assert.equal(caps.status, 200);
    assert.equal(caps.body.entitled, false);

    // Sources: create, duplicates, bounds, strictness, no echo.
    const nw = await req("POST", "/sources", {
      source_id: "northwind-de",
      title: "Northwind Analytics: Senior Data Engineer",
      owner: "Talent team",
      metadata: { team: "data" },
    });
    assert.equal(nw.status, 200, JSON.stringify(nw.body));
    assert.equal(nw.body.status, "active");
    assert.equal(nw.body.retention_class, "short_lived");
    assert.equal(nw.body.retention_days, 30);
    assert.equal(
      (await req("POST", "/sources", { source_id: "northwind-de", title: "again" }))
        .status,
      409,
    );
    const generated = await req("POST", "/sources", { title: "Bluefjord: Data Engineer" });
    assert.match(String(generated.body.source_id), /^src_[0-9a-f]{24}$/);
    const bf = String(generated.body.source_id);
    for (
      const [body, field] of [
        [{}, "title"],
        [{ title: "" }, "title"],
        [{ title: "x".repeat(501) }, "title"],
        [{ title: "t", source_id: "s".repeat(201) }, "source_id"],
        [{ title: "t", owner: "o".repeat(301) }, "owner"],
        [{ title: "t", retention_class: "r".repeat(101) }, "retention_class"],
        [{ title: "t", unknown: MARKER }, "unknown"],
      ] as [Record<string, unknown>, string][]
    ) {
      const r = await req("POST", "/sources", body);
      assert.equal(r.status, 422, JSON.stringify(body).slice(0, 60));
      assert.ok(
        (r.body.errors as { loc: string[] }[]).some((e) => e.loc.join(".").includes(field)),
        field,
      );
      assert.ok(!JSON.stringify(r.body).includes(MARKER));
    }

    // Text ingestion: bounds without echo, content types, versions.
    const md = await Deno.readTextFile(`${FIXTURES}northwind-data-engineer.md`);
    const ingested = await req("POST", "/sources/northwind-de/ingest-text", {
      text: `${md}\n\nInternal code ${MARKER}.`,
      version_label: "v1",
    });
    assert.equal(ingested.status, 200, JSON.stringify(ingested.body));
    const run1 = ingested.body.ingestion_run as Record<string, unknown>;
    assert.equal(run1.status, "succeeded");
    assert.ok((run1.counts as { chunks: number }).chunks >= 2);
    texts.push(JSON.stringify(ingested.body));
    const tooLong = await req("POST", "/sources/northwind-de/ingest-text", {
      text: MARKER.repeat(2000),
    });
    assert.equal(tooLong.status, 422);
    assert.ok(!JSON.stringify(tooLong.body).includes(MARKER), "no echo of submitted text");
    assert.equal(
      (await req("POST", "/sources/northwind-de/ingest-text", { text: "a", content_type: "x/y" }))
        .status,
      422,
    );
    assert.equal(
      (await req("POST", "/sources/northwind-de/ingest-text", { text: "a", extra: 1 })).status,
      422,
    );
    assert.equal((await req("POST", "/sources/nope/ingest-text", { text: "a" })).status, 404);

    // File ingestion: DOCX, PDF (pages), text; a PDF without text fails its run; an image 415.
    const docx = await upload(
      app,
      key,
      bf,
      "bluefjord-data-engineer.docx",
      "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
      { version_label: "2026", metadata_json: '{"origin":"hr"}' },
    );
    assert.equal(docx.status, 200, docx.text);
    assert.equal(docx.body.version.content_type.includes("wordprocessingml"), true);
    texts.push(docx.text);
    await req("POST", "/sources", { source_id: "nurse", title: "Harbor Valley: RN" });
    const pdf = await upload(app, key, "nurse", "harbor-valley-registered-nurse.pdf", "");
    assert.equal(pdf.status, 200, pdf.text);
    assert.ok(pdf.body.version.counts.pages >= 2);
    texts.push(pdf.text);
    const scanned = await upload(app, key, "nurse", "scanned-no-text.pdf", "application/pdf");
    assert.equal(scanned.status, 422, scanned.text);
    assert.equal(scanned.body.code, "ingestion_failed");
    const failedRun = scanned.body.ingestion_run as { ingestion_run_id: string; status: string };
    assert.equal(failedRun.status, "failed");
    const fetchedRun = await req("GET", `/ingestion-runs/${failedRun.ingestion_run_id}`);
    assert.equal(fetchedRun.status, 200);
    assert.equal((fetchedRun.body.error as { code: string }).code, "no_extractable_text");
    assert.equal(fetchedRun.body.version_id, null);
    const image = await upload(app, key, "nurse", "badge.png", "image/png");
    assert.equal(image.status, 415, image.text);
    const badMeta = await upload(app, key, "nurse", "harbor-valley-registered-nurse.pdf", "", {
      metadata_json: "[1]",
    });
    assert.equal(badMeta.status, 422);
    const plainUpload = await upload(app, plainKey, "nurse", "badge.png", "image/png");
    assert.equal(plainUpload.status, 403, "file ingestion needs the entitlement");

    // Versions, artifacts (metadata only) and runs.
    const versions = await req("GET", "/sources/nurse/versions");
    assert.equal((versions.body.versions as unknown[]).length, 1);
    const artifacts = await req("GET", "/sources/northwind-de/artifacts");
    const list = artifacts.body.artifacts as { start_char: number; end_char: number }[];
    assert.ok(list.length >= 2 && list.every((a) => a.end_char > a.start_char));
    texts.push(JSON.stringify(artifacts.body));
    const runs = await req("GET", "/sources/nurse/ingestion-runs?limit=2");
    assert.equal((runs.body.ingestion_runs as unknown[]).length, 2);
    assert.equal((await req("GET", "/sources/nurse/ingestion-runs?limit=0")).status, 422);
    assert.equal((await req("GET", "/sources/nurse/ingestion-runs?limit=101")).status, 422);
    texts.push(JSON.stringify(runs.body));

    // Reports: deterministic, cite chunks, flag the experience conflict across sources.
    const reportBody = {
      role_title: "Data Engineer",
      role_context: `Context with ${MARKER}`,
      focus_areas: ["Apache Spark", "Kubernetes"],
      include_passport: true,
    };
    const first = await req("POST", "/role-intelligence/reports", reportBody);
    assert.equal(first.status, 200, JSON.stringify(first.body).slice(0, 400));
    const second = await req("POST", "/role-intelligence/reports", reportBody);
    assert.deepEqual(second.body, first.body, "identical request, identical report");
    texts.push(JSON.stringify(first.body));
    const passport = first.body.passport as Record<string, unknown>;
    assert.ok(passport, "passport requested");
    const refs = first.body.evidence_references as { id: string; source_id: string }[];
    assert.ok(refs.length > 0);
    assert.ok(refs.every((r) => ["northwind-de", bf, "nurse"].includes(r.source_id)));
    const conflicts = passport.conflicts as { code: string }[];
    assert.ok(conflicts.some((cf) => /experience|seniority/.test(cf.code)), "conflict found");
    assert.equal(passport.status, "review_required");
    const decision = String((passport as { decision_id: string }).decision_id);
    const got = await req("GET", `/reports/${decision}`);
    assert.deepEqual(got.body, first.body);
    const traceId = String(first.body.trace_id);
    const trace = await req("GET", `/traces/${traceId}`);
    assert.equal(trace.status, 200);
    texts.push(JSON.stringify(trace.body));
    assert.equal(
      ((await req("GET", "/reports")).body.reports as unknown[]).length,
      1,
      "the same report is stored once",
    );

    assert.equal(((await req("GET", "/traces?limit=5")).body.traces as unknown[]).length, 1);

    // Report request bounds: each a 422 naming the field, nothing echoed.
    for (
      const [body, field] of [
        [{}, "role_title"],
        [{ role_title: "" }, "role_title"],
        [{ role_title: MARKER.repeat(40) }, "role_title"],
        [{ role_title: "x", role_context: MARKER.repeat(700) }, "role_context"],
        [{ role_title: "x", focus_areas: Array(21).fill("a") }, "focus_areas"],
        [{ role_title: "x", source_ids: Array(21).fill("a") }, "source_ids"],
        [{ role_title: "x", top_k: 0 }, "top_k"],
        [{ role_title: "x", top_k: 21 }, "top_k"],
        [{ role_title: "x", include_passport: "yes" }, "include_passport"],
        [{ role_title: "x", prompt: MARKER }, "prompt"],
      ] as [Record<string, unknown>, string][]
    ) {
      const r = await req("POST", "/role-intelligence/reports", body);
      assert.equal(r.status, 422, field);
      assert.ok(
        (r.body.errors as { loc: string[] }[]).some((e) => e.loc.join(".").includes(field)),
        field,
      );
      assert.ok(!JSON.stringify(r.body).includes(MARKER));
    }
    const plainReport = await req("POST", "/role-intelligence/reports", reportBody, plainKey);
    assert.equal(plainReport.status, 403, "reports need the entitlement");

    // A file over the 10 MiB limit is 413.
    const big = new FormData();
    big.append("file", new File([new Uint8Array(10 * 1024 * 1024 + 1)], "big.txt"));
    const tooBig = await app.app.request("/api/v1/grounding/sources/nurse/ingest-file", {
      method: "POST",
      headers: { authorization: `Bearer ${key}` },
      body: big,
    });
    assert.equal(tooBig.status, 413);
    await tooBig.body?.cancel();

    // A role with no supporting evidence abstains.
    const abstain = await req("POST", "/role-intelligence/reports", {
      role_title: "Pastry Chef",
      focus_areas: ["laminated dough"],
      include_passport: true,
    });
    assert.equal(abstain.status, 200);
    assert.equal((abstain.body.passport as { status: string }).status, "abstained");
    // Without the passport the stored report is still listed as abstained.
    const quiet = await req("POST", "/role-intelligence/reports", {
      role_title: "Pastry Chef",
      focus_areas: ["croissants"],
    });
    assert.equal(quiet.body.passport, null);
    const listedReports = (await req("GET", "/reports")).body.reports as {
      trace_id: string;
      status: string;
    }[];
    const quietRow = listedReports.find((r) => r.trace_id === quiet.body.trace_id);
    assert.equal(quietRow?.status, "abstained");

    // Disable excludes a source from retrieval; enable brings it back.
    assert.equal((await req("POST", "/sources/northwind-de/disable", {})).body.status, "disabled");
    assert.equal((await req("POST", "/sources/northwind-de/disable", { x: 1 })).status, 422);
    const withoutNw = await req("POST", "/role-intelligence/reports", reportBody);
    const nwRefs = (withoutNw.body.evidence_references as { source_id: string }[])
      .filter((r) => r.source_id === "northwind-de");
    assert.equal(nwRefs.length, 0, "a disabled source is not retrieved");
    assert.equal((await req("POST", "/sources/northwind-de/enable")).body.status, "active");

    // Delete: excluded, then tombstoned; content gone, record kept; a second delete is 409.
    const deleted = await req("DELETE", "/sources/northwind-de", { reason: "role filled" });
    assert.equal(deleted.status, 200);
    assert.equal(deleted.body.status, "deleted");
    assert.equal(deleted.body.retrievable, false);
    assert.ok(Number(deleted.body.chunks_removed) >= 2);
    assert.equal((deleted.body.deletion as { reason: string }).reason, "role filled");
    assert.equal((await req("DELETE", "/sources/northwind-de")).status, 409);
    assert.equal(
      ((await req("GET", "/sources/northwind-de/artifacts")).body.artifacts as unknown[]).length,
      0,
    );
    assert.equal((await req("POST", "/sources/northwind-de/enable")).status, 409);
    assert.equal(
      (await req("POST", "/sources/northwind-de/ingest-text", { text: "new" })).status,
      409,
    );
    const afterDelete = await req("POST", "/role-intelligence/reports", reportBody);
    assert.ok(
      (afterDelete.body.evidence_references as { source_id: string }[])
        .every((r) => r.source_id !== "northwind-de"),
    );
    assert.equal(
      (await req("POST", "/role-intelligence/reports", {
        ...reportBody,
        source_ids: ["northwind-de"],
      }))
        .status,
      422,
    );

    // Tenant isolation: another account sees none of it on any route.
    const g = (method: string, path: string, body?: unknown) => req(method, path, body, graceKey);
    assert.deepEqual((await g("GET", "/sources")).body.sources, []);
    for (
      const [method, path, body] of [
        ["GET", "/sources/nurse"],
        ["DELETE", "/sources/nurse"],
        ["POST", "/sources/nurse/ingest-text", { text: "x" }],
        ["GET", "/sources/nurse/versions"],
        ["GET", "/sources/nurse/artifacts"],
        ["GET", "/sources/nurse/ingestion-runs"],
        ["POST", "/sources/nurse/disable"],
        ["POST", "/sources/nurse/enable"],
        ["GET", `/ingestion-runs/${failedRun.ingestion_run_id}`],
        ["GET", `/traces/${traceId}`],
        ["GET", `/reports/${decision}`],
      ] as [string, string, unknown?][]
    ) {
      assert.equal((await g(method, path, body)).status, 404, `${method} ${path}`);
    }
    const graceUpload = await upload(app, graceKey, "nurse", "badge.png", "image/png");
    assert.equal(graceUpload.status, 404);
    assert.deepEqual((await g("GET", "/reports")).body.reports, []);
    assert.deepEqual((await g("GET", "/traces")).body.traces, []);
    const graceReport = await g("POST", "/role-intelligence/reports", reportBody);
    assert.equal((graceReport.body.evidence_references as unknown[]).length, 0);
    assert.equal(
      (await g("POST", "/role-intelligence/reports", { ...reportBody, source_ids: ["nurse"] }))
        .status,
      422,
    );
    const graceUsage = await g("GET", "/usage");
    assert.deepEqual(graceUsage.body.ingestion_runs, []);

    // Usage aggregates the tenant's activity.
    const usage = await req("GET", "/usage");
    assert.ok((usage.body.ingestion_runs as unknown[]).length >= 2);
    assert.equal(
      (await req("GET", "/usage?from=2026-01-02T00:00:00Z&to=2026-01-01T00:00:00Z")).status,
      422,
    );
    assert.equal((await req("GET", "/usage?from=yesterday")).status, 422);

    // No answer carried the raw text or the role context.
    for (const text of texts) {
      assert.ok(!text.includes(MARKER), "raw text or role context leaked");
      assert.ok(!text.includes("Northwind Analytics builds demand-forecasting"));
    }
  } finally {
    await app.cleanup();
  }
}

Deno.test("grounding routes (embedded PGlite)", async () => {
  await run("pglite", {});
});

Deno.test({
  name: "grounding routes (PostgreSQL server)",
  ignore: !TEST_DATABASE_URL,
  async fn() {
    const database = await serverTestDatabase();
    try {
      await run("postgres", { database: database.database });
    } finally {
      await database.cleanup();
    }
  },
});
