-- The term dictionary the extraction used (technology examples and leaf content-model
-- elements), so that every served name can be traced to its O*NET source.
CREATE TABLE market_terms AS
SELECT term_type, term_id, term_name, source
FROM staged_terms
ORDER BY term_type, term_id;
