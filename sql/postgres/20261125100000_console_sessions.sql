-- Why: the developer console (/console) signs a person in with a cookie of its own, not with a
-- management token, so that the browser never holds a bearer credential an API route accepts.
-- The cookie carries a random id; only its SHA-256 is stored here, with the account's session
-- epoch at sign-in (a password reset moves the epoch on, so every earlier session ends even
-- before its row is deleted), when it was last seen (idle expiry) and when it ends for good
-- (absolute lifetime). `flash` holds a raw API key sealed with AES-GCM for the one page view
-- after its creation (post-redirect-get), and is cleared by that view.
CREATE TABLE console_sessions (
  id_hash TEXT PRIMARY KEY,
  account_id BIGINT NOT NULL REFERENCES accounts (id) ON DELETE CASCADE,
  session_epoch INTEGER NOT NULL,
  created_at TIMESTAMPTZ NOT NULL,
  last_seen_at TIMESTAMPTZ NOT NULL,
  expires_at TIMESTAMPTZ NOT NULL,
  flash TEXT
);

CREATE INDEX console_sessions_by_account ON console_sessions (account_id);
CREATE INDEX console_sessions_expiry ON console_sessions (expires_at);
