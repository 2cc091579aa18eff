-- check: one estimate per file, industry, ownership, occupation and level
SELECT sha256, naics, own_code, occ_code, o_group, count(*) FROM oews_estimates
GROUP BY ALL HAVING count(*) > 1;
