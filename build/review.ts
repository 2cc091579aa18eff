/**
 * `deno task review <file> --reviewer <name> --note <text> [--caveat <text> ...]
 * [--source <text>] [--vintage <text>] [--on YYYY-MM-DD]`: approves a snapshot file as evidence
 * by adding an entry (its sha256, source, vintage, reviewer, date, notes and caveats) to the
 * committed registry in build/reviews/. Wiring only; see build/evidence/reviews.ts.
 */
import { parseArgs } from "node:util";
import { addReview, REVIEWS_DIR } from "./evidence/reviews.ts";

const USAGE = `usage: deno task review <file> --reviewer <name> --note <text> [options]
options:
  --caveat <text>    a known caveat of the snapshot (repeatable)
  --source <text>    the publisher and series (default: read off official file names)
  --vintage <text>   e.g. "May 2025" (default: read off official file names)
  --on <date>        review date YYYY-MM-DD (default: today, UTC)
  --top-code <h>/<a> OEWS: the vintage's top code from its field descriptions, e.g. 115/239200
                     ("#" wages are at or above it)
  --registry <dir>   registry folder (default: build/reviews/)`;

async function main(): Promise<number> {
  const { values, positionals } = parseArgs({
    args: Deno.args,
    allowPositionals: true,
    options: {
      reviewer: { type: "string" },
      note: { type: "string" },
      caveat: { type: "string", multiple: true },
      source: { type: "string" },
      vintage: { type: "string" },
      on: { type: "string" },
      "top-code": { type: "string" },
      registry: { type: "string" },
      help: { type: "boolean", short: "h" },
    },
  });
  if (values.help || positionals.length !== 1 || !values.reviewer || values.note === undefined) {
    console.error(USAGE);
    return values.help ? 0 : 2;
  }
  let topCode: { hourly: number; annual: number } | undefined;
  if (values["top-code"] !== undefined) {
    const m = values["top-code"].match(/^(\d+(?:\.\d+)?)\/(\d+(?:\.\d+)?)$/);
    if (!m) {
      console.error("--top-code takes <hourly>/<annual>, e.g. 115/239200");
      return 2;
    }
    topCode = { hourly: Number(m[1]), annual: Number(m[2]) };
  }
  const result = await addReview({
    path: positionals[0],
    reviewer: values.reviewer,
    notes: values.note,
    caveats: values.caveat,
    source: values.source,
    vintage: values.vintage,
    on: values.on,
    topCode,
  }, values.registry ?? REVIEWS_DIR);
  console.error(
    result.existed
      ? `already approved by ${result.entry.reviewer} on ${result.entry.reviewed_on}: ${result.path}`
      : `approved ${result.entry.file} (${result.entry.source}, ${result.entry.vintage}, sha256 ` +
        `${result.entry.sha256.slice(0, 12)}…): ${result.path}`,
  );
  return 0;
}

try {
  Deno.exit(await main());
} catch (error) {
  console.error(`review failed: ${error instanceof Error ? error.message : String(error)}`);
  Deno.exit(1);
}
