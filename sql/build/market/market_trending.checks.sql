-- check: growth_rate follows its definition
SELECT * FROM market_trending
WHERE (previous_count = 0 AND growth_rate <> 1.0)
   OR (previous_count > 0 AND current_count = 0 AND growth_rate <> -1.0)
   OR growth_rate < -1.0;
