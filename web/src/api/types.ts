/**
 * The records of the REST API (CONTRACT §2, §3, §6, §7, §8, §10) as the app reads them: names for
 * the types openapi-typescript generates from the served OpenAPI document (openapi.d.ts, written by
 * `npm run generate:api-types`), so a field the server adds or changes reaches the app's types.
 */
import type { components, operations } from './openapi.js';

type Schemas = components['schemas'];
/** The JSON body an operation answers with `status`, for records the document does not name. */
type Answer<O extends keyof operations, S extends number = 200> =
  operations[O]['responses'] extends Record<S, { content: { 'application/json': infer B } }> ? B : never;

/**
 * Every value of a union, as a list the app iterates (menus, filters). The compiler refuses the
 * list when the API adds a value it lacks, so a new value cannot be left out of the app silently.
 */
function allOf<T extends string>() {
  return <const L extends readonly T[]>(
    list: L & ([Exclude<T, L[number]>] extends [never] ? unknown : { missing: Exclude<T, L[number]> }),
  ): readonly T[] => list;
}

export type User = Schemas['User'];
export type Plan = User['plan'];
export type Tree = Schemas['Tree'];
export type TreeStyleName = Tree['style'];
/** A tree as the trees list gives it: the record and `last_activity_at`. */
export type TreeListItem = Answer<'listTrees'>['items'][number];
/** A tree's drawing without its words, for its card (GET /tree-shapes). */
export type TreeShape = Answer<'listTreeShapes'>['items'][number];
export const TREE_STYLES = allOf<TreeStyleName>()(['tidy-fan', 'space-colonization', 'lsystem']);
export type Project = Schemas['Project'];
export type Task = Schemas['Task'];
export type TaskStatus = Task['status'];
export const TASK_STATUSES = allOf<TaskStatus>()(['todo', 'open', 'done', 'deferred', 'archived']);
export type TreeSnapshot = Schemas['TreeSnapshot'];
export type Token = Schemas['Token'];
export type Scope = Token['scopes'][number];
export const SCOPES = allOf<Scope>()(['read', 'write', 'attachments']);
export type OAuthConnection = Schemas['OAuthConnection'];
/** A journal record; `change_id` names what the call wrote (CONTRACT §16.3), null when it wrote nothing. */
export type AgentCall = Schemas['AgentCall'] & { change_id?: string | null };
export type Attachment = Schemas['Attachment'];
export type SpeechStatus = Answer<'getSpeechStatus'>;
export type SpeechJob = Schemas['SpeechJob'];
export interface Page<T> {
  items: T[];
  next_cursor: string | null;
}

/** Teams (CONTRACT §10). */
export type Member = Answer<'listMembers'>['items'][number];
export type MemberRole = Member['role'];
export const MEMBER_ROLES = allOf<MemberRole>()(['viewer', 'editor']);
export type Invitation = Answer<'listInvitations'>['items'][number];
/** A new invitation and its one-time link, which the owner sees this once (CONTRACT §19). */
export type Invited = Answer<'inviteMember', 201>;
export type Comment = Answer<'listComments'>['items'][number];
export type Message = Answer<'listMessages'>['items'][number];
/**
 * What every history entry carries about its change (CONTRACT §16.3): the change, the credential
 * (`pat_…` or an OAuth grant id; null for a browser session or the CLI), the token's or OAuth
 * client's name, and the change a revert undid.
 */
export interface ChangeStamp {
  change_id: string | null;
  credential_id: string | null;
  client: string | null;
  reverts: string | null;
}
export type HistoryEntry = Schemas['HistoryEntry'] & Partial<ChangeStamp>;
/** A record a revert left as it is (comments, messages, attachments, members). */
export interface SkippedEntry {
  entity: string;
  entity_id: string;
  action: string;
}
/** `POST /changes/{id}/revert` and `POST /trees/{id}/revert` (the latter also lists the changes undone). */
export interface RevertResult {
  change_id: string | null;
  reverted: number;
  skipped: SkippedEntry[];
  changes?: string[];
}
/** One detail of a 409 `revert_conflict`: a later change that touched a record the revert would put back. */
export interface LaterChange {
  entity: string;
  entity_id: string;
  change_id: string;
}
export type ImportResult = Answer<'importTasks'>;
/** A refused CSV row, from the details of the import's validation_failed (the document types details as unknown). */
export interface RowProblem {
  row: number;
  column: string | null;
  message: string;
}

export type BillingPlan = Schemas['BillingPlan'];
export type Billing = Schemas['Billing'];
