import type { ToolSpec } from './tool-spec.js';
import { treeTools } from './tree-tools.js';
import { taskTools } from './task-tools.js';

/** CONTRACT §17's tools beside SPEC's eight, each on the domain function of its REST route. */
export const agentTools: ToolSpec[] = [...treeTools, ...taskTools];
