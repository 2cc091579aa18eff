/**
 * DuckDB's library (about 30 MB of pages in the process) stays unloaded in a server whose
 * artifacts load from their build's snapshots: no module the server or its workers run imports
 * `@duckdb/node-api` statically, only its types (serve/stores/duckdb.ts loads it on first use).
 */
import assert from "node:assert/strict";

const ENTRIES = [
  "serve/main.ts",
  "serve/occupation/ranking_worker.ts",
  "serve/stores/pglite_worker.ts",
];

interface Dependency {
  specifier: string;
  code?: unknown;
  isDynamic?: boolean;
}

/** "module -> specifier" for every static import of a value from `@duckdb/` in entry's graph. */
async function staticDuckDbImports(entry: string): Promise<string[]> {
  const output = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", entry],
    cwd: new URL("..", import.meta.url),
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.ok(output.success, new TextDecoder().decode(output.stderr));
  const graph = JSON.parse(new TextDecoder().decode(output.stdout)) as {
    modules: { specifier: string; dependencies?: Dependency[] }[];
  };
  assert.ok(graph.modules.length > 1, `no module graph for ${entry}`);
  return graph.modules.flatMap((module) =>
    (module.dependencies ?? [])
      .filter((d) => d.specifier.includes("@duckdb/") && d.code && !d.isDynamic)
      .map((d) =>
        `${module.specifier.replace(/^file:\/\/.*?\/(serve|build)\//, "$1/")} -> ${d.specifier}`
      )
  );
}

Deno.test("the server's modules import DuckDB only on first use", async () => {
  for (const entry of ENTRIES) {
    assert.deepEqual(
      await staticDuckDbImports(entry),
      [],
      `${entry} loads DuckDB at start; import its types only and call duckdb() from ` +
        "serve/stores/duckdb.ts where a value is needed",
    );
  }
});

Deno.test("the check sees a static import of DuckDB", async () => {
  const dir = await Deno.makeTempDir({
    dir: new URL("..", import.meta.url).pathname,
    prefix: ".lazy-",
  });
  try {
    const file = `${dir}/probe.ts`;
    await Deno.writeTextFile(
      file,
      'import { DuckDBInstance } from "@duckdb/node-api";\nexport const probe = DuckDBInstance;\n',
    );
    assert.equal((await staticDuckDbImports(file)).length, 1);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
