/**
 * Layout guard: serve/stores and serve/http stay generic, so nothing in them may import a
 * feature folder. Features depend on them, never the other way round; a feature's own store
 * code (an artifact spec, an auth middleware) lives in the feature.
 */
import assert from "node:assert/strict";

const ROOT = new URL("../", import.meta.url);
const SERVE = new URL("serve/", ROOT);
const GENERIC_DIRS = ["serve/stores/", "serve/http/"];
/** The feature folders named in the house style (any folder under serve/ not in SHARED counts). */
const FEATURES = [
  "occupation",
  "platform",
  "market",
  "workforce",
  "grounding",
  "health",
  "docs",
  "email",
];
/** Folders under serve/ that are shared infrastructure rather than features. */
const SHARED = ["stores", "http", "text"];

const PATTERNS = [
  // import ... from "x" / import type ... from "x" / export ... from "x" (across lines)
  /^[ \t]*(?:import|export)\b[^;]*?\bfrom\s*["']([^"']+)["']/gm,
  // import "x" (for its side effects)
  /^[ \t]*import\s*["']([^"']+)["']/gm,
  // import("x") and import(`x`)
  /\bimport\s*\(\s*["'`]([^"'`]+)["'`]\s*[,)]/g,
  // new URL("x", import.meta.url): workers and files next to the module
  /\bnew\s+URL\s*\(\s*["'`]([^"'`]+)["'`]\s*,\s*import\.meta\.url\s*\)/g,
];

/** Every module specifier in a source file. */
function specifiers(source: string): string[] {
  return PATTERNS.flatMap((pattern) => [...source.matchAll(pattern)].map((m) => m[1]));
}

const importMap: Record<string, string> =
  JSON.parse(await Deno.readTextFile(new URL("deno.json", ROOT))).imports ?? {};

/** Where a specifier points, or null for a package outside the repository. */
function resolve(specifier: string, from: URL): URL | null {
  if (/^\.{0,2}\//.test(specifier) || specifier.startsWith("file:")) {
    return new URL(specifier, from);
  }
  for (const [key, target] of Object.entries(importMap)) {
    const mapped = specifier === key
      ? target
      : key.endsWith("/") && specifier.startsWith(key)
      ? target + specifier.slice(key.length)
      : null;
    if (mapped !== null) return /^\.{0,2}\//.test(mapped) ? new URL(mapped, ROOT) : null;
  }
  return null;
}

/** The feature folder a resolved module lies in (e.g. "platform"), or null. */
function featureOf(url: URL): string | null {
  if (!url.href.startsWith(SERVE.href)) return null;
  const rest = url.href.slice(SERVE.href.length);
  const slash = rest.indexOf("/");
  if (slash < 0) return null; // serve/<file>.ts: not a folder
  const folder = rest.slice(0, slash);
  return SHARED.includes(folder) ? null : folder;
}

/** The imports of one source file that land in a feature folder, as "specifier -> folder". */
function featureImports(source: string, from: URL): string[] {
  return specifiers(source).flatMap((specifier) => {
    const url = resolve(specifier, from);
    const feature = url && featureOf(url);
    return feature ? [`${specifier} -> serve/${feature}/`] : [];
  });
}

async function* tsFiles(dir: URL): AsyncGenerator<URL> {
  for await (const entry of Deno.readDir(dir)) {
    if (entry.isDirectory) yield* tsFiles(new URL(`${entry.name}/`, dir));
    else if (entry.isFile && /\.(ts|tsx|mts)$/.test(entry.name)) yield new URL(entry.name, dir);
  }
}

Deno.test("layout: serve/stores and serve/http import no feature folder", async () => {
  const offences: string[] = [];
  let files = 0;
  let imports = 0;
  for (const dir of GENERIC_DIRS) {
    for await (const file of tsFiles(new URL(dir, ROOT))) {
      const source = await Deno.readTextFile(file);
      files++;
      imports += specifiers(source).length;
      const path = file.href.slice(ROOT.href.length);
      for (const offence of featureImports(source, file)) offences.push(`${path}: ${offence}`);
    }
  }
  assert.ok(files > 0 && imports > 0, "found no files or imports to check");
  assert.deepEqual(
    offences,
    [],
    `generic code imports a feature folder; move the code into the feature instead:\n  ${
      offences.join("\n  ")
    }`,
  );
});

Deno.test("layout: the import scan sees every import form", () => {
  const from = new URL("serve/http/example.ts", ROOT);
  const source = [
    `import { a } from "../platform/contracts.ts";`,
    `import type {\n  B,\n  C,\n} from "../occupation/artifact.ts";`,
    `export { d } from '../market/mod.ts';`,
    `export * from "../workforce/mod.ts";`,
    `import "../grounding/setup.ts";`,
    `const e = await import("../health/mod.ts");`,
    `const f = new URL("../email/worker.ts", import.meta.url);`,
    `import { g } from "../../serve/docs/mod.ts";`,
    `import { h } from "../newfeature/mod.ts";`,
    // Generic and outside code is fine.
    `import { ok1 } from "./errors.ts";`,
    `import type { ok2 } from "../stores/schema.ts";`,
    `import { ok3 } from "../text/normalize.ts";`,
    `import { ok4 } from "../../build/manifest.ts";`,
    `import { ok5 } from "../app.ts";`,
    `import { ok6 } from "hono";`,
    `import { ok7 } from "node:path";`,
    ` * import { notCode } from "../platform/keys.ts"; (a doc comment)`,
    ...FEATURES.map((feature) => `import type { T } from "../${feature}/types.ts";`),
  ].join("\n");
  assert.deepEqual(featureImports(source, from), [
    "../platform/contracts.ts -> serve/platform/",
    "../occupation/artifact.ts -> serve/occupation/",
    "../market/mod.ts -> serve/market/",
    "../workforce/mod.ts -> serve/workforce/",
    "../../serve/docs/mod.ts -> serve/docs/",
    "../newfeature/mod.ts -> serve/newfeature/",
    ...FEATURES.map((feature) => `../${feature}/types.ts -> serve/${feature}/`),
    "../grounding/setup.ts -> serve/grounding/",
    "../health/mod.ts -> serve/health/",
    "../email/worker.ts -> serve/email/",
  ]);
});
