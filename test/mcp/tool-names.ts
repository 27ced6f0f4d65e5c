/** The tools a credential with `read` sees (sorted): SPEC's reads and CONTRACT §17's. */
export const READ_TOOLS = [
  'get_history',
  'get_task',
  'get_tree',
  'list_comments',
  'list_projects',
  'list_tasks',
  'list_trees',
  'search',
].sort();

/** What `write` and a paid plan add. */
export const WRITE_TOOLS = [
  'add_comment',
  'assign_task',
  'complete_task',
  'create_project',
  'create_task',
  'create_tasks',
  'delete_task',
  'update_project',
  'update_task',
  'update_tasks',
].sort();

/** The tools of a `read` + `write` credential on a paid plan (sorted). */
export const ALL_TOOLS = [...READ_TOOLS, ...WRITE_TOOLS].sort();
