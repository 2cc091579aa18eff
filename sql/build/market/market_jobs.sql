-- Distinct jobs (dedup rule v1). Postings with the same dedup key are one job while each
-- repost comes within dedup_window_days of the previous posting of that key; a longer gap
-- starts a new job. The key is the normalised title, the normalised employer (or, when the
-- feed names no employer, a fingerprint of the description) and the location (country,
-- region, locality). Undated postings of one key are one job. job_id is the job's first
-- posting_id. Window flags are computed from as_of (market_params):
--   in_current  = some posting dated in (as_of - window_days, as_of]
--   in_previous = some posting dated in (as_of - 2 * window_days, as_of - window_days]
--   active      = in_current and not expired (valid_through is null or >= as_of)
--   historical  = first posted on or before as_of, or undated
-- Plain SQL over the staged Parquet views; on Spark SQL or Trino replace `a - b` on dates
-- with datediff / date_diff and `d - INTERVAL n DAY` stays as is.
CREATE TEMP TABLE int_postings__keyed AS
SELECT
  posting_id,
  date_posted,
  concat_ws('|', title_norm, coalesce(employer_norm, 'text:' || coalesce(description_fingerprint, '')),
    coalesce(country, '?'), coalesce(region, ''), coalesce(locality, '')) AS dedup_key
FROM staged_postings;

CREATE TEMP TABLE int_postings__jobs AS
WITH ordered AS (
  SELECT
    posting_id,
    date_posted,
    dedup_key,
    row_number() OVER w AS n,
    lag(date_posted) OVER w AS previous_date
  FROM int_postings__keyed
  WINDOW w AS (PARTITION BY dedup_key, date_posted IS NULL ORDER BY date_posted, posting_id)
),
marked AS (
  SELECT *,
    CASE
      WHEN n = 1 THEN 1
      WHEN date_posted IS NULL THEN 0
      WHEN date_posted - previous_date > (SELECT dedup_window_days FROM market_params) THEN 1
      ELSE 0
    END AS starts_job
  FROM ordered
),
numbered AS (
  SELECT *,
    sum(starts_job) OVER (PARTITION BY dedup_key, date_posted IS NULL
      ORDER BY date_posted, posting_id ROWS UNBOUNDED PRECEDING) AS job_seq
  FROM marked
)
SELECT
  posting_id,
  min(posting_id) OVER (PARTITION BY dedup_key, date_posted IS NULL, job_seq) AS job_id
FROM numbered;

CREATE TABLE market_jobs AS
WITH params AS (SELECT * FROM market_params),
postings AS (
  SELECT p.*, j.job_id
  FROM staged_postings p JOIN int_postings__jobs j USING (posting_id)
)
SELECT
  job_id,
  arg_min(feed, posting_id) AS feed,
  arg_min(title, posting_id) AS title,
  arg_min(title_norm, posting_id) AS title_norm,
  arg_min(employer, posting_id) AS employer,
  arg_min(country, posting_id) AS country,
  arg_min(region, posting_id) AS region,
  arg_min(locality, posting_id) AS locality,
  min(date_posted) AS first_posted,
  max(date_posted) AS last_posted,
  arg_min(date_precision, posting_id) AS date_precision,
  max(valid_through) AS valid_through,
  bool_or(remote) AS remote,
  NOT bool_or(remote) AND bool_or(hybrid) AS hybrid,
  coalesce(arg_min(remote_rule, posting_id) FILTER (WHERE remote OR hybrid),
    arg_min(remote_rule, posting_id)) AS remote_rule,
  count(*)::INTEGER AS postings,
  arg_min(onet_code, posting_id) AS onet_code,
  arg_min(occupation_confidence, posting_id) AS occupation_confidence,
  coalesce(bool_or(date_posted > params.as_of - params.window_days
    AND date_posted <= params.as_of), false) AS in_current,
  coalesce(bool_or(date_posted > params.as_of - 2 * params.window_days
    AND date_posted <= params.as_of - params.window_days), false) AS in_previous,
  coalesce(bool_or(date_posted > params.as_of - params.window_days AND date_posted <= params.as_of), false)
    AND (max(valid_through) IS NULL OR max(valid_through) >= any_value(params.as_of)) AS active,
  (min(date_posted) IS NULL OR min(date_posted) <= any_value(params.as_of)) AS historical
FROM postings, params
GROUP BY job_id
ORDER BY job_id;
