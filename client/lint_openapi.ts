/**
 * `deno task lint:openapi`: lints the served OpenAPI document with Redocly CLI's recommended
 * ruleset (the pinned npm:@redocly/cli of deno.json) and fails on any error or warning.
 * The CLI runs from Deno's cache of the pinned package (fetched from the npm registry on a
 * machine that has never run it, e.g. a fresh CI machine), with its telemetry and update check
 * turned off, so after the first run it works offline.
 */
import { fileURLToPath } from "node:url";
import { servedDocument } from "./document.ts";

const CONFIG = fileURLToPath(new URL("../deno.json", import.meta.url));
const here = (name: string) => fileURLToPath(new URL(name, import.meta.url));
const REDOCLY = (JSON.parse(await Deno.readTextFile(CONFIG)).imports as Record<string, string>)[
  "@redocly/cli"
];

/** Runs `redocly lint` on `document`; the totals and the readable report. */
export async function lintDocument(document: unknown) {
  const dir = await Deno.makeTempDir({ prefix: "lint-openapi-" });
  try {
    // The ignore file names the document by its path relative to the configuration.
    await Deno.writeTextFile(`${dir}/openapi.json`, JSON.stringify(document, null, 2));
    await Deno.copyFile(here("redocly.yaml"), `${dir}/redocly.yaml`);
    await Deno.copyFile(here(".redocly.lint-ignore.yaml"), `${dir}/.redocly.lint-ignore.yaml`);
    const run = async (format: string) => {
      const { code, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
        args: [
          "run",
          "-A",
          "--config",
          CONFIG,
          REDOCLY,
          "lint",
          `--format=${format}`,
          "openapi.json",
        ],
        cwd: dir,
        env: { REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true", NO_COLOR: "1" },
        stdout: "piped",
        stderr: "piped",
      }).output();
      return {
        code,
        stdout: new TextDecoder().decode(stdout),
        stderr: new TextDecoder().decode(stderr),
      };
    };
    const json = await run("json");
    let totals: { errors: number; warnings: number; ignored: number };
    try {
      totals = JSON.parse(json.stdout).totals;
    } catch {
      throw new Error(`redocly lint did not run (exit ${json.code}):\n${json.stderr}`);
    }
    const clean = totals.errors === 0 && totals.warnings === 0;
    const report = clean ? "" : (await run("stylish")).stdout;
    return { totals, clean, report };
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

if (import.meta.main) {
  const { totals, clean, report } = await lintDocument(await servedDocument());
  if (!clean) console.error(report);
  console.error(
    `openapi: redocly recommended: ${totals.errors} errors, ${totals.warnings} warnings ` +
      `(${totals.ignored} ignored with reasons in client/.redocly.lint-ignore.yaml)`,
  );
  if (!clean) Deno.exit(1);
}
