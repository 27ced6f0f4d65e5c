import type { ToolAnnotations } from '@modelcontextprotocol/server';
import { getTreeSnapshot } from '../../domain/trees/trees.js';
import { createProject, listProjects, updateProject } from '../../domain/trees/projects.js';
import { versionIs } from '../../domain/precondition.js';
import { inputs, outputs } from './schemas.js';
import { readOnly, tool, type ToolSpec } from './tool-spec.js';
import { TREE_APP_TOOL_META } from './tree-app.js';

/** A write that adds or changes a record and may be repeated with care. */
export const changes: ToolAnnotations = {
  readOnlyHint: false,
  destructiveHint: false,
  idempotentHint: false,
  openWorldHint: false,
};

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
export const treeTools: ToolSpec[] = [
  getTreeTool,

  tool(
    'read',
    {
      name: 'list_projects',
      title: 'List projects',
      description:
        'Projects in creation order, of one tree or all. Use it to find a project id for create_task or a move.',
      outputSchema: outputs.ProjectPage,
      annotations: readOnly,
    },
    inputs.ListProjects,
    (deps, actor, args) => listProjects(deps, actor, args),
  ),

  tool(
    'write',
    {
      name: 'create_project',
      title: 'Create a project',
      description: 'Creates a project in a tree, optionally inside another project, to group tasks.',
      outputSchema: outputs.ProjectChange,
      annotations: changes,
    },
    inputs.CreateProject,
    async (deps, actor, args) => ({ project: await createProject(deps, actor, args) }),
    { writes: true },
  ),

  tool(
    'write',
    {
      name: 'update_project',
      title: 'Update a project',
      description:
        'Renames, describes, recolours or moves a project (to another parent or tree). Pass the version you read as expected_version.',
      outputSchema: outputs.ProjectChange,
      annotations: changes,
    },
    inputs.UpdateProject,
    async (deps, actor, { id, expected_version, ...patch }) => ({
      project: await updateProject(deps, actor, id, patch, versionIs(expected_version)),
    }),
    { writes: true },
  ),
];
