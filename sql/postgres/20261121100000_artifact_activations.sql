-- Why: artifacts are hot-swapped while the service runs, so operators need a durable record
-- of which artifact version each instance activated and when, to tie any answer back to the
-- exact data that produced it. The artifact registry appends one row per activation.
CREATE TABLE artifact_activations (
  id BIGSERIAL PRIMARY KEY,
  artifact TEXT NOT NULL,
  version TEXT NOT NULL,
  content_hash TEXT NOT NULL,
  instance_id TEXT NOT NULL,
  activated_at TIMESTAMPTZ NOT NULL DEFAULT now()
);

CREATE INDEX artifact_activations_by_artifact ON artifact_activations (artifact, activated_at DESC);
