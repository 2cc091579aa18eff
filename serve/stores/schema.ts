/** Kysely table types of the Postgres schema (sql/postgres/). */
import type { ColumnType, Generated } from "kysely";

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

/** Signing material generated on first start when AUTH_SECRET is unset. */
export interface ServiceSecretsTable {
  name: string;
  value: string;
  created_at: Generated<Date>;
}

/** A developer account; email is normalised and unique. */
export interface AccountsTable {
  id: Generated<string>;
  email: string;
  /** emailKey(email): the unique key. */
  email_key: string;
  password_hash: string;
  full_name: string;
  company_name: string;
  status: "pending_verification" | "verified";
  verified_at: Date | null;
  session_epoch: Generated<number>;
  password_changed_at: Date | null;
  created_at: Date;
}

/** One-time email tokens, stored as SHA-256 hashes. */
export interface EmailTokensTable {
  id: Generated<string>;
  account_id: string;
  purpose: "verify_email" | "reset_password";
  token_hash: string;
  created_at: Date;
  expires_at: Date;
  used_at: Date | null;
}

/** A contract: plan, validity and limits. */
export interface ContractsTable {
  id: Generated<string>;
  account_id: string;
  plan: string;
  status: "trial" | "active" | "expired" | "revoked";
  starts_at: Date;
  ends_at: Date | null;
  rate_per_minute: number;
  monthly_quota: number;
  concurrency: number;
  entitlements: string[];
  created_at: Date;
  updated_at: Date;
}

/** Runtime API keys, stored as SHA-256 hashes. */
export interface ApiKeysTable {
  id: Generated<string>;
  account_id: string;
  contract_id: string;
  name: string;
  key_hash: string;
  prefix: string;
  last_four: string;
  entitlements: string[];
  status: Generated<"active" | "revoked">;
  created_at: Date;
  last_used_at: Date | null;
  revoked_at: Date | null;
}

/** Admitted requests per contract and window, shared by every instance. */
export interface RateCountersTable {
  contract_id: string;
  window_kind: "minute" | "month";
  window_start: Date;
  used: string;
  last_grant: string;
}

/** Concurrency slots held per contract and instance. */
export interface ConcurrencyLeasesTable {
  contract_id: string;
  instance_id: string;
  slots: number;
  expires_at: Date;
}

/** Metered runtime requests, counted per key, contract, method, route, status and UTC minute. */
export interface UsageMinutesTable {
  account_id: string;
  key_id: string;
  contract_id: string;
  method: string;
  route: string;
  status: number;
  minute: Date;
  requests: string;
  duration_ms_total: number;
}

/** When each maintenance job last ran, across every replica, and what it did. */
export interface MaintenanceRunsTable {
  job: string;
  last_run_at: Date;
  last_result: ColumnType<unknown, string, string>;
}

/** Feedback sent by an account. */
export interface FeedbackTable {
  id: Generated<string>;
  account_id: string;
  category: string;
  message: string;
  rating: number | null;
  related_request_id: string | null;
  created_at: Date;
}

/** Failed logins per hashed subject. */
export interface LoginThrottleTable {
  subject: string;
  failures: number;
  last_failure_at: Date;
  locked_until: Date | null;
}

/** Transactional email outbox. */
export interface EmailOutboxTable {
  id: Generated<string>;
  kind: string;
  recipient: string;
  subject: string;
  body_encrypted: string | null;
  attempts: Generated<number>;
  next_attempt_at: Date;
  last_error: string | null;
  created_at: Date;
  sent_at: Date | null;
  failed_at: Generated<Date | null>;
}

/** The database as Kysely sees it. */
/** Workforce evidence packs (account-scoped, immutable). */
export interface WorkforceEvidencePacksTable {
  id: string;
  account_id: string;
  soc_code: string;
  request_json: string;
  evidence_version: string;
  evidence_content_hash: string;
  document_json: string;
  document_sha256: string;
  created_at: Date;
}

