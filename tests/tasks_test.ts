/** The benches start the server exactly as `deno task serve` does. */
import assert from "node:assert/strict";
import { SERVE_ENV, SERVE_FLAGS } from "../bench/platform.ts";

Deno.test("deno task serve and the benches run the server with the same flags and environment", async () => {
  const config = JSON.parse(await Deno.readTextFile(new URL("../deno.json", import.meta.url)));
  const env = Object.entries(SERVE_ENV).map(([name, value]) => `${name}=${value}`).join(" ");
  assert.equal(config.tasks.serve, `${env} deno run -A ${SERVE_FLAGS.join(" ")} serve/main.ts`);
});
