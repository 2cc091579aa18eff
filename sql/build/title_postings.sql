-- Title postings: for each normalised term, the titles that contain it, how often, and the
-- first position (1-based) so phrase and role-head matching can read word order.
CREATE TABLE title_postings AS
WITH words AS (
  SELECT title_id, string_split(title_norm, ' ') AS terms
  FROM occupation_titles
  WHERE title_norm <> ''
),
exploded AS (
  SELECT title_id, unnest(terms) AS term, unnest(range(1, len(terms) + 1)) AS position
  FROM words
)
SELECT term, title_id, count(*)::INTEGER AS tf, min(position)::INTEGER AS first_position
FROM exploded
GROUP BY term, title_id
ORDER BY term, title_id;
