/** The tools a credential with `read` sees (sorted): SPEC's reads and CONTRACT §17's. */
export const READ_TOOLS = ['get_task', 'get_tree', 'list_tasks', 'list_trees', 'search'].sort();

/** What `write` and a paid plan add. */
export const WRITE_TOOLS = ['complete_task', 'create_task'].sort();

/** The tools of a `read` + `write` credential on a paid plan (sorted). */
export const ALL_TOOLS = [...READ_TOOLS, ...WRITE_TOOLS].sort();
