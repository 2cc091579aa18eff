-- check: task type is core, supplemental or unrated
SELECT onet_code, task_id, task_type FROM tasks WHERE task_type NOT IN ('core', 'supplemental');
