/**
 * The served OpenAPI document, built in-process the way the server builds it (an app over a
 * throwaway embedded database and an empty artifacts folder), for the linter and the client
 * generator. `deno run -A client/document.ts <file>` writes it to <file> (stdout without one).
 */
import { createApp } from "../serve/app.ts";
import { loadConfig } from "../serve/config.ts";
import { memoryLogger } from "../serve/http/log.ts";
import { taxonomySpec } from "../serve/occupation/artifact.ts";
import { marketSpec } from "../serve/market/artifact.ts";
import { evidenceSpec } from "../serve/workforce/artifact.ts";
import { closePlatform, createPlatform } from "../serve/platform/mod.ts";
import { ArtifactRegistry } from "../serve/stores/artifacts.ts";
import { migrate } from "../serve/stores/migrate.ts";
import { openPglite } from "../serve/stores/postgres.ts";

/** The origin written into `servers`: the default address of `deno task serve`. */
export const DOCUMENT_ORIGIN = "http://127.0.0.1:8000";

/** GET /openapi.json of a freshly wired app, as parsed JSON. */
export async function servedDocument(): Promise<Record<string, unknown>> {
  const root = await Deno.makeTempDir({ prefix: "openapi-document-" });
  try {
    const config = loadConfig({ DATA_DIR: root, ARTIFACTS_DIR: `${root}/artifacts` });
    const logger = memoryLogger();
    const database = await openPglite(root);
    try {
      await migrate(database);
      const artifacts = new ArtifactRegistry(
        config.ARTIFACTS_DIR,
        [taxonomySpec, marketSpec, evidenceSpec],
        logger,
      );
      const platform = await createPlatform({
        db: database.db,
        config,
        logger,
        instanceId: "openapi-document",
      });
      try {
        const app = createApp({ config, database, artifacts, logger, platform });
        const response = await app.request(`${DOCUMENT_ORIGIN}/openapi.json`);
        if (response.status !== 200) {
          throw new Error(
            `GET /openapi.json answered ${response.status}: ${await response.text()}`,
          );
        }
        return await response.json();
      } finally {
        await closePlatform(platform);
        await artifacts.close();
      }
    } finally {
      await database.close();
    }
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

if (import.meta.main) {
  const text = JSON.stringify(await servedDocument(), null, 2) + "\n";
  const [out] = Deno.args;
  if (out) await Deno.writeTextFile(out, text);
  else await Deno.stdout.write(new TextEncoder().encode(text));
}
