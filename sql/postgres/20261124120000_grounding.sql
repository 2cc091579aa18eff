-- Why: customer grounding keeps each tenant's own sources, their versions and chunks (with a
-- full-text index for retrieval), the ingestion runs, and the traces and role reports built
-- from them. The tenant is the runtime key's account; every row carries account_id and every
-- query filters on it. Raw uploads are never stored: only the extracted text, chunked, as
-- retrieval needs it, until the source is deleted or its retention ends.
CREATE TABLE grounding_sources (
  id BIGSERIAL PRIMARY KEY,
  account_id BIGINT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  source_id TEXT NOT NULL,
  source_type TEXT NOT NULL,
  title TEXT NOT NULL,
  owner TEXT,
  permissions_scope TEXT NOT NULL,
  retention_class TEXT NOT NULL,
  metadata JSONB NOT NULL DEFAULT '{}'::jsonb,
  -- active: retrieved; disabled: kept, not retrieved; deleted: tombstone (content removed).
  status TEXT NOT NULL CHECK (status IN ('active', 'disabled', 'deleted')),
  retrievable BOOLEAN NOT NULL DEFAULT true,
  versions INTEGER NOT NULL DEFAULT 0,
  created_at TIMESTAMPTZ NOT NULL,
  updated_at TIMESTAMPTZ NOT NULL,
  deleted_at TIMESTAMPTZ,
  delete_reason TEXT,
  UNIQUE (account_id, source_id)
);

CREATE TABLE grounding_versions (
  id BIGSERIAL PRIMARY KEY,
  account_id BIGINT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  source_pk BIGINT NOT NULL REFERENCES grounding_sources (id) ON DELETE CASCADE,
  version_number INTEGER NOT NULL,
  version_label TEXT,
  content_type TEXT NOT NULL,
  metadata JSONB NOT NULL DEFAULT '{}'::jsonb,
  text_sha256 TEXT NOT NULL,
  chars INTEGER NOT NULL,
  pages INTEGER NOT NULL,
  chunks INTEGER NOT NULL,
  created_at TIMESTAMPTZ NOT NULL,
  expires_at TIMESTAMPTZ,
  content_removed_at TIMESTAMPTZ,
  UNIQUE (source_pk, version_number)
);

CREATE TABLE grounding_chunks (
  id BIGSERIAL PRIMARY KEY,
  account_id BIGINT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  source_pk BIGINT NOT NULL REFERENCES grounding_sources (id) ON DELETE CASCADE,
  version_id BIGINT NOT NULL REFERENCES grounding_versions (id) ON DELETE CASCADE,
  ordinal INTEGER NOT NULL,
  start_char INTEGER NOT NULL,
  end_char INTEGER NOT NULL,
  page INTEGER NOT NULL,
  text_sha256 TEXT NOT NULL,
  text TEXT NOT NULL,
  tsv TSVECTOR GENERATED ALWAYS AS (to_tsvector('english', text)) STORED,
  UNIQUE (version_id, ordinal)
);
CREATE INDEX grounding_chunks_tsv ON grounding_chunks USING GIN (tsv);
CREATE INDEX grounding_chunks_account ON grounding_chunks (account_id, source_pk);

CREATE TABLE grounding_ingestion_runs (
  id TEXT PRIMARY KEY,
  account_id BIGINT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  source_pk BIGINT NOT NULL REFERENCES grounding_sources (id) ON DELETE CASCADE,
  version_id BIGINT REFERENCES grounding_versions (id) ON DELETE SET NULL,
  kind TEXT NOT NULL CHECK (kind IN ('text', 'file')),
  status TEXT NOT NULL CHECK (status IN ('succeeded', 'failed')),
  content_type TEXT,
  bytes INTEGER NOT NULL,
  pages INTEGER NOT NULL DEFAULT 0,
  chars INTEGER NOT NULL DEFAULT 0,
  chunks INTEGER NOT NULL DEFAULT 0,
  error_code TEXT,
  error_reason TEXT,
  started_at TIMESTAMPTZ NOT NULL,
  finished_at TIMESTAMPTZ NOT NULL,
  duration_ms INTEGER NOT NULL
);
CREATE INDEX grounding_runs_source ON grounding_ingestion_runs (account_id, source_pk, started_at);

CREATE TABLE grounding_traces (
  id TEXT PRIMARY KEY,
  account_id BIGINT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  decision_id TEXT NOT NULL,
  trace_json TEXT NOT NULL,
  created_at TIMESTAMPTZ NOT NULL
);
CREATE INDEX grounding_traces_account ON grounding_traces (account_id, created_at);

CREATE TABLE grounding_reports (
  decision_id TEXT PRIMARY KEY,
  account_id BIGINT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  trace_id TEXT NOT NULL,
  status TEXT NOT NULL,
  report_json TEXT NOT NULL,
  request_sha256 TEXT NOT NULL,
  created_at TIMESTAMPTZ NOT NULL
);
CREATE INDEX grounding_reports_account ON grounding_reports (account_id, created_at);
