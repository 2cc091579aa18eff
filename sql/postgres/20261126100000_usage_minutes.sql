-- Why: every metered request was a usage_records row, written in batches of 100 on the request
-- thread under embedded PGlite: at 5,000 req/s that was about 15% of the server's throughput and
-- 2-3 ms of its p99 (notes/issue12.md), and 432 million rows a day. Nothing read a row on its
-- own: the usage views group by UTC day, route, method and status. Every request is now counted
-- as the refusals were (usage_refusals, 20261124140000): one row per key, contract, method,
-- route, status and UTC minute, which each instance adds its buffered counts to with an upsert.
-- The rows written so far are kept as those counts; their request ids, which no view or route
-- ever returned, are not (the access log has one line per request with its id).
CREATE TABLE usage_minutes (
  account_id BIGINT NOT NULL,
  key_id BIGINT NOT NULL,
  contract_id BIGINT NOT NULL,
  method TEXT NOT NULL,
  route TEXT NOT NULL,
  status SMALLINT NOT NULL,
  minute TIMESTAMPTZ NOT NULL,
  requests BIGINT NOT NULL CHECK (requests > 0),
  -- The sum over the counted requests, so the views' average duration stays exact.
  duration_ms_total DOUBLE PRECISION NOT NULL,
  PRIMARY KEY (key_id, contract_id, method, route, status, minute)
);

CREATE INDEX usage_minutes_by_account ON usage_minutes (account_id, minute);

-- The minute in UTC whatever the session's time zone: whole minutes since the epoch.
INSERT INTO usage_minutes (account_id, key_id, contract_id, method, route, status, minute,
    requests, duration_ms_total)
  SELECT account_id, key_id, contract_id, method, route, status,
      to_timestamp(floor(extract(epoch FROM occurred_at) / 60) * 60), count(*), sum(duration_ms)
    FROM usage_records
    GROUP BY account_id, key_id, contract_id, method, route, status,
      floor(extract(epoch FROM occurred_at) / 60);

INSERT INTO usage_minutes (account_id, key_id, contract_id, method, route, status, minute,
    requests, duration_ms_total)
  SELECT account_id, key_id, contract_id, method, route, status, minute, requests,
      duration_ms_total
    FROM usage_refusals
  ON CONFLICT (key_id, contract_id, method, route, status, minute) DO UPDATE
    SET requests = usage_minutes.requests + excluded.requests,
        duration_ms_total = usage_minutes.duration_ms_total + excluded.duration_ms_total;

DROP TABLE usage_records;
DROP TABLE usage_refusals;
