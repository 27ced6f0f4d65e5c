/** The records of the REST API (CONTRACT §2, §3, §6, §7, §8) as the app reads them. */
import type { Language } from '../i18n';

export type Plan = 'seed' | 'sprout' | 'grove';
export interface User {
  id: string; email: string; name: string; language: Language; timezone: string;
  plan: Plan; plan_expires_at: string | null; effective_plan: Plan; email_verified: boolean; created_at: string; updated_at: string;
}
export type TreeStyleName = 'tidy-fan' | 'space-colonization' | 'lsystem';
export const TREE_STYLES: readonly TreeStyleName[] = ['tidy-fan', 'space-colonization', 'lsystem'];
export interface Tree { id: string; name: string; style: TreeStyleName; owner_id: string; access: 'owner' | 'editor' | 'viewer'; created_at: string; updated_at: string }
export interface Project { id: string; tree_id: string; parent_id: string | null; name: string; description: string; color: string; position: number; created_at: string; updated_at: string }
export type TaskStatus = 'todo' | 'open' | 'done' | 'deferred' | 'archived';
export const TASK_STATUSES: readonly TaskStatus[] = ['todo', 'open', 'done', 'deferred', 'archived'];
export interface Task {
  id: string; tree_id: string; project_id: string | null; title: string; text: string; notes: string; status: TaskStatus;
  deadline: string | null; color: string; position: number; completed_at: string | null; created_by: string; assignee_ids: string[];
  created_at: string; updated_at: string;
}
export interface TreeSnapshot { tree: Tree; projects: Project[]; tasks: Task[] }
export type Scope = 'read' | 'write' | 'attachments';
export const SCOPES: readonly Scope[] = ['read', 'write', 'attachments'];
export interface Token { id: string; name: string; scopes: Scope[]; prefix: string; created_at: string; expires_at: string; last_used_at: string | null; revoked_at: string | null; status: 'active' | 'expired' | 'revoked' }
export interface OAuthConnection { id: string; client_id: string; client_name: string; scopes: Scope[]; resource: string; created_at: string; last_used_at: string | null }
export interface AgentCall { id: string; at: string; surface: 'rest' | 'mcp'; operation: string; status: number; duration_ms: number; token_id: string; client: string | null }
export interface Attachment { id: string; task_id: string; filename: string; content_type: string; size: number; sha256: string; metadata_removed: string[]; created_at: string }
export interface SpeechStatus { configured: boolean; provider: string | null; max_bytes: number; formats: string[] }
export interface SpeechJob { id: string; task_id: string; attachment_id: string | null; status: 'queued' | 'running' | 'succeeded' | 'failed'; transcript: string | null; error: string | null; created_at: string; updated_at: string; finished_at: string | null }
export interface Page<T> { items: T[]; next_cursor: string | null }

/** Teams (CONTRACT §10). */
export type MemberRole = 'viewer' | 'editor';
export const MEMBER_ROLES: readonly MemberRole[] = ['viewer', 'editor'];
export interface Member {
  id: string; tree_id: string; user_id: string | null; email: string; role: MemberRole; status: 'pending' | 'active' | 'revoked' | 'expired';
  expires_at: string | null; invited_by: string; created_at: string; updated_at: string;
}
export interface Invitation extends Member { tree_name: string }
/** A new invitation and its one-time link, which the owner sees this once (CONTRACT §19). */
export interface Invited { member: Member; invite_url: string }
export interface Comment { id: string; task_id: string; author_id: string; body: string; created_at: string; updated_at: string }
export interface Message { id: string; tree_id: string; author_id: string; body: string; created_at: string; updated_at: string }
export interface HistoryEntry {
  id: string; at: string; tree_id: string; actor_id: string; via: string; entity: string; entity_id: string; action: string;
  changes: Record<string, { from: unknown; to: unknown }>;
}
export interface ImportResult { created: { projects: number; tasks: number }; dry_run?: boolean }
export interface RowProblem { row: number; column: string | null; message: string }

export interface BillingPlan {
  id: Plan;
  price: { amount: number; currency: string; interval: 'month' } | null;
  limits: { trees: number; projects_per_tree: number; tasks_per_tree: number; storage_bytes: number; history_days: number; transcription: boolean; sharing: boolean };
}
export interface Billing {
  mode: 'test'; configured: boolean; plan: Plan; plan_expires_at: string | null; effective_plan: Plan; plans: BillingPlan[];
}
