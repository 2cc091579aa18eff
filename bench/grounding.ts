/**
 * `deno task bench:grounding`: customer grounding (issue 11) quality and speed.
 *
 * 1. Quality on the labelled set (fixtures/grounding/labelled_reports.json): evaluateReports
 *    with the production chunker, as serve/grounding/evaluate_test.ts does. Targets: citation
 *    precision >= 0.95, and every request without supporting evidence abstains.
 * 2. Ingest throughput through the real route, in process (app.request: the whole Hono app with
 *    authentication, limits, multipart parsing, extraction, chunking and the Postgres writes; no
 *    network): the PDF and DOCX fixtures posted to POST /sources/{id}/ingest-file N times each
 *    after a warm-up (unpdf and mammoth load lazily), each into a new version. Pages per second
 *    (the DOCX counts one page per version) and characters per second.
 * 3. Report latency of POST /role-intelligence/reports, in process, with >= 1,000 chunks in the
 *    tenant: a corpus built deterministically (seeded PRNG) from the labelled sources and the
 *    fixture documents with light variations (employer names, numbers, line order), ingested
 *    through ingest-text; then sequential report requests over ~20 role titles and focus areas
 *    (include_passport true) after a warm-up. Target: p99 < 200 ms. The split (occupation view,
 *    retrieval SQL, composeReport) is timed by calling the same pieces directly.
 *
 * The occupation engine runs over the full taxonomy artifact in ./artifacts (`--artifacts DIR`
 * to override). Embedded PGlite in a temporary folder, or a scratch database on the
 * DATABASE_URL server when set (dropped at the end).
 *
 * Flags: --quick (10 ingest repetitions, 50 reports), --reps N (50), --reports N (200),
 * --chunks N (1000), --seed N (42), --artifacts DIR.
 */
import { join, resolve } from "node:path";
import { createHash } from "node:crypto";
import { tokenFromEmail } from "../tests/helpers.ts";
import { loadConfig } from "../serve/config.ts";
import { jsonLogger } from "../serve/http/log.ts";
import {
  createScratchDatabase,
  type Database,
  openPglite,
  openPostgres,
} from "../serve/stores/postgres.ts";
import { migrate } from "../serve/stores/migrate.ts";
import { ArtifactRegistry } from "../serve/stores/artifacts.ts";
import { taxonomySpec } from "../serve/occupation/artifact.ts";
import { withTaxonomy } from "../serve/occupation/mod.ts";
import { createApp } from "../serve/app.ts";
import { closePlatform, createPlatform, type PlatformContext } from "../serve/platform/mod.ts";
import { openText } from "../serve/platform/secrets.ts";
import { runAdminCommand } from "../serve/platform/admin.ts";
import { chunkText } from "../serve/grounding/chunk.ts";
import { evaluateReports, loadLabelledSet } from "../serve/grounding/evaluate.ts";
import { extractDocument } from "../serve/grounding/documents.ts";
import { occupationView } from "../serve/grounding/occupation_view.ts";
import { composeReport } from "../serve/grounding/report.ts";
import { GroundingStore } from "../serve/grounding/store.ts";
import { RETRIEVAL_LIMIT } from "../serve/grounding/mod.ts";
import { flagReader, loadAverage } from "./beside_health.ts";
import { type LatencySummary, summarize } from "./load.ts";
import { LIMITS, type Send, signUp } from "./platform.ts";

const ROOT = new URL("..", import.meta.url).pathname;
const FIXTURES = join(ROOT, "fixtures/grounding");
const LABELLED_SET = join(FIXTURES, "labelled_reports.json");
const TARGETS = { citationPrecision: 0.95, p99Ms: 200 };
const PDF = "harbor-valley-registered-nurse.pdf";
const DOCX = "bluefjord-data-engineer.docx";
const DOCX_TYPE = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";
const API = "/api/v1/grounding";

/** Settings of a run, from the command line. */
interface Options {
  quick: boolean;
  reps: number;
  reports: number;
  chunks: number;
  seed: number;
  artifacts: string;
}

function parseArgs(args: string[]): Options {
  const { value, count } = flagReader(args);
  const quick = args.includes("--quick");
  return {
    quick,
    reps: count("--reps", quick ? 10 : 50),
    reports: count("--reports", quick ? 50 : 200),
    chunks: count("--chunks", 1000),
    seed: count("--seed", 42, 0),
    artifacts: resolve(value("--artifacts") ?? join(ROOT, "artifacts")),
  };
}

