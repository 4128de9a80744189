-- slices.flow: following flow arrows through many slices at once.

-- Every slice reachable over flow arrows (flow.slice_out -> slice_in)
-- from the slices of source_table (a table with an id column) that have
-- an outgoing flow. Result: (root_node_id, node_id, parent_node_id): the
-- start slice, a slice reached from it, and the slice through which it
-- was first reached (the smallest id when several; NULL for the start).
CREATE PERFETTO MACRO _slice_following_flow(
  source_table TableOrSubquery
)
RETURNS TableOrSubquery AS
(
  WITH RECURSIVE _reach(root_node_id, node_id, parent_node_id) AS (
    SELECT DISTINCT f.slice_out, f.slice_out, NULL
    FROM flow f JOIN (SELECT id FROM $source_table) src ON f.slice_out = src.id
    UNION
    SELECT r.root_node_id, f.slice_in, f.slice_out
    FROM _reach r JOIN flow f ON f.slice_out = r.node_id
  )
  SELECT root_node_id, node_id,
         iif(node_id = root_node_id, NULL, min(parent_node_id)) AS parent_node_id
  FROM _reach
  GROUP BY root_node_id, node_id
  ORDER BY root_node_id, node_id
);
