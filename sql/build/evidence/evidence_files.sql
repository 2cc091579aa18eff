-- The approved snapshot files this version was built from, with their review.
CREATE TABLE evidence_files AS
SELECT sha256, kind, file, bytes, source, vintage, reference_period, reviewer, reviewed_on,
  notes, caveats, top_code_hourly, top_code_annual
FROM stg_files
ORDER BY sha256;
