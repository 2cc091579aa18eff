-- check: percentage is between 0 and 100
SELECT * FROM market_term_counts WHERE percentage < 0 OR percentage > 100;
-- check: a country's count never exceeds the all-countries count
SELECT c.* FROM market_term_counts c
JOIN market_term_counts a ON a.scope = c.scope AND a.country = '' AND a.term_type = c.term_type
  AND a.term_id = c.term_id
WHERE c.country <> '' AND c.job_count > a.job_count;