/** A small seeded PRNG (mulberry32): the corpus and the request mix are the same every run. */
function prng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (n: number) => Math.floor(next() * n),
    pick: <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)],
  };
}
type Rng = ReturnType<typeof prng>;

const f = (v: number, digits = 1) => v.toFixed(digits);
const ratio = (v: number) => v.toFixed(4);

function latencyLine(label: string, s: LatencySummary): string {
  return `    ${label.padEnd(34)} p50 ${f(s.p50, 2).padStart(7)} ms   p99 ${
    f(s.p99, 2).padStart(7)
  } ms   max ${f(s.max, 2).padStart(7)} ms   mean ${f(s.mean, 2).padStart(7)} ms`;
}

// ---------------------------------------------------------------------------------------
// 1. Quality on the labelled set

async function qualityPart(): Promise<boolean> {
  const set = await loadLabelledSet(LABELLED_SET);
  const result = evaluateReports(
    set,
    (text) => chunkText({ content_type: "text/markdown", text, page_starts: [0] }),
  );
  const mustAbstain = set.cases.filter((c) => c.expected.abstain).map((c) => c.id);
  const abstainedAll = mustAbstain.every((id) => result.cases.find((c) => c.id === id)!.abstained);
  const precisionMet = result.citation_precision >= TARGETS.citationPrecision;
  const citations = result.cases.reduce((n, c) => n + c.citations, 0);
  console.log(
    `\n1. Quality: ${set.cases.length} labelled cases (${mustAbstain.length} without supporting ` +
      `evidence), composeReport over the production chunker (${citations} citations)`,
  );
  console.log(
    `    citation precision   ${ratio(result.citation_precision)}   target >= ` +
      `${TARGETS.citationPrecision}: ${precisionMet ? "met" : "NOT met"}`,
  );
  console.log(`    citation recall      ${ratio(result.citation_recall)}`);
  console.log(`    statement recall     ${ratio(result.statement_recall)}`);
  console.log(`    statement precision  ${ratio(result.statement_precision)}`);
  console.log(`    abstention accuracy  ${ratio(result.abstention_accuracy)}`);
  console.log(`    conflict accuracy    ${ratio(result.conflict_accuracy)}`);
  console.log(
    `    abstains on every request without supporting evidence (${mustAbstain.join(", ")}): ` +
      `${abstainedAll ? "met" : "NOT met"}`,
  );
  const unsupported = result.cases.flatMap((c) => c.unsupported);
  if (unsupported.length > 0) console.log(`    unsupported citations: ${unsupported.join(", ")}`);
  return precisionMet && abstainedAll;
}

// ---------------------------------------------------------------------------------------
// The in-process app

export interface Bench {
  send: Send;
  key: string;
  tenant: string;
  platform: PlatformContext;
  artifacts: ArtifactRegistry;
  database: Database;
}

