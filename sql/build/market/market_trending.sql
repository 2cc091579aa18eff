-- Demand change per term: distinct jobs with a posting in the current window
-- (as_of - window_days, as_of] against the previous one. growth_rate = (current - previous)
-- / previous, exactly 1.0 when previous is 0 and current is not (spec 2.8), -1.0 when current
-- is 0. A term is listed when current + previous >= trending_min_jobs.
CREATE TABLE market_trending AS
WITH counted AS (
  SELECT
    t.term_type,
    t.term_id,
    (count(*) FILTER (WHERE j.in_current))::BIGINT AS current_count,
    (count(*) FILTER (WHERE j.in_previous))::BIGINT AS previous_count
  FROM market_job_terms t
  JOIN market_jobs j USING (job_id)
  WHERE j.in_current OR j.in_previous
  GROUP BY t.term_type, t.term_id
)
SELECT
  c.term_type,
  c.term_id,
  d.term_name,
  c.current_count,
  c.previous_count,
  CASE
    WHEN c.previous_count = 0 THEN 1.0
    ELSE round((c.current_count - c.previous_count)::DOUBLE / c.previous_count, 4)
  END AS growth_rate
FROM counted c
JOIN market_terms d ON d.term_type = c.term_type AND d.term_id = c.term_id
WHERE c.current_count + c.previous_count >= (SELECT trending_min_jobs FROM market_params)
ORDER BY c.term_type, c.term_id;
