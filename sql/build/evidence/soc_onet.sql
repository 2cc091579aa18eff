-- The O*NET-SOC occupations under each detailed SOC code, from the taxonomy artifact.
CREATE TABLE soc_onet AS
SELECT o.soc_code, o.onet_code, o.title AS onet_title
FROM tax.occupations o
JOIN soc_catalog c ON c.soc_code = o.soc_code AND c.level = 'detailed'
ORDER BY o.soc_code, o.onet_code;
