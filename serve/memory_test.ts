import assert from "node:assert/strict";
import { collectGarbage } from "./memory.ts";

const MODULE = new URL("./memory.ts", import.meta.url).href;

async function typeUnder(flags: string[]): Promise<string> {
  const { stdout, success } = await new Deno.Command(Deno.execPath(), {
    args: [
      "eval",
      ...flags,
      `import { collectGarbage } from "${MODULE}"; console.log(typeof collectGarbage());`,
    ],
    stdout: "piped",
    stderr: "inherit",
  }).output();
  assert.ok(success);
  return new TextDecoder().decode(stdout).trim();
}

Deno.test("collectGarbage runs a full collection only where V8 exposes gc", async () => {
  // The test runner has no --expose-gc: nothing runs.
  assert.equal(collectGarbage(), null);
  assert.equal(await typeUnder([]), "object");
  // `deno task serve` passes it: the collection runs and reports its milliseconds.
  assert.equal(await typeUnder(["--v8-flags=--expose-gc"]), "number");
});