async function call(bench: Bench, method: string, path: string, body?: unknown) {
  const headers: Record<string, string> = { authorization: `Bearer ${bench.key}` };
  if (body !== undefined) headers["content-type"] = "application/json";
  const response = await bench.send(`${API}${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  if (response.status !== 200) {
    throw new Error(`${method} ${path}: ${response.status} ${text.slice(0, 300)}`);
  }
  return JSON.parse(text);
}

async function uploadFile(
  bench: Bench,
  sourceId: string,
  name: string,
  bytes: Uint8Array<ArrayBuffer>,
) {
  const form = new FormData();
  form.append("file", new File([bytes], name, { type: name.endsWith(".pdf") ? "" : DOCX_TYPE }));
  const response = await bench.send(`${API}/sources/${sourceId}/ingest-file`, {
    method: "POST",
    headers: { authorization: `Bearer ${bench.key}` },
    body: form,
  });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`ingest-file ${name}: ${response.status} ${text}`);
  return JSON.parse(text) as { version: { counts: { pages: number; characters: number } } };
}

/** Wires the app over the database and artifacts, signs up an entitled key, raises limits. */
export async function startBench(database: Database, artifacts: ArtifactRegistry): Promise<Bench> {
  const logger = jsonLogger("warn");
  const { db } = database;
  const env = { BETA_ENTITLEMENTS: "customer_grounding" };
  const wire = async () => {
    const config = loadConfig(env);
    const platform = await createPlatform({
      db,
      config,
      logger,
      instanceId: `bench-${crypto.randomUUID()}`,
    });
    const app = createApp({ config, database, artifacts, logger, platform });
    const send: Send = (path, init) => Promise.resolve(app.request(path, init));
    return { platform, send };
  };
  const email = `bench-${crypto.randomUUID().slice(0, 8)}@example.com`;
  const signer = await wire();
  const { key } = await signUp(signer.send, email, async () => {
    await signer.platform.tasks.drain(); // registration writes its email after answering
    const mail = await db.selectFrom("email_outbox").select("body_encrypted")
      .where("recipient", "=", email).where("kind", "=", "verify_email")
      .orderBy("id", "desc").executeTakeFirstOrThrow();
    return tokenFromEmail(await openText(signer.platform.keys.outboxKey, mail.body_encrypted!));
  });
  await closePlatform(signer.platform);
  await runAdminCommand(db, { kind: "limits", email, changes: LIMITS }, new Date());
  const account = await db.selectFrom("accounts").select("id").where("email", "=", email)
    .executeTakeFirstOrThrow();
  const { platform, send } = await wire();
  console.log(
    `  signed up ${email} through the app with the customer_grounding entitlement ` +
      `(BETA_ENTITLEMENTS); limits raised with runAdminCommand`,
  );
  return { send, key, tenant: account.id, platform, artifacts, database };
}

// ---------------------------------------------------------------------------------------
// 2. Ingest throughput

async function ingestPart(bench: Bench, reps: number) {
  console.log(
    `\n2. Ingest throughput: POST ${API}/sources/{id}/ingest-file in process (app.request, ` +
      `no network), ${reps} sequential uploads per file after 3 warm-up uploads, each a new ` +
      `version of its own source`,
  );
  const rows = [];
  for (const [file, pagesPerVersion] of [[PDF, null], [DOCX, 1]] as const) {
    const bytes = await Deno.readFile(join(FIXTURES, file));
    const sourceId = `bench-ingest-${file.replace(/\W+/g, "-")}`;
    await call(bench, "POST", "/sources", { source_id: sourceId, title: `Bench: ${file}` });
    for (let i = 0; i < 3; i++) await uploadFile(bench, sourceId, file, bytes);
    let pages = 0;
    let chars = 0;
    const times: number[] = [];
    const t0 = performance.now();
    for (let i = 0; i < reps; i++) {
      const t = performance.now();
      const out = await uploadFile(bench, sourceId, file, bytes);
      times.push(performance.now() - t);
      pages += pagesPerVersion ?? out.version.counts.pages;
      chars += out.version.counts.characters;
    }
    const seconds = (performance.now() - t0) / 1000;
    rows.push({ file, bytes: bytes.length, pages, chars, seconds, times });
    // The ingest sources leave the tenant, so they do not weigh on the report corpus.
    await call(bench, "DELETE", `/sources/${sourceId}`, { reason: "bench" });
  }
  for (const r of rows) {
    const s = summarize(r.times);
    console.log(
      `    ${r.file.padEnd(38)} ${(r.bytes / 1024).toFixed(1)} KB, ${
        r.pages / reps
      } page(s)/version${r.file === DOCX ? " (counted as 1)" : ""}, ${r.chars / reps} chars`,
    );
    console.log(
      `      ${f(r.pages / r.seconds).padStart(8)} pages/s   ${
        f(r.chars / r.seconds, 0).padStart(9)
      } chars/s   ${f(reps / r.seconds).padStart(7)} uploads/s   per upload p50 ${
        f(s.p50, 2)
      } ms, p99 ${f(s.p99, 2)} ms`,
    );
  }
}

// ---------------------------------------------------------------------------------------
// 3. The report corpus and report latency

/** The employers the seed texts name, replaced by invented ones in the variants. */
const SEED_EMPLOYERS = [
  "Northwind Analytics",
  "Northwind",
  "Bluefjord Logistics",
  "Bluefjord",
  "Harbor Valley Health",
  "Harbor Valley",
  "Acme",
  "Globex",
  "Initech",
  "Umbrella",
  "Contoso",
  "St. Mary",
  "St Mary",
];
const EMPLOYERS = [
  "Alderbrook Systems",
  "Brightwater Foods",
  "Cobalt Ridge Health",
  "Dunmore Freight",
  "Elmstead Bank",
  "Fernhill Robotics",
  "Granite Point Energy",
  "Hollow Creek Clinic",
  "Ironvale Manufacturing",
  "Juniper Lane Retail",
  "Kestrel Insurance",
  "Larkspur Media",
  "Marlow Civic Hospital",
  "Norhaven Data",
  "Oakhurst Logistics",
  "Pinecrest Software",
  "Quarry Hill Labs",
  "Redwater Telecom",
  "Silverbirch Care",
  "Tidewater Analytics",
];

/** The seed texts: the labelled sources and the fixture documents (extracted). */
async function seedTexts(): Promise<{ name: string; text: string }[]> {
  const out: { name: string; text: string }[] = [];
  for await (const e of Deno.readDir(join(FIXTURES, "labelled"))) {
    out.push({ name: e.name, text: await Deno.readTextFile(join(FIXTURES, "labelled", e.name)) });
  }
  for (const name of ["northwind-data-engineer.md", "bluefjord-warehouse-associate.txt"]) {
    out.push({ name, text: await Deno.readTextFile(join(FIXTURES, name)) });
  }
  for (const name of [PDF, DOCX]) {
    const doc = await extractDocument(await Deno.readFile(join(FIXTURES, name)), name, null);
    out.push({ name, text: doc.text });
  }
  return out.sort((a, b) => (a.name < b.name ? -1 : 1));
}

/** A light variant of a text: another employer, nudged numbers, lines shuffled in blocks. */
function variant(text: string, rng: Rng): string {
  const employer = rng.pick(EMPLOYERS);
  let out = text;
  for (const seed of SEED_EMPLOYERS) out = out.split(seed).join(employer);
  out = out.replace(/\b\d{1,3}\b/g, (n) => String(Math.max(1, Number(n) + rng.int(3) - 1)));
  const blocks = out.split(/\n\s*\n/).map((block) => {
    const lines = block.split("\n");
    const head = /^#/.test(lines[0]) ? [lines.shift()!] : [];
    for (let i = lines.length - 1; i > 0; i--) {
      const j = rng.int(i + 1);
      [lines[i], lines[j]] = [lines[j], lines[i]];
    }
    return [...head, ...lines].join("\n");
  });
  return blocks.join("\n\n");
}

/** Ingests seeded variants (2-5 seed texts per version) until the tenant holds `target` chunks. */
export async function buildCorpus(bench: Bench, target: number, seed: number) {
  const rng = prng(seed);
  const seeds = await seedTexts();
  const t0 = performance.now();
  let chunks = 0;
  let versions = 0;
  const sources = 40;
  for (let s = 0; s < sources; s++) {
    await call(bench, "POST", "/sources", {
      source_id: `corpus-${String(s).padStart(2, "0")}`,
      title: `${rng.pick(EMPLOYERS)}: posting ${s}`,
    });
  }
  while (chunks < target) {
    const parts = Array.from({ length: 2 + rng.int(4) }, () => variant(rng.pick(seeds).text, rng));
    const sourceId = `corpus-${String(versions % sources).padStart(2, "0")}`;
    const out = await call(bench, "POST", `/sources/${sourceId}/ingest-text`, {
      text: parts.join("\n\n"),
      content_type: "text/markdown",
    });
    chunks += out.version.counts.chunks as number;
    versions++;
  }
  const usage = await call(bench, "GET", "/usage");
  console.log(
    `  corpus: ${seeds.length} seed texts (fixtures/grounding/labelled/*.md, the fixture .md, ` +
      `.txt, PDF and DOCX), seed ${seed}: ${versions} versions over ${sources} sources via ` +
      `ingest-text in ${f((performance.now() - t0) / 1000)} s; usage chunks_stored = ` +
      `${usage.chunks_stored}`,
  );
  if (usage.chunks_stored < target) throw new Error("the corpus is smaller than asked");
  return usage.chunks_stored as number;
}

const ROLES: { title: string; focus: string[] }[] = [
  { title: "Data Engineer", focus: ["Apache Spark", "Kubernetes", "Airflow", "data pipelines"] },
  { title: "Senior Data Engineer", focus: ["Snowflake", "dbt", "Python"] },
  { title: "Data Scientist", focus: ["machine learning", "statistics", "Python", "SQL"] },
  { title: "Machine Learning Engineer", focus: ["model deployment", "Python"] },
  { title: "Data Analyst", focus: ["SQL", "dashboards", "Tableau"] },
  { title: "Registered Nurse", focus: ["patient assessment", "IV therapy", "Epic"] },
  { title: "ICU Nurse", focus: ["ACLS", "critical care"] },
  { title: "Charge Nurse", focus: ["patient care", "staffing"] },
  { title: "Software Developer", focus: ["TypeScript", "code review", "testing"] },
  { title: "Backend Software Engineer", focus: ["Java", "PostgreSQL", "microservices"] },
  { title: "Frontend Developer", focus: ["React", "accessibility"] },
  { title: "Warehouse Associate", focus: ["forklift", "pallet jack", "RF scanner"] },
  { title: "Forklift Operator", focus: ["forklift", "safety"] },
  { title: "Logistics Coordinator", focus: ["shipping", "inventory"] },
  { title: "Database Administrator", focus: ["PostgreSQL", "backups"] },
  { title: "DevOps Engineer", focus: ["Kubernetes", "CI/CD", "monitoring"] },
  { title: "Business Intelligence Analyst", focus: ["Power BI", "SQL"] },
  { title: "Medical Assistant", focus: ["patient intake", "vital signs"] },
  { title: "Pastry Chef", focus: ["laminated dough"] },
  { title: "Airline Pilot", focus: ["instrument rating"] },
];

/** The request mix: a role, 0-3 of its focus areas, top_k 3-5; deterministic. */
export function requestMix(count: number, seed: number) {
  const rng = prng(seed + 1);
  return Array.from({ length: count }, (_, i) => {
    const role = ROLES[i % ROLES.length];
    const focus = role.focus.filter(() => rng.next() < 0.6).slice(0, 3);
    return {
      role_title: role.title,
      focus_areas: focus,
      top_k: 3 + rng.int(3),
      include_passport: true,
    };
  });
}
type ReportRequest = ReturnType<typeof requestMix>[number];

/** Times the route, then the pieces (occupation view, retrieval, composeReport) directly. */
async function reportPart(bench: Bench, options: Options) {
  console.log(
    `\n3. Report latency: POST ${API}/role-intelligence/reports in process (app.request, no ` +
      `network), full taxonomy ${options.artifacts}, retrieval limit ${RETRIEVAL_LIMIT}`,
  );
  const chunks = await buildCorpus(bench, options.chunks, options.seed);
  const mix = requestMix(options.reports, options.seed);
  const warm = requestMix(ROLES.length * 2, options.seed + 100);
  for (const body of warm) await call(bench, "POST", "/role-intelligence/reports", body);
  console.log(`  load average: ${await loadAverage()}`);
  const times: number[] = [];
  const statuses = new Map<string, number>();
  let cited = 0;
  for (const body of mix) {
    const t = performance.now();
    const report = await call(bench, "POST", "/role-intelligence/reports", body);
    times.push(performance.now() - t);
    const status = String(report.passport?.status ?? report.report?.status);
    statuses.set(status, (statuses.get(status) ?? 0) + 1);
    cited += (report.evidence_references as unknown[]).length;
  }
  const route = summarize(times);
  const met = route.p99 < TARGETS.p99Ms;
  console.log(
    `  ${mix.length} sequential requests over ${ROLES.length} role titles (0-3 focus areas, ` +
      `include_passport) after ${warm.length} warm-up, ${chunks} chunks in the tenant`,
  );
  console.log(latencyLine("route (whole request)", route));
  console.log(
    `    p99 target < ${TARGETS.p99Ms} ms: ${met ? "met" : "NOT met"}; passport status: ${
      [...statuses].map(([s, n]) => `${n} ${s}`).join(", ")
    }; ${f(cited / mix.length)} evidence references per report`,
  );
  await splitPart(bench, mix);
  return met;
}

async function splitPart(bench: Bench, mix: ReportRequest[]) {
  const store = new GroundingStore(bench.database.db);
  const view: number[] = [];
  const search: number[] = [];
  const compose: number[] = [];
  const retrieved: number[] = [];
  const now = new Date();
  for (const body of mix) {
    let t = performance.now();
    const occupation = await withTaxonomy(
      bench.artifacts,
      (artifact) => occupationView(artifact, { title: body.role_title, context: null }),
    );
    view.push(performance.now() - t);
    const focus = [...new Set(body.focus_areas.map((x) => x.trim()).filter(Boolean))];
    const terms = [
      body.role_title,
      ...focus,
      ...occupation.candidates.flatMap((c) => [...c.skills, ...c.technologies]),
    ];
    t = performance.now();
    const found = await store.search(bench.tenant, terms, { limit: RETRIEVAL_LIMIT, now });
    search.push(performance.now() - t);
    retrieved.push(found.length);
    t = performance.now();
    composeReport({
      role_title: body.role_title,
      focus_areas: focus,
      top_k: body.top_k,
      include_passport: body.include_passport,
      chunks: found,
      occupation,
      decision_id: `dec_${createHash("sha256").update(JSON.stringify(body)).digest("hex")}`,
      trace_id: "tr_bench",
    });
    compose.push(performance.now() - t);
  }
  const r = summarize(retrieved);
  console.log(
    `  split, the same ${mix.length} requests with each piece called directly ` +
      `(${f(r.mean)} chunks retrieved on average, max ${r.max}):`,
  );
  console.log(latencyLine("occupation view (engine + DuckDB)", summarize(view)));
  console.log(latencyLine("retrieval (store.search SQL)", summarize(search)));
  console.log(latencyLine("composeReport", summarize(compose)));
}

// ---------------------------------------------------------------------------------------

async function main() {
  const options = parseArgs(Deno.args);
  const pointer = join(options.artifacts, "taxonomy", "current");
  try {
    await Deno.stat(pointer);
  } catch {
    console.error(
      `bench:grounding needs the full taxonomy artifact: ${pointer} is missing. Build it with ` +
        "`deno task build --onet <O*NET text release>` (ARTIFACTS_DIR ./artifacts), or pass " +
        "--artifacts DIR.",
    );
    Deno.exit(2);
  }
  console.log(
    `bench:grounding${options.quick ? " --quick" : ""}: ${options.reps} ingest repetitions, ` +
      `${options.reports} reports, >= ${options.chunks} chunks, seed ${options.seed}`,
  );
  const qualityMet = await qualityPart();

  const url = Deno.env.get("DATABASE_URL") || undefined;
  const scratch = url ? await createScratchDatabase(url, "bench_grounding") : null;
  const tmp = await Deno.makeTempDir({ prefix: "bench-grounding-" });
  let database: Database | undefined;
  let artifacts: ArtifactRegistry | undefined;
  let platform: PlatformContext | undefined;
  let latencyMet = false;
  try {
    database = scratch ? openPostgres(scratch.url, 10) : await openPglite(join(tmp, "data"));
    await migrate(database);
    artifacts = new ArtifactRegistry(options.artifacts, [taxonomySpec], jsonLogger("warn"));
    await artifacts.start();
    const loaded = await artifacts.use("taxonomy", (a) => a.version);
    if (!loaded) throw new Error(`no taxonomy artifact could be loaded from ${options.artifacts}`);
    console.log(
      `\nIn-process app: taxonomy ${loaded} from ${options.artifacts}; database: ${
        scratch ? "a scratch database on the DATABASE_URL server" : "embedded PGlite"
      } (${database.kind})`,
    );
    const bench = await startBench(database, artifacts);
    platform = bench.platform;
    await ingestPart(bench, options.reps);
    latencyMet = await reportPart(bench, options);
  } finally {
    if (platform) await closePlatform(platform);
    await artifacts?.close();
    await database?.close();
    await scratch?.drop();
    await Deno.remove(tmp, { recursive: true });
  }
  console.log(
    `\nTargets: citation precision and abstention ${qualityMet ? "met" : "NOT met"}; ` +
      `report p99 < ${TARGETS.p99Ms} ms ${latencyMet ? "met" : "NOT met"}`,
  );
}

if (import.meta.main) await main();