/** Grounding sources of a tenant (account). */
export interface GroundingSourcesTable {
  id: Generated<string>;
  account_id: string;
  source_id: string;
  source_type: string;
  title: string;
  owner: string | null;
  permissions_scope: string;
  retention_class: string;
  metadata: ColumnType<Record<string, unknown>, string, string>;
  status: "active" | "disabled" | "deleted";
  retrievable: boolean;
  versions: number;
  created_at: Date;
  updated_at: Date;
  deleted_at: Date | null;
  delete_reason: string | null;
}

/** Versions of a grounding source (metadata; the text lives in chunks). */
export interface GroundingVersionsTable {
  id: Generated<string>;
  account_id: string;
  source_pk: string;
  version_number: number;
  version_label: string | null;
  content_type: string;
  metadata: ColumnType<Record<string, unknown>, string, string>;
  text_sha256: string;
  chars: number;
  pages: number;
  chunks: number;
  created_at: Date;
  expires_at: Date | null;
  content_removed_at: Date | null;
}

/** Chunks of a version's text with their spans; tsv is generated by Postgres. */
export interface GroundingChunksTable {
  id: Generated<string>;
  account_id: string;
  source_pk: string;
  version_id: string;
  ordinal: number;
  start_char: number;
  end_char: number;
  page: number;
  text_sha256: string;
  text: string;
  tsv: Generated<string>;
}

/** Ingestion runs: one per ingest call. */
export interface GroundingIngestionRunsTable {
  id: string;
  account_id: string;
  source_pk: string;
  version_id: string | null;
  kind: "text" | "file";
  status: "succeeded" | "failed";
  content_type: string | null;
  bytes: number;
  pages: number;
  chars: number;
  chunks: number;
  error_code: string | null;
  error_reason: string | null;
  started_at: Date;
  finished_at: Date;
  duration_ms: number;
}

/** Retrieval traces of role reports (ids and counts only). */
export interface GroundingTracesTable {
  id: string;
  account_id: string;
  decision_id: string;
  trace_json: string;
  created_at: Date;
}

/** Role reports as returned (JSON text, byte-stable). */
export interface GroundingReportsTable {
  decision_id: string;
  account_id: string;
  trace_id: string;
  status: string;
  report_json: string;
  request_sha256: string;
  created_at: Date;
}

/** Idempotency keys of creating POSTs: the first answer, replayed for 24 hours. */
export interface IdempotencyKeysTable {
  account_id: string;
  idempotency_key: string;
  method: string;
  path: string;
  request_sha256: string;
  response_status: number | null;
  response_type: string | null;
  response_body: string | null;
  created_at: Date;
  expires_at: Date;
}

/** Developer console sessions: the cookie's id as a SHA-256, with idle and absolute expiry. */
export interface ConsoleSessionsTable {
  id_hash: string;
  account_id: string;
  session_epoch: number;
  created_at: Date;
  last_seen_at: Date;
  expires_at: Date;
  flash: string | null;
}

export interface DB {
  schema_migrations: SchemaMigrationsTable;
  artifact_activations: ArtifactActivationsTable;
  service_secrets: ServiceSecretsTable;
  accounts: AccountsTable;
  email_tokens: EmailTokensTable;
  contracts: ContractsTable;
  api_keys: ApiKeysTable;
  rate_counters: RateCountersTable;
  concurrency_leases: ConcurrencyLeasesTable;
  usage_minutes: UsageMinutesTable;
  maintenance_runs: MaintenanceRunsTable;
  feedback: FeedbackTable;
  login_throttle: LoginThrottleTable;
  email_outbox: EmailOutboxTable;
  workforce_evidence_packs: WorkforceEvidencePacksTable;
  grounding_sources: GroundingSourcesTable;
  grounding_versions: GroundingVersionsTable;
  grounding_chunks: GroundingChunksTable;
  grounding_ingestion_runs: GroundingIngestionRunsTable;
  grounding_traces: GroundingTracesTable;
  grounding_reports: GroundingReportsTable;
  idempotency_keys: IdempotencyKeysTable;
  console_sessions: ConsoleSessionsTable;
}
