/**
 * Workforce routes on the reviewed fixture snapshots: capabilities, the help catalog with
 * signed cursors, occupation detail, evidence packs (403, 201, 200 reuse, 409, 422, tenant
 * scoping) and the report's headers.
 */
import assert from "node:assert/strict";
import { testApp } from "./helpers.ts";
import { call, signUp, type TestApp } from "./platform.ts";
import { runAdminCommand } from "../serve/platform/admin.ts";
import { canonicalize } from "../serve/text/canonical.ts";
import { createHash } from "node:crypto";

const B64URL = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

async function entitledKey(app: TestApp, email: string, token: string): Promise<string> {
  await runAdminCommand(app.database.db, {
    kind: "entitlements",
    email,
    action: "add",
    entitlement: "workforce_evidence_packs",
  }, new Date());
  const created = await call(app, "POST", "/api/v1/platform/api-keys/create", {
    bearer: token,
    body: { name: "packs" },
  });
  assert.equal(created.status, 200, JSON.stringify(created.body));
  return created.body.key as string;
}

Deno.test("workforce routes", async (t) => {
  const app = await testApp({
    evidence: true,
    env: { BETA_RATE_PER_MINUTE: "1000000", BETA_MONTHLY_QUOTA: "10000000" },
  });
  try {
    const { key, token, email } = await signUp(app);
    const get = (path: string, bearer = key) => call(app, "GET", path, { bearer });

    await t.step("capabilities: US supported, another code answered, bad codes 422", async () => {
      const us = await get("/api/v1/workforce/capabilities?country_code=us");
      assert.equal(us.status, 200);
      assert.equal(us.body.supported, true);
      assert.equal(us.body.country_code, "US");
      const levels = us.body.geography_levels as { level: string; available: boolean }[];
      assert.deepEqual(levels.map((l) => [l.level, l.available]), [
        ["national", true],
        ["state", false],
      ]);
      const evidence = us.body.evidence as { sources: { kind: string }[]; oews_vintages: string[] };
      assert.deepEqual(evidence.oews_vintages, ["2025-05", "2024-05"]);
      assert.ok(evidence.sources.some((s) => s.kind === "qwi_sector_employment"));
      const notOffered = (us.body.not_offered as { capability: string }[]).map((n) => n.capability);
      for (const c of ["evidence_pack_creation_without_entitlement", "onet_v2_enrichment"]) {
        assert.ok(notOffered.includes(c), c);
      }
      assert.ok(notOffered.includes("naics_inference"));
      assert.equal(
        (us.body.evidence_packs as { available_to_this_key: boolean })
          .available_to_this_key,
        false,
      );
      const fr = await get("/api/v1/workforce/capabilities?country_code=FR");
      assert.equal(fr.status, 200);
      assert.equal(fr.body.supported, false);
      assert.deepEqual(fr.body.supported_countries, ["US"]);
      for (const bad of ["USA", "U", "", "1A"]) {
        const r = await get(`/api/v1/workforce/capabilities?country_code=${bad}`);
        assert.equal(r.status, 422, bad);
        assert.deepEqual((r.body.errors as { loc: string[] }[])[0].loc, ["query", "country_code"]);
      }
      assert.equal((await get("/api/v1/workforce/capabilities")).status, 422);
    });

    await t.step("catalog: stable pages with signed cursors to the end", async () => {
      const seen: string[] = [];
      let cursor: string | null = null;
      let pages = 0;
      do {
        const r = await get(
          `/api/v1/workforce/occupations?country_code=US&limit=7` +
            (cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""),
        );
        assert.equal(r.status, 200);
        seen.push(...(r.body.items as { soc_code: string }[]).map((i) => i.soc_code));
        cursor = r.body.next_cursor as string | null;
        pages++;
      } while (cursor && pages < 50);
      assert.equal(cursor, null);
      assert.deepEqual(seen, [...seen].sort());
      assert.equal(new Set(seen).size, seen.length);
      const all = await get("/api/v1/workforce/occupations?country_code=US&limit=100");
      assert.equal(all.body.total, seen.length);
      assert.equal(all.body.next_cursor, null);
    });

    await t.step(
      "catalog: query matches codes, SOC titles and O*NET titles, help only",
      async () => {
        const nurse = await get("/api/v1/workforce/occupations?country_code=US&query=nurs");
        const items = nurse.body.items as { soc_code: string; matched_on: string }[];
        assert.ok(items.some((i) => i.soc_code === "29-1141" && i.matched_on === "soc_title"));
        const code = await get("/api/v1/workforce/occupations?country_code=US&query=15-12");
        const codes = code.body.items as { soc_code: string; matched_on: string }[];
        assert.ok(codes.length > 0 && codes.every((i) => i.soc_code.startsWith("15-12")));
        assert.ok(codes.every((i) => i.matched_on === "soc_code"));
        assert.ok(!("score" in (codes[0] as object)));
        const fr = await get("/api/v1/workforce/occupations?country_code=FR");
        assert.equal(fr.status, 200);
        assert.equal(fr.body.supported, false);
        assert.deepEqual(fr.body.items, []);
      },
    );

    await t.step(
      "catalog: tampered, foreign and oversized cursors and bounds are 422",
      async () => {
        const first = await get("/api/v1/workforce/occupations?country_code=US&limit=2");
        const cursor = first.body.next_cursor as string;
        const [body, tag] = cursor.split(".");
        const state = JSON.parse(atob(body.replaceAll("-", "+").replaceAll("_", "/")));
        const forgedBody = btoa(JSON.stringify({ ...state, o: 0 })).replaceAll("+", "-")
          .replaceAll("/", "_").replace(/=+$/, "");
        for (
          const bad of [
            `${forgedBody}.${tag}`,
            // The first character of the tag: six bits of the signature, never padding.
            `${body}.${tag[0] === "A" ? "B" : "A"}${tag.slice(1)}`,
            // The last character's padding bits: the same bytes, spelled another way.
            `${body}.${tag.slice(0, -1)}${B64URL[B64URL.indexOf(tag.at(-1)!) ^ 1]}`,
            "not-a-cursor",
            "x".repeat(501),
          ]
        ) {
          const r = await get(
            `/api/v1/workforce/occupations?country_code=US&limit=2&cursor=${
              encodeURIComponent(bad)
            }`,
          );
          assert.equal(r.status, 422, bad.slice(0, 20));
          assert.deepEqual((r.body.errors as { loc: string[] }[])[0].loc, ["query", "cursor"]);
          assert.ok(!JSON.stringify(r.body).includes(bad.slice(0, 30)), "no echo");
        }
        const other = await get(
          `/api/v1/workforce/occupations?country_code=US&query=nurse&cursor=${
            encodeURIComponent(cursor)
          }`,
        );
        assert.equal(other.status, 422, "a cursor of another query");
        for (const q of ["limit=0", "limit=101", "limit=x", `query=${"a".repeat(201)}`]) {
          const r = await get(`/api/v1/workforce/occupations?country_code=US&${q}`);
          assert.equal(r.status, 422, q);
        }
        assert.equal((await get("/api/v1/workforce/occupations")).status, 422);
      },
    );

    await t.step(
      "detail: groups, O*NET codes, bounded skills and tasks, OEWS headline",
      async () => {
        const r = await get("/api/v1/workforce/occupations/15-1252?country_code=US");
        assert.equal(r.status, 200);
        assert.equal(r.body.title, "Software Developers");
        const groups = r.body.groups as Record<string, { code: string }>;
        assert.deepEqual(
          [groups.major.code, groups.minor.code, groups.broad.code],
          ["15-0000", "15-1200", "15-1250"],
        );
        assert.deepEqual(
          (r.body.onet_occupations as { onet_code: string }[]).map((o) => o.onet_code),
          ["15-1252.00"],
        );
        const skills = r.body.skills as { bound: number; items: unknown[] };
        assert.equal(skills.bound, 10);
        assert.ok(skills.items.length > 0 && skills.items.length <= 10);
        const oews = r.body.oews as {
          vintage: string;
          employment: { value: number };
          lineage: { sha256: string; row_key: string };
        };
        assert.equal(oews.vintage, "May 2025");
        assert.ok(oews.employment.value > 1_000_000);
        assert.match(oews.lineage.sha256, /^[0-9a-f]{64}$/);
        assert.match(oews.lineage.row_key, /^line \d+: OCC_CODE=15-1252/);
        assert.deepEqual(r.body.other_oews_vintages, ["May 2024"]);
        for (
          const [path, status] of [
            ["15-125", 422],
            ["151252", 422],
            ["15-1252x", 422],
            ["99-9999", 404],
            ["15-0000", 404],
          ] as const
        ) {
          const res = await get(`/api/v1/workforce/occupations/${path}?country_code=US`);
          assert.equal(res.status, status, path);
        }
        assert.equal((await get("/api/v1/workforce/occupations/15-1252")).status, 422);
      },
    );

    const packBody = { soc_code: "15-1252", country_code: "US" };
    await t.step("packs: 403 without the entitlement, naming the controlled beta", async () => {
      const r = await call(app, "POST", "/api/v1/workforce/evidence-packs", {
        bearer: key,
        body: packBody,
      });
      assert.equal(r.status, 403);
      assert.match(String(r.body.detail), /controlled-beta/);
    });

    const packsKey = await entitledKey(app, email, token);
    await t.step(
      "capabilities: an answer kept for a target is not given to an entitled key",
      async () => {
        // The same target answered (and kept) for the key without the entitlement above.
        const path = "/api/v1/workforce/capabilities?country_code=us";
        const entitled = await get(path, packsKey);
        assert.equal(entitled.status, 200);
        const packs = entitled.body.evidence_packs as { available_to_this_key: boolean };
        assert.equal(packs.available_to_this_key, true);
        assert.deepEqual((await get(path, packsKey)).body, entitled.body);
      },
    );
    let packId = "";
    await t.step("packs: 201 new, then 200 with the same id and body", async () => {
      const first = await call(app, "POST", "/api/v1/workforce/evidence-packs", {
        bearer: packsKey,
        body: packBody,
      });
      assert.equal(first.status, 201, JSON.stringify(first.body));
      packId = first.body.evidence_pack_id as string;
      assert.match(packId, /^ep_[0-9a-f]{32}$/);
      const again = await call(app, "POST", "/api/v1/workforce/evidence-packs", {
        bearer: packsKey,
        body: { country_code: "us", soc_code: "15-1252", sections: ["tasks", ...PACK_ALL] },
      });
      assert.equal(again.status, 200);
      assert.deepEqual(again.body, first.body);
      // The same request through the account's other key is the same pack.
      const doc = await get(`/api/v1/workforce/evidence-packs/${packId}`);
      assert.equal(doc.status, 200);
      assert.equal(doc.body.evidence_pack_id, packId);
    });

    await t.step("packs: the document carries lineage for every figure and its hash", async () => {
      const response = await app.app.request(`/api/v1/workforce/evidence-packs/${packId}`, {
        headers: { authorization: `Bearer ${packsKey}` },
      });
      const text = await response.text();
      const doc = JSON.parse(text);
      assert.equal(text, canonicalize(doc), "served as its RFC 8785 canonical JSON");
      const { integrity, ...rest } = doc;
      assert.equal(
        integrity.sha256,
        createHash("sha256").update(canonicalize(rest)).digest("hex"),
      );
      const ids = new Set((doc.lineage as { id: string }[]).map((l) => l.id));
      const refs = JSON.stringify(doc).match(/"lineage_id":"[^"]+"/g) ?? [];
      assert.ok(refs.length > 5);
      for (const ref of refs) assert.ok(ids.has(ref.slice(14, -1)), ref);
      for (const entry of doc.lineage) {
        assert.match(entry.sha256, /^[0-9a-f]{64}$/);
        assert.ok(entry.row_key.length > 5 && entry.review.reviewer);
      }
      const vintages = doc.employment_and_wages.vintages as { vintage: string }[];
      assert.deepEqual(vintages.map((v) => v.vintage), ["May 2025", "May 2024"]);
      assert.ok(!/growth|change_rate/i.test(JSON.stringify(doc.employment_and_wages)));
      assert.ok(doc.industries.rows.length > 3);
      assert.equal(doc.industry_dynamics.context_only, true);
      assert.ok(doc.boundaries.some((b: string) => /not a time series/.test(b)));
    });

    await t.step("packs: 409 names the unavailable evidence", async () => {
      const cases: [Record<string, unknown>, RegExp][] = [
        [{ ...packBody, oews_vintages: ["2019-05"] }, /2019-05/],
        [{ ...packBody, geography: { level: "state", code: "NC" } }, /state NC/],
        [{ ...packBody, country_code: "FR" }, /FR/],
        // The sample's industry-sector file has no row for Registered Nurses.
        [{ soc_code: "29-1141", country_code: "US", sections: ["industries"] }, /29-1141/],
      ];
      for (const [body, pattern] of cases) {
        const r = await call(app, "POST", "/api/v1/workforce/evidence-packs", {
          bearer: packsKey,
          body,
        });
        assert.equal(r.status, 409, JSON.stringify(body));
        assert.equal(r.body.code, "evidence_unavailable");
        const unavailable = r.body.unavailable as { evidence: string; reason: string }[];
        assert.ok(unavailable.some((u) => pattern.test(u.reason)), JSON.stringify(unavailable));
      }
    });

    await t.step("packs: validation 422s name the field", async () => {
      const cases: [unknown, string][] = [
        [{ country_code: "US" }, "soc_code"],
        [{ soc_code: "15-125", country_code: "US" }, "soc_code"],
        [{ soc_code: "99-9999", country_code: "US" }, "soc_code"],
        [{ soc_code: "15-1252", country_code: "USA" }, "country_code"],
        [{ ...packBody, sections: [] }, "sections"],
        [{ ...packBody, sections: ["salaries"] }, "sections"],
        [{ ...packBody, extra: 1 }, "extra"],
      ];
      for (const [body, field] of cases) {
        const r = await call(app, "POST", "/api/v1/workforce/evidence-packs", {
          bearer: packsKey,
          body,
        });
        assert.equal(r.status, 422, JSON.stringify(body));
        const locs = (r.body.errors as { loc: (string | number)[] }[]).map((e) => e.loc.join("."));
        assert.ok(locs.some((l) => l.includes(field)), `${field}: ${locs}`);
      }
    });

    await t.step("packs: another account's id is 404; malformed ids are 422", async () => {
      const other = await signUp(app, "grace@example.com", "other");
      for (const path of ["", "/report?format=html"]) {
        const r = await get(`/api/v1/workforce/evidence-packs/${packId}${path}`, other.key);
        assert.equal(r.status === 404 ? 404 : r.status, 404);
      }
      assert.equal((await get("/api/v1/workforce/evidence-packs/ep_123")).status, 422);
      assert.equal(
        (await get(`/api/v1/workforce/evidence-packs/${packId}/report?format=pdf`)).status,
        422,
      );
    });

    await t.step("report: standalone HTML with a CSP that forbids loading anything", async () => {
      const response = await app.app.request(
        `/api/v1/workforce/evidence-packs/${packId}/report?format=html`,
        { headers: { authorization: `Bearer ${packsKey}` } },
      );
      assert.equal(response.status, 200);
      assert.match(response.headers.get("content-type") ?? "", /^text\/html/);
      const csp = response.headers.get("content-security-policy") ?? "";
      assert.match(csp, /default-src 'none'/);
      const html = await response.text();
      assert.ok(!/<script/i.test(html));
      assert.ok(html.includes("Software Developers"));
      const plain = await app.app.request(
        `/api/v1/workforce/evidence-packs/${packId}/report`,
        { headers: { authorization: `Bearer ${packsKey}` } },
      );
      assert.equal(plain.status, 200, "format defaults to html");
      await plain.body?.cancel();
    });
  } finally {
    await app.cleanup();
  }
});

const PACK_ALL = ["employment", "wages", "industries", "industry_dynamics", "skills", "tasks"];
