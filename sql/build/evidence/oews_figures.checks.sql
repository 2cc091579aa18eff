-- check: every published cell is a number or a known marker
SELECT sha256, line, measure FROM oews_figures WHERE value IS NULL AND marker IS NULL;

-- check: employment and wages are not negative
SELECT sha256, line, measure, value FROM oews_figures WHERE value < 0;
