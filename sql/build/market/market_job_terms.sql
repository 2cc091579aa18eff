-- Which terms each distinct job mentions (in any of its postings, in any field).
CREATE TABLE market_job_terms AS
SELECT DISTINCT j.job_id, m.term_type, m.term_id
FROM staged_mentions m
JOIN int_postings__jobs j USING (posting_id)
ORDER BY j.job_id, m.term_type, m.term_id;
