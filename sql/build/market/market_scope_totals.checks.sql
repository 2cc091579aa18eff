-- check: remote and hybrid jobs are part of the jobs
SELECT * FROM market_scope_totals WHERE remote_jobs + hybrid_jobs > jobs OR jobs <= 0;
