-- Occupation-level postings for descriptions and task statements: term frequency of each
-- normalised term in an occupation's description and in all its tasks together.
CREATE TABLE text_postings AS
WITH docs AS (
  SELECT 'description' AS field, onet_code, normalize_title(coalesce(description, '')) AS norm
  FROM occupations
  UNION ALL
  SELECT 'task', onet_code, normalize_title(task) FROM tasks
),
exploded AS (
  SELECT field, onet_code, unnest(string_split(norm, ' ')) AS term FROM docs WHERE norm <> ''
)
SELECT field, term, onet_code, count(*)::INTEGER AS tf
FROM exploded
GROUP BY field, term, onet_code
ORDER BY field, term, onet_code;
