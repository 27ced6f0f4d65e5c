import type { Generated } from 'kysely';

/** Row types of every table. Timestamps are ISO 8601 text (UTC, milliseconds) on both databases. */
export interface UserTable {
  id: string;
  owner_id: string;
  email: string;
  password_hash: string;
  name: string;
  language: string;
  timezone: string;
  plan: string;
  plan_expires_at: string | null;
  /** The billing provider's customer, bound by the first completed checkout. */
  billing_customer_id: string | null;
  /** `created` of the last provider event that set the plan; older events never undo it. */
  billing_event_at: string | null;
  /** When the account proved it reads its email (a mailed link, a completed reset, the operator); null until then. */
  email_verified_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface SessionTable {
  id_hash: string;
  owner_id: string;
  created_at: string;
  expires_at: string;
}

export interface PersonalTokenTable {
  id: string;
  owner_id: string;
  name: string;
  /** Space-separated scope names. */
  scopes: string;
  prefix: string;
  token_hash: string;
  created_at: string;
  updated_at: string;
  expires_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
  /** Space-separated ids of the trees it is limited to; null: every tree the user can see (CONTRACT §16.1). */
  tree_ids: string | null;
}

export interface IdempotencyKeyTable {
  owner_id: string;
  key: string;
  fingerprint: string;
  /** 'running' while the first request works, 'done' once its response is stored. */
  state: string;
  status_code: number | null;
  response_body: string | null;
  created_at: string;
}

export interface PasswordResetTable {
  id: string;
  owner_id: string;
  token_hash: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

/** One-time email verification links (stored hashed), for the address they were mailed to. */
export interface EmailVerificationTable {
  id: string;
  owner_id: string;
  email: string;
  token_hash: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

export interface TreeTable {
  seq: Seq;
  id: string;
  owner_id: string;
  name: string;
  style: string;
  project_count: Generated<number>;
  task_count: Generated<number>;
  created_at: string;
  updated_at: string;
  /** Raised by every change of the tree's own fields (`nextVersion`, CONTRACT §16.2); not by its children's. */
  version: Generated<number>;
}

export interface ProjectTable {
  seq: Seq;
  id: string;
  owner_id: string;
  tree_id: string;
  parent_id: string | null;
  name: string;
  description: string;
  color: string;
  position: number;
  created_at: string;
  updated_at: string;
  /** Raised by every change of the project's own fields and by a move to another tree (`nextVersion`). */
  version: Generated<number>;
}

export interface TaskTable {
  seq: Seq;
  id: string;
  owner_id: string;
  tree_id: string;
  project_id: string | null;
  title: string;
  text: string;
  notes: string;
  status: string;
  deadline: string | null;
  color: string;
  position: number;
  completed_at: string | null;
  created_by: string;
  created_at: string;
  updated_at: string;
  /** JSON text: string[], the user ids of task_assignees for this task. */
  assignee_ids: Generated<string>;
  /** Raised by one by every change of the row (`nextVersion`, CONTRACT §16.2): the ETag of a task read comes from it. */
  version: Generated<number>;
}

export interface HistoryTable {
  seq: Seq;
  id: string;
  owner_id: string;
  tree_id: string;
  at: string;
  actor_id: string;
  via: string;
  entity: string;
  entity_id: string;
  action: string;
  /** JSON text: {field: {from, to}} */
  changes: string;
  /** The change (CONTRACT §16.3) the entry belongs to: `chg_…`. */
  change_id: string;
  /** The personal token or OAuth grant that wrote it; null for a browser session or the CLI. */
  credential_id: string | null;
  /** The token's name or the OAuth client's name; null otherwise. */
  client: string | null;
  /** The change a revert undid with this entry; null otherwise. */
  reverts: string | null;
  /** JSON text `{field: {from, to}}`: what undoing this entry needs that `changes` does not show; never answered. */
  restore: string | null;
}

export interface McpSessionTable {
  id_hash: string;
  owner_id: string;
  credential_id: string;
  protocol_version: string;
  client_name: string;
  client_version: string;
  created_at: string;
  last_seen_at: string;
  ended_at: string | null;
}

export interface OAuthClientTable {
  id: string;
  client_name: string;
  /** JSON array of redirect URIs. */
  redirect_uris: string;
  /** JSON text: the registration document as answered. */
  metadata: string;
  created_at: string;
  last_used_at: string;
}

export interface OAuthGrantTable {
  id: string;
  owner_id: string;
  client_id: string;
  /** Space-separated scope names. */
  scopes: string;
  resource: string;
  created_at: string;
  last_used_at: string | null;
  revoked_at: string | null;
  /** Space-separated ids of the trees it is limited to; null: every tree the user can see (CONTRACT §16.1). */
  tree_ids: string | null;
}

export interface OAuthCodeTable {
  code_hash: string;
  grant_id: string;
  redirect_uri: string;
  code_challenge: string;
  expires_at: string;
  used_at: string | null;
}

export interface OAuthTokenTable {
  token_hash: string;
  grant_id: string;
  kind: 'access' | 'refresh';
  created_at: string;
  expires_at: string;
  used_at: string | null;
  revoked_at: string | null;
}

/** Up to 100 of an owner's agent calls, in order (see store/agent-calls.ts). */
export interface AgentCallBatchTable {
  seq: Seq;
  owner_id: string;
  call_count: number;
  /** JSON: an array of [id, at, surface, operation, status, duration_ms, token_id, client]. */
  calls: string;
}

export interface AttachmentTable {
  seq: Seq;
  id: string;
  owner_id: string;
  task_id: string;
  filename: string;
  content_type: string;
  size: number;
  sha256: string;
  /** JSON text: string[] */
  metadata_removed: string;
  created_at: string;
  updated_at: string;
  /** Where the content is stored: the key it was written under, kept when a move changes the owner. */
  blob_key: string;
}

export interface SpeechJobTable {
  seq: Seq;
  id: string;
  owner_id: string;
  task_id: string;
  attachment_id: string;
  status: string;
  transcript: string | null;
  error: string | null;
  attempts: Generated<number>;
  run_at: string;
  created_at: string;
  updated_at: string;
  finished_at: string | null;
}

export interface MemberTable {
  seq: Seq;
  id: string;
  owner_id: string;
  tree_id: string;
  user_id: string | null;
  email: string;
  role: string;
  status: string;
  expires_at: string | null;
  invited_by: string;
  /** The hash of the invitation's one-time link (`invite_url`); null once used or ended. */
  invite_token_hash: string | null;
  created_at: string;
  updated_at: string;
}

export interface TaskAssigneeTable {
  task_id: string;
  user_id: string;
  owner_id: string;
  tree_id: string;
  created_at: string;
}

export interface CommentTable {
  seq: Seq;
  id: string;
  owner_id: string;
  tree_id: string;
  task_id: string;
  /** Null once the author deleted their account (CONTRACT §18). */
  author_id: string | null;
  body: string;
  created_at: string;
  updated_at: string;
}

export interface MessageTable {
  seq: Seq;
  id: string;
  owner_id: string;
  tree_id: string;
  /** Null once the author deleted their account (CONTRACT §18). */
  author_id: string | null;
  body: string;
  created_at: string;
  updated_at: string;
}

export interface Database {
  users: UserTable;
  sessions: SessionTable;
  personal_tokens: PersonalTokenTable;
  idempotency_keys: IdempotencyKeyTable;
  password_resets: PasswordResetTable;
  email_verifications: EmailVerificationTable;
  trees: TreeTable;
  projects: ProjectTable;
  tasks: TaskTable;
  history: HistoryTable;
  mcp_sessions: McpSessionTable;
  agent_call_batches: AgentCallBatchTable;
  attachments: AttachmentTable;
  speech_jobs: SpeechJobTable;
  members: MemberTable;
  task_assignees: TaskAssigneeTable;
  comments: CommentTable;
  messages: MessageTable;
  billing_events: BillingEventTable;
  oauth_clients: OAuthClientTable;
  oauth_grants: OAuthGrantTable;
  oauth_codes: OAuthCodeTable;
  oauth_tokens: OAuthTokenTable;
}

/** Provider events already applied (or deliberately ignored); the primary key makes each apply once. */
export interface BillingEventTable {
  id: string;
  type: string;
  user_id: string | null;
  outcome: string;
  event_created_at: string;
  received_at: string;
}

/** Columns filled by the database (sequences). */
export type Seq = Generated<number>;
