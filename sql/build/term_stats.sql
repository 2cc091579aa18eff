-- Term statistics per field: document frequency (titles for the title field, occupations
-- for description and task) and the number of occupations a term appears under, for IDF.
CREATE TABLE term_stats AS
SELECT 'title' AS field, p.term, count(*)::INTEGER AS doc_freq,
  count(DISTINCT t.onet_code)::INTEGER AS occupation_freq
FROM title_postings AS p
JOIN occupation_titles AS t USING (title_id)
GROUP BY p.term
UNION ALL
SELECT field, term, count(*)::INTEGER, count(*)::INTEGER
FROM text_postings
GROUP BY field, term
ORDER BY field, term;
