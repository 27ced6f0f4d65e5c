import type { Migration } from 'kysely';
import * as accounts from './2026-11-23-0001-accounts.js';
import * as trees from './2026-11-23-0002-trees.js';
import * as search from './2026-11-23-0003-search.js';
import * as agent from './2026-11-23-0004-agent.js';
import * as files from './2026-11-23-0005-files.js';
import * as teams from './2026-11-23-0006-teams.js';
import * as oauth from './2026-11-24-0007-oauth.js';
import * as billing from './2026-11-24-0008-billing.js';
import * as taskVersion from './2026-11-24-0009-task-version.js';
import * as taskPlace from './2026-11-25-0010-task-place.js';
import * as agentCallBatches from './2026-11-26-0011-agent-call-batches.js';
import * as taskPlacePlan from './2026-11-27-0012-task-place-plan.js';
import * as emailVerification from './2026-11-27-0013-email-verification.js';
import * as movedTaskData from './2026-11-27-0015-moved-task-data.js';
import * as projectParentNoCascade from './2026-11-27-0016-project-parent-no-cascade.js';
import * as dropTaskPlace from './2026-11-27-0017-drop-task-place.js';
import * as postAuthorNullable from './2026-11-27-0018-post-author-nullable.js';
import * as treeActivity from './2026-11-27-0020-tree-activity.js';
import * as credentialTrees from './2026-11-27-0021-credential-trees.js';
import * as recordVersions from './2026-11-27-0022-record-versions.js';
import * as taskDeadlines from './2026-11-27-0023-task-deadlines.js';
import * as changes from './2026-11-27-0024-changes.js';

/** Every migration, in order. Names are frozen once released; add new files, never edit old ones. */
export const migrations: Record<string, Migration> = {
  '2026-11-23-0001-accounts': accounts,
  '2026-11-23-0002-trees': trees,
  '2026-11-23-0003-search': search,
  '2026-11-23-0004-agent': agent,
  '2026-11-23-0005-files': files,
  '2026-11-23-0006-teams': teams,
  '2026-11-24-0007-oauth': oauth,
  '2026-11-24-0008-billing': billing,
  '2026-11-24-0009-task-version': taskVersion,
  '2026-11-25-0010-task-place': taskPlace,
  '2026-11-26-0011-agent-call-batches': agentCallBatches,
  '2026-11-27-0012-task-place-plan': taskPlacePlan,
  '2026-11-27-0013-email-verification': emailVerification,
  '2026-11-27-0015-moved-task-data': movedTaskData,
  '2026-11-27-0016-project-parent-no-cascade': projectParentNoCascade,
  '2026-11-27-0017-drop-task-place': dropTaskPlace,
  '2026-11-27-0018-post-author-nullable': postAuthorNullable,
  '2026-11-27-0020-tree-activity': treeActivity,
  '2026-11-27-0021-credential-trees': credentialTrees,
  '2026-11-27-0022-record-versions': recordVersions,
  '2026-11-27-0023-task-deadlines': taskDeadlines,
  '2026-11-27-0024-changes': changes,
};
