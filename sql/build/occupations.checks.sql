-- check: job zone is between 1 and 5
SELECT onet_code, job_zone FROM occupations WHERE job_zone NOT BETWEEN 1 AND 5;

-- check: a job zone is listed at most once per occupation in Job Zones.txt
SELECT onet_code, count(*) AS n FROM stg.stg_onet__job_zones GROUP BY onet_code HAVING count(*) > 1;

-- check: the release has occupations in at least one major group
SELECT 'no occupations' AS problem WHERE (SELECT count(*) FROM occupations) = 0;
