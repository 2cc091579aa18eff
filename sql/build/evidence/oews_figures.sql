-- The published figures of every OEWS row, long: a number, or the marker OEWS printed in its
-- place ('*' wage not available, '**' employment not available, '#' at or above the top code,
-- '~' under 0.5% of establishments reporting). Blank cells (not published for this kind of
-- estimate) have no row. Markers are never turned into numbers.
CREATE TABLE oews_figures AS
WITH long AS (
  UNPIVOT stg_oews
  ON tot_emp, emp_prse, pct_total, pct_rpt, h_mean, a_mean, mean_prse, h_pct10, h_pct25,
    h_median, h_pct75, h_pct90, a_pct10, a_pct25, a_median, a_pct75, a_pct90
  INTO NAME measure VALUE raw
)
SELECT
  sha256,
  line,
  measure,
  CASE WHEN raw IN ('*', '**', '#', '~') THEN NULL
    ELSE TRY_CAST(replace(raw, ',', '') AS DOUBLE) END AS value,
  CASE WHEN raw IN ('*', '**', '#', '~') THEN raw END AS marker
FROM long
ORDER BY sha256, line, measure;
