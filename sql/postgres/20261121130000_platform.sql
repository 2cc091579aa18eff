-- Why: the developer platform (accounts, email verification and password reset, management
-- sessions, contracts, runtime API keys, rate and quota counters shared by every instance,
-- usage metering, feedback and the transactional email outbox) must live in the one
-- Postgres every instance shares, so that limits, revocations and emails hold across replicas
-- and survive restarts. Secrets are only ever stored as hashes (keys, tokens) or encrypted
-- (outbox bodies until delivered).

-- Signing material generated on first start when AUTH_SECRET is not configured, so every
-- instance sharing this database signs and verifies with the same key.
CREATE TABLE service_secrets (
  name TEXT PRIMARY KEY,
  value TEXT NOT NULL,
  created_at TIMESTAMPTZ NOT NULL DEFAULT now()
);

CREATE TABLE accounts (
  id BIGSERIAL PRIMARY KEY,
  email TEXT NOT NULL,
  -- Addresses differing only in letter case are one mailbox in practice: one account. The
  -- service computes the key (emailKey), so lookups and the stored key can never disagree
  -- the way JavaScript's and Postgres' case folding do (e.g. for a dotted capital I).
  email_key TEXT NOT NULL UNIQUE,
  password_hash TEXT NOT NULL,
  full_name TEXT NOT NULL,
  company_name TEXT NOT NULL,
  status TEXT NOT NULL DEFAULT 'pending_verification'
    CHECK (status IN ('pending_verification', 'verified')),
  verified_at TIMESTAMPTZ,
  -- Bumped by a password reset: management tokens carry the epoch they were issued under.
  session_epoch INTEGER NOT NULL DEFAULT 0,
  password_changed_at TIMESTAMPTZ,
  created_at TIMESTAMPTZ NOT NULL
);

CREATE TABLE email_tokens (
  id BIGSERIAL PRIMARY KEY,
  account_id BIGINT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  purpose TEXT NOT NULL CHECK (purpose IN ('verify_email', 'reset_password')),
  token_hash TEXT NOT NULL UNIQUE,
  created_at TIMESTAMPTZ NOT NULL,
  expires_at TIMESTAMPTZ NOT NULL,
  used_at TIMESTAMPTZ
);

CREATE INDEX email_tokens_open ON email_tokens (account_id, purpose) WHERE used_at IS NULL;

CREATE TABLE contracts (
  id BIGSERIAL PRIMARY KEY,
  account_id BIGINT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  plan TEXT NOT NULL,
  status TEXT NOT NULL CHECK (status IN ('trial', 'active', 'expired', 'revoked')),
  starts_at TIMESTAMPTZ NOT NULL,
  ends_at TIMESTAMPTZ,
  rate_per_minute INTEGER NOT NULL CHECK (rate_per_minute > 0),
  monthly_quota INTEGER NOT NULL CHECK (monthly_quota > 0),
  concurrency INTEGER NOT NULL CHECK (concurrency > 0),
  entitlements TEXT[] NOT NULL DEFAULT '{}',
  created_at TIMESTAMPTZ NOT NULL,
  updated_at TIMESTAMPTZ NOT NULL
);

CREATE INDEX contracts_by_account ON contracts (account_id, starts_at DESC);

CREATE TABLE api_keys (
  id BIGSERIAL PRIMARY KEY,
  account_id BIGINT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  contract_id BIGINT NOT NULL REFERENCES contracts (id),
  name TEXT NOT NULL,
  key_hash TEXT NOT NULL UNIQUE,
  prefix TEXT NOT NULL,
  last_four TEXT NOT NULL,
  entitlements TEXT[] NOT NULL DEFAULT '{}',
  status TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'revoked')),
  created_at TIMESTAMPTZ NOT NULL,
  last_used_at TIMESTAMPTZ,
  revoked_at TIMESTAMPTZ
);

-- A name identifies one live key; a revoked key's name may be reused.
CREATE UNIQUE INDEX api_keys_live_name ON api_keys (account_id, name) WHERE status = 'active';
CREATE INDEX api_keys_by_account ON api_keys (account_id, created_at DESC);

-- Requests admitted (or handed to an instance as local allowance) per contract and window.
CREATE TABLE rate_counters (
  contract_id BIGINT NOT NULL REFERENCES contracts (id) ON DELETE CASCADE,
  window_kind TEXT NOT NULL CHECK (window_kind IN ('minute', 'month')),
  window_start TIMESTAMPTZ NOT NULL,
  used BIGINT NOT NULL DEFAULT 0 CHECK (used >= 0),
  -- How many the latest claim granted (the claim's RETURNING cannot see the old value).
  last_grant BIGINT NOT NULL DEFAULT 0,
  PRIMARY KEY (contract_id, window_kind, window_start)
);

-- Concurrency slots each instance holds for a contract; expired leases are ignored.
CREATE TABLE concurrency_leases (
  contract_id BIGINT NOT NULL REFERENCES contracts (id) ON DELETE CASCADE,
  instance_id TEXT NOT NULL,
  slots INTEGER NOT NULL CHECK (slots >= 0),
  expires_at TIMESTAMPTZ NOT NULL,
  PRIMARY KEY (contract_id, instance_id)
);

-- An append-only log written in batches: no foreign keys, whose three lookups per row would
-- cost about four times the insert itself (measured with bench:platform); ids come from the
-- authenticated key, never from a client.
CREATE TABLE usage_records (
  id BIGSERIAL PRIMARY KEY,
  account_id BIGINT NOT NULL,
  key_id BIGINT NOT NULL,
  contract_id BIGINT NOT NULL,
  method TEXT NOT NULL,
  route TEXT NOT NULL,
  status SMALLINT NOT NULL,
  duration_ms REAL NOT NULL,
  request_id TEXT NOT NULL,
  occurred_at TIMESTAMPTZ NOT NULL
);

CREATE INDEX usage_records_by_account ON usage_records (account_id, occurred_at);

CREATE TABLE feedback (
  id BIGSERIAL PRIMARY KEY,
  account_id BIGINT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  category TEXT NOT NULL,
  message TEXT NOT NULL,
  rating SMALLINT CHECK (rating BETWEEN 1 AND 5),
  related_request_id TEXT,
  created_at TIMESTAMPTZ NOT NULL
);

CREATE INDEX feedback_by_account ON feedback (account_id, id);

-- Failed logins per subject (a hashed email or a client address), whether or not an account
-- exists, so throttling reveals nothing.
CREATE TABLE login_throttle (
  subject TEXT PRIMARY KEY,
  failures INTEGER NOT NULL,
  last_failure_at TIMESTAMPTZ NOT NULL,
  locked_until TIMESTAMPTZ
);

-- Emails written in the same transaction as the change that causes them; a sender delivers
-- them with retries. The body is encrypted until delivery and erased after it.
CREATE TABLE email_outbox (
  id BIGSERIAL PRIMARY KEY,
  kind TEXT NOT NULL,
  recipient TEXT NOT NULL,
  subject TEXT NOT NULL,
  body_encrypted TEXT,
  attempts INTEGER NOT NULL DEFAULT 0,
  next_attempt_at TIMESTAMPTZ NOT NULL,
  last_error TEXT,
  created_at TIMESTAMPTZ NOT NULL,
  sent_at TIMESTAMPTZ,
  -- Set when the receiving server refused the recipient for good (SMTP 5xx at RCPT TO).
  failed_at TIMESTAMPTZ
);

CREATE INDEX email_outbox_pending ON email_outbox (next_attempt_at)
  WHERE sent_at IS NULL AND failed_at IS NULL;
