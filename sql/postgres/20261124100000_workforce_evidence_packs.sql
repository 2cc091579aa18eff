-- Why: workforce evidence packs are account-scoped, immutable documents. The id is derived from the
-- account, the canonical request and the evidence artifact's content hash, so creating the
-- same pack again finds this row (deterministic reuse).
CREATE TABLE workforce_evidence_packs (
  id TEXT PRIMARY KEY,
  account_id BIGINT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  soc_code TEXT NOT NULL,
  request_json TEXT NOT NULL,
  evidence_version TEXT NOT NULL,
  evidence_content_hash TEXT NOT NULL,
  document_json TEXT NOT NULL,
  document_sha256 TEXT NOT NULL,
  created_at TIMESTAMPTZ NOT NULL
);
CREATE INDEX workforce_evidence_packs_account ON workforce_evidence_packs (account_id, created_at);
