-- Collection sizes and average document lengths per field, the constants BM25 needs.
CREATE TABLE field_stats AS
SELECT 'title' AS field, count(*)::INTEGER AS documents,
  avg(len(string_split(title_norm, ' '))) AS avg_length
FROM occupation_titles
WHERE title_norm <> ''
UNION ALL
SELECT field, count(DISTINCT onet_code)::INTEGER, sum(tf) / count(DISTINCT onet_code)
FROM text_postings
GROUP BY field
ORDER BY field;
