-- Why: a flood over a contract's limits wrote one usage_records row per refused request
-- (220,000-314,000 rows in 40 s from two instances). Refusals are now counted instead: one row
-- per key, contract, route, status and UTC minute, which each instance adds its buffered count
-- to with an upsert. The usage views read both tables, so their totals stay exact.
CREATE TABLE usage_refusals (
  account_id BIGINT NOT NULL,
  key_id BIGINT NOT NULL,
  contract_id BIGINT NOT NULL,
  method TEXT NOT NULL,
  route TEXT NOT NULL,
  status SMALLINT NOT NULL,
  minute TIMESTAMPTZ NOT NULL,
  requests BIGINT NOT NULL CHECK (requests > 0),
  -- The sum over the counted requests, so the views' average duration stays exact too.
  duration_ms_total DOUBLE PRECISION NOT NULL,
  PRIMARY KEY (key_id, contract_id, method, route, status, minute)
);

CREATE INDEX usage_refusals_by_account ON usage_refusals (account_id, minute);
