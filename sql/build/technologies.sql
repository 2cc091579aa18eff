-- Technology skills: example product, its category and the hot / in-demand flags. The
-- category is a UNSPSC commodity up to 30.2 (Technology Skills) and a content-model software
-- element from 30.3 (Software Skills); the served columns keep their commodity_* names.
CREATE TABLE technologies AS
SELECT
  onet_code,
  example,
  category_code AS commodity_code,
  category_title AS commodity_title,
  hot_technology,
  in_demand
FROM stg.stg_onet__technologies
ORDER BY onet_code, example, commodity_code;
