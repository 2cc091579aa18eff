-- Technology skills: example product, UNSPSC commodity and the hot / in-demand flags.
CREATE TABLE technologies AS
SELECT onet_code, example, commodity_code, commodity_title, hot_technology, in_demand
FROM stg.stg_onet__technologies
ORDER BY onet_code, example, commodity_code;
