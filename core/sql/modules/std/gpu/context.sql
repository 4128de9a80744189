-- std.gpu.context: the graphics contexts (GL contexts, VkDevices, CUDA
-- contexts, ...) that GPU render stage events name.

-- A row per graphics context seen in the trace.
CREATE PERFETTO VIEW gpu_context(
  -- The id of the row.
  id ID,
  -- The graphics context handle.
  context_id LONG,
  -- The process of the context.
  pid LONG,
  -- Its graphics API: OPEN_GL, VULKAN, OPEN_CL, CUDA, HIP or UNDEFINED.
  api STRING
) AS
SELECT id, context_id, pid, api FROM __intrinsic_gpu_context;
