/**
 * `deno task bench:workforce`: throughput of the workforce catalog routes beside
 * GET /api/v1/health in the same run, on the real server (serve/main.ts) over the taxonomy and
 * evidence artifacts of an artifacts folder (default ./artifacts), embedded PGlite in a
 * temporary folder or a scratch database on the DATABASE_URL server, with a runtime key whose
 * limits are raised through the operator task: wrk (-t1) or bench/load.ts without it, after
 * warm-up rounds over every route (bench/beside_health.ts, as the routes part of bench:market).
 * Target (issue 10): each catalog route within 20% of health's req/s; health runs before the
 * first route and after each one, and a route is compared with the mean of the health runs
 * around it. Nothing is bootstrapped: the artifacts must be built first.
 *
 * Flags: --artifacts DIR (default ./artifacts), --quick (3 s runs), --seconds N (5),
 * --connections N (32), --no-wrk.
 */
import { join, relative, resolve } from "node:path";
import { exists, readPointer } from "../build/publish.ts";
import {
  failedRoutes,
  flagReader,
  type LoadedArtifact,
  type LoadFlags,
  measureBesideHealth,
  parseLoadFlags,
  printRoutesReport,
} from "./beside_health.ts";

const ROOT = new URL("..", import.meta.url).pathname;
const DETAIL_SOC = "29-1141";
export const WORKFORCE_ROUTES = [
  "/api/v1/workforce/capabilities?country_code=US",
  "/api/v1/workforce/occupations?country_code=US&query=nurse&limit=20",
  "/api/v1/workforce/occupations?country_code=US&limit=100",
  `/api/v1/workforce/occupations/${DETAIL_SOC}?country_code=US`,
];

/** Settings of a run, from the command line. */
export interface WorkforceBenchOptions extends LoadFlags {
  artifacts: string;
}

/** Parses --artifacts DIR, --quick, --seconds N, --connections N, --no-wrk. */
export function parseArgs(args: string[]): WorkforceBenchOptions {
  const { value } = flagReader(args);
  return { ...parseLoadFlags(args), artifacts: resolve(value("--artifacts") ?? "artifacts") };
}

/** The current version of an artifact in dir, or null when none is built there. */
async function currentVersion(artifacts: string, name: string): Promise<string | null> {
  const version = await readPointer(join(artifacts, name));
  return version && await exists(join(artifacts, name, version, "manifest.json")) ? version : null;
}

/** The sentence telling how to build what is missing. */
function missingMessage(artifacts: string, missing: string[]): string {
  const inside = relative(ROOT, artifacts);
  const shown = !inside || inside.startsWith("..") ? artifacts : inside;
  const flag = shown === "artifacts" ? "" : ` --artifacts ${shown}`;
  return `bench:workforce: no ${missing.join(" and no ")} artifact in ${artifacts}. Build ` +
    `them first (from ${ROOT}), then run again:\n` +
    `  deno task build --onet ../shared/data/onet/db_29_3_text${flag}\n` +
    `  deno task build --soc ../shared/data/soc --oews ../shared/data/oews ` +
    `--qwi ../shared/data/qwi${flag}`;
}

/** What one catalog answer holds, for the check line. */
// deno-lint-ignore no-explicit-any
function describe(body: any): string {
  if (Array.isArray(body.items)) {
    return `${body.items.length} items of ${body.total}` +
      (body.next_cursor ? ", next_cursor" : "");
  }
  if (body.soc_code) {
    return `${body.soc_code} ${body.title}, ${body.skills.items.length} skills, ` +
      `${body.tasks.items.length} tasks, OEWS ${body.oews?.vintage ?? "none"}`;
  }
  return `${body.status}, ${body.occupation_taxonomy?.detailed_occupations} detailed ` +
    `occupations, ${body.evidence?.sources?.length} evidence sources`;
}

/** The evidence version an answer names: the capabilities carry it in `evidence.version`. */
// deno-lint-ignore no-explicit-any
const evidenceVersion = (body: any): string | undefined =>
  body.evidence_version ?? body.evidence?.version;

/** Checks the artifacts, measures the catalog routes beside health, and reports. */
export async function main(args: string[]): Promise<number> {
  const options = parseArgs(args);
  const taxonomy = await currentVersion(options.artifacts, "taxonomy");
  const evidence = await currentVersion(options.artifacts, "evidence");
  const missing = [!taxonomy && "taxonomy", !evidence && "evidence"].filter((m) => !!m);
  if (!taxonomy || !evidence) {
    console.error(missingMessage(options.artifacts, missing as string[]));
    return 2;
  }
  console.log(
    `workforce bench: deno ${Deno.version.deno}, ${Deno.build.os} ${Deno.build.arch}, ` +
      `${navigator.hardwareConcurrency} CPUs; artifacts ${options.artifacts} (taxonomy ` +
      `${taxonomy}, evidence ${evidence})`,
  );
  const routes = await measureBesideHealth({
    name: "workforce",
    about: `evidence ${evidence}`,
    artifacts: options.artifacts,
    routes: WORKFORCE_ROUTES,
    // Nothing is bootstrapped into the folder (the shared env clears every BOOTSTRAP_*).
    env: {},
    check: (path, body, health) => {
      const loaded = health.artifacts?.find((a: LoadedArtifact) => a.name === "evidence");
      if (loaded?.version !== evidence) {
        throw new Error(
          `GET /api/v1/health: evidence ${loaded?.version ?? "not loaded"}, not ${evidence} ` +
            `(the current version in ${options.artifacts})`,
        );
      }
      const version = evidenceVersion(body);
      if (version !== evidence) {
        throw new Error(`GET ${path}: evidence ${version}, not ${evidence}`);
      }
      return `${describe(body)}, evidence ${version}`;
    },
  }, options);

  console.log(`\nsummary (taxonomy ${taxonomy}, evidence ${evidence})`);
  printRoutesReport(routes, options, `over ${options.artifacts}`, "catalog");
  const failed = failedRoutes(routes);
  if (failed.length) console.log(`  non-2xx answers on ${failed.join(", ")}`);
  // A missed target is reported above, not a failure of the bench.
  return failed.length ? 1 : 0;
}

if (import.meta.main) {
  Deno.exit(await main(Deno.args));
}
