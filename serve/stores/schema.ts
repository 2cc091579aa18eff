/** Kysely table types of the Postgres schema (sql/postgres/). */
import type { Generated } from "kysely";

/** Applied migrations, maintained by the migration runner. */
export interface SchemaMigrationsTable {
  version: string;
  name: string;
  checksum: string;
  applied_at: Generated<Date>;
}

/** Audit trail of artifact versions each instance activated. */
export interface ArtifactActivationsTable {
  id: Generated<string>;
  artifact: string;
  version: string;
  content_hash: string;
  instance_id: string;
  activated_at: Generated<Date>;
}

/** The database as Kysely sees it. */
export interface DB {
  schema_migrations: SchemaMigrationsTable;
  artifact_activations: ArtifactActivationsTable;
}
