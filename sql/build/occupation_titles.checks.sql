-- check: every occupation has exactly one primary title
SELECT o.onet_code, count(t.title_id) AS primaries
FROM occupations AS o
LEFT JOIN occupation_titles AS t ON t.onet_code = o.onet_code AND t.kind = 'primary'
GROUP BY o.onet_code
HAVING count(t.title_id) <> 1;

-- check: (onet_code, kind, title) is unique
SELECT onet_code, kind, title, count(*) AS n FROM occupation_titles GROUP BY ALL HAVING count(*) > 1;
