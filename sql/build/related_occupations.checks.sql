-- check: an occupation is not related to itself
SELECT onet_code FROM related_occupations WHERE onet_code = related_code;

-- check: the relatedness index is positive
SELECT onet_code, related_code, related_index FROM related_occupations WHERE related_index < 1;
