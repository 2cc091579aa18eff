-- The release this artifact was built from and the CC BY 4.0 attribution every response
-- that uses O*NET content must carry. Parameters come from the release's own Read Me.
CREATE TABLE attribution AS
SELECT $release::VARCHAR AS release, $label::VARCHAR AS release_label, $text::VARCHAR AS text;
