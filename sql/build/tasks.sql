-- Task statements, typed core or supplemental (NULL where the release leaves it unrated).
CREATE TABLE tasks AS
SELECT
  onet_code,
  task_id,
  task,
  lower(task_type) AS task_type,
  incumbents_responding,
  task_date,
  domain_source
FROM stg.stg_onet__tasks
ORDER BY onet_code, task_id;
