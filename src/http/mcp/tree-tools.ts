import { getTreeSnapshot } from '../../domain/trees/trees.js';
import { inputs, outputs } from './schemas.js';
import { readOnly, tool, type ToolSpec } from './tool-spec.js';
import { TREE_APP_TOOL_META } from './tree-app.js';

/** `get_tree` (CONTRACT §17): the snapshot of GET /trees/{id}; the MCP App draws it. */
export const getTreeTool: ToolSpec = tool(
  'read',
  {
    name: 'get_tree',
    title: 'Get a tree',
    description:
      'A whole tree at once: the tree, all its projects and its tasks that are not archived. Use it to see how work is organised before changing it.',
    outputSchema: outputs.TreeSnapshot,
    annotations: readOnly,
    _meta: TREE_APP_TOOL_META,
  },
  inputs.TreeId,
  (deps, actor, { id }) => getTreeSnapshot(deps, actor, id),
);

/** The tree and project tools of CONTRACT §17, in the order tools/list shows them. */
export const treeTools: ToolSpec[] = [getTreeTool];
