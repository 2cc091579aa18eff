-- Why: the purge of lapsed registrations and expired tokens runs on a timer in every replica.
-- An advisory lock keeps two replicas from running it at once; this row keeps the next replica
-- whose timer fires from repeating a purge another one has just done.
CREATE TABLE maintenance_runs (
  job TEXT PRIMARY KEY,
  last_run_at TIMESTAMPTZ NOT NULL,
  last_result JSONB NOT NULL
);
