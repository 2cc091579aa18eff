-- Why: creating POSTs (key creation, feedback, evidence packs, grounding sources) accept an
-- Idempotency-Key header, the way Stripe does: the same key with the same request replays the
-- first answer, a different request under the same key is refused, and keys live 24 hours per
-- account. A row is reserved before the handler runs (response_status NULL) so two concurrent
-- requests with one key cannot both execute.
CREATE TABLE idempotency_keys (
  account_id BIGINT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  idempotency_key TEXT NOT NULL,
  method TEXT NOT NULL,
  path TEXT NOT NULL,
  request_sha256 TEXT NOT NULL,
  response_status INTEGER,
  response_type TEXT,
  response_body TEXT,
  created_at TIMESTAMPTZ NOT NULL,
  expires_at TIMESTAMPTZ NOT NULL,
  PRIMARY KEY (account_id, idempotency_key)
);
CREATE INDEX idempotency_keys_expiry ON idempotency_keys (expires_at);
