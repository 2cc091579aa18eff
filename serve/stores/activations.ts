/** Repository of artifact activations (sql/postgres/*_artifact_activations.sql). */
import type { Kysely } from "kysely";
import type { DB } from "./schema.ts";

/** Records that this instance started serving an artifact version. */
export async function recordActivation(
  db: Kysely<DB>,
  row: { artifact: string; version: string; contentHash: string; instanceId: string },
): Promise<void> {
  await db
    .insertInto("artifact_activations")
    .values({
      artifact: row.artifact,
      version: row.version,
      content_hash: row.contentHash,
      instance_id: row.instanceId,
    })
    .execute();
}
