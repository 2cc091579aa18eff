/**
 * A typed client in three lines (see README, "Typed client"): openapi-fetch over the generated
 * client/schema.d.ts. Calls the runtime health check, ranks candidate occupations for a title
 * and searches the workforce catalog. Type-checked by `deno check`, so a renamed route or field
 * breaks the build, not the user.
 *
 *   OI_API_KEY=oik_… deno run --allow-net --allow-env client/example.ts [http://127.0.0.1:8000]
 */
import createClient from "openapi-fetch";
import type { paths } from "./schema.d.ts";

const api = createClient<paths>({
  baseUrl: Deno.args[0] ?? "http://127.0.0.1:8000",
  headers: { authorization: `Bearer ${Deno.env.get("OI_API_KEY") ?? ""}` },
});

const health = await api.GET("/api/v1/health");
if (health.error) throw new Error(`health: ${health.error.code}: ${health.error.detail}`);
console.log(`API ${health.data.api_version}, taxonomy ${health.data.taxonomy_version}`);

const ranked = await api.POST("/api/v1/occupation/candidates", {
  body: { title: "registered nurse", limit: 3 },
});
if (ranked.error) throw new Error(`candidates: ${ranked.error.code}: ${ranked.error.detail}`);
for (const candidate of ranked.data.candidates) {
  console.log(`${candidate.rank}. ${candidate.onet_code} ${candidate.title}`);
}

const catalog = await api.GET("/api/v1/workforce/occupations", {
  params: { query: { country_code: "US", query: "nurse", limit: 3 } },
});
if (catalog.error) throw new Error(`occupations: ${catalog.error.code}: ${catalog.error.detail}`);
for (const item of catalog.data.items) console.log(`${item.soc_code} ${item.title}`);
