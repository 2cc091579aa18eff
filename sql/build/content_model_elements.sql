-- Content-model elements of the four domains used as term dictionaries: abilities (1.A),
-- skills (2.A basic, 2.B cross-functional), knowledge (2.C) and work activities (4.A).
CREATE TABLE content_model_elements AS
SELECT
  element_id,
  element_name,
  description,
  CASE
    WHEN element_id = '1.A' OR starts_with(element_id, '1.A.') THEN 'ability'
    WHEN element_id IN ('2.A', '2.B') OR starts_with(element_id, '2.A.')
      OR starts_with(element_id, '2.B.') THEN 'skill'
    WHEN element_id = '2.C' OR starts_with(element_id, '2.C.') THEN 'knowledge'
    ELSE 'work_activity'
  END AS domain,
  (length(element_id) - length(replace(element_id, '.', '')) + 1)::INTEGER AS depth,
  CASE WHEN contains(element_id, '.')
    THEN regexp_replace(element_id, '\.[^.]+$', '') END AS parent_id
FROM stg.stg_onet__content_model
WHERE element_id IN ('1.A', '2.A', '2.B', '2.C', '4.A')
  OR starts_with(element_id, '1.A.') OR starts_with(element_id, '2.A.')
  OR starts_with(element_id, '2.B.') OR starts_with(element_id, '2.C.')
  OR starts_with(element_id, '4.A.')
ORDER BY element_id;
