-- slices.stack: a stack id per slice, equal for slices whose chains of
-- (category, name) from the root down are equal, and the slices of a stack.
--
-- A slice's stack id is hash() of the text "h0|h1|...|hN" (decimal
-- numbers, also for a root's lone "h0"): h0 the hash of
-- the slice's own "category|name" (category '' when NULL), then its
-- ancestors' from the root down (the same value Perfetto's stdlib gives).
-- parent_stack_id is the parent's stack id, 0 for a root.
-- ancestor_slice_by_stack() and descendant_slice_by_stack() are built in
-- (core/sql/vtab_ancestor.c) and use the same stack ids.

-- Every slice with stack_id and parent_stack_id.
CREATE PERFETTO VIEW slice_with_stack_id(
  id ID(slice.id),
  ts TIMESTAMP,
  dur DURATION,
  track_id JOINID(track.id),
  category STRING,
  name STRING,
  depth LONG,
  parent_id JOINID(slice.id),
  arg_set_id ARGSETID,
  thread_ts TIMESTAMP,
  thread_dur LONG,
  thread_instruction_count LONG,
  thread_instruction_delta LONG,
  stack_id LONG,
  parent_stack_id LONG
) AS
WITH RECURSIVE
  -- chain: the frame hashes from the root down to the slice itself
  _chain(id, self_hash, chain, stack) AS (
    SELECT id, hash(ifnull(category, '') || '|' || name),
           hash(ifnull(category, '') || '|' || name),
           hash(CAST(hash(ifnull(category, '') || '|' || name) AS TEXT))
    FROM slice WHERE parent_id IS NULL
    UNION ALL
    SELECT s.id, hash(ifnull(s.category, '') || '|' || s.name),
           c.chain || '|' || hash(ifnull(s.category, '') || '|' || s.name),
           hash(hash(ifnull(s.category, '') || '|' || s.name) || '|' || c.chain)
    FROM slice s JOIN _chain c ON s.parent_id = c.id
  )
SELECT s.id, s.ts, s.dur, s.track_id, s.category, s.name, s.depth, s.parent_id,
       s.arg_set_id, s.thread_ts, s.thread_dur,
       NULL AS thread_instruction_count, NULL AS thread_instruction_delta,
       ifnull(c.stack, 0) AS stack_id, ifnull(p.stack, 0) AS parent_stack_id
FROM slice s
LEFT JOIN _chain c ON c.id = s.id
LEFT JOIN _chain p ON p.id = s.parent_id;
