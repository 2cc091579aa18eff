/**
 * bench:build: times a full taxonomy build of a release (default: the shared O*NET 29.3
 * extract) into a throwaway folder and prints wall time and peak resident memory (VmHWM).
 */
import { buildTaxonomy } from "./pipeline.ts";
import { consoleProgress } from "./progress.ts";

const source = Deno.args[0] ?? "../shared/data/onet/db_29_3_text";
const out = await Deno.makeTempDir({ prefix: "bench-build-" });
try {
  const started = performance.now();
  const result = await buildTaxonomy(source, out, consoleProgress());
  const seconds = (performance.now() - started) / 1000;
  const status = await Deno.readTextFile("/proc/self/status").catch(() => "");
  const hwm = Number(status.match(/VmHWM:\s+(\d+) kB/)?.[1] ?? NaN) / 1024;
  console.log(`release: O*NET ${result.manifest.release.version}  version: ${result.version}`);
  for (const t of result.manifest.tables) console.log(`  ${t.name.padEnd(24)} ${t.rows}`);
  console.log(`build time: ${seconds.toFixed(2)} s`);
  console.log(`peak memory (VmHWM): ${Number.isFinite(hwm) ? hwm.toFixed(0) + " MiB" : "n/a"}`);
} finally {
  await Deno.remove(out, { recursive: true });
}
