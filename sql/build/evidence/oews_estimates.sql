-- One row per OEWS estimate row of an approved file: its keys as published, the vintage of
-- its review, and whether only annual or only hourly wages are released for it.
CREATE TABLE oews_estimates AS
SELECT
  s.sha256,
  s.line,
  f.kind,
  f.vintage,
  f.reference_period,
  s.naics,
  s.naics_title,
  s.i_group,
  s.own_code,
  s.occ_code,
  s.occ_title,
  s.o_group,
  coalesce(upper(s.annual) = 'TRUE', false) AS annual_only,
  coalesce(upper(s.hourly) = 'TRUE', false) AS hourly_only
FROM stg_oews s JOIN stg_files f USING (sha256)
ORDER BY s.sha256, s.line;
