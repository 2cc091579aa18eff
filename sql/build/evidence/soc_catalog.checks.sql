-- check: every level is one of the four SOC levels
SELECT soc_code, level FROM soc_catalog
WHERE level NOT IN ('major', 'minor', 'broad', 'detailed');

-- check: codes are written NN-NNNN
SELECT soc_code FROM soc_catalog WHERE NOT regexp_full_match(soc_code, '\d{2}-\d{4}');

-- check: every detailed code has a definition
SELECT soc_code FROM soc_catalog WHERE level = 'detailed' AND definition IS NULL;

-- check: the groups above every detailed code are in the catalog
SELECT c.soc_code FROM soc_catalog c
WHERE c.level = 'detailed' AND (
  c.major_code NOT IN (SELECT soc_code FROM soc_catalog WHERE level = 'major') OR
  c.minor_code NOT IN (SELECT soc_code FROM soc_catalog WHERE level = 'minor') OR
  c.broad_code NOT IN (SELECT soc_code FROM soc_catalog WHERE level = 'broad'));

-- check: a detailed code sits under its broad group, its broad group under its minor group
SELECT soc_code, minor_code, broad_code FROM soc_catalog
WHERE level = 'detailed' AND (broad_code < minor_code OR substr(broad_code, 1, 2) <> substr(soc_code, 1, 2));
