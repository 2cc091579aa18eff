-- Related occupations with O*NET's relatedness tier and index (1 = most related).
CREATE TABLE related_occupations AS
SELECT onet_code, related_code, relatedness_tier, related_index
FROM stg.stg_onet__related_occupations
ORDER BY onet_code, related_code;
