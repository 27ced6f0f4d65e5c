/** One typed function per endpoint the app uses; paths and bodies as the OpenAPI document has them. */
import { api, query, setCsrf } from './client';
import type {
  AgentCall,
  Attachment,
  Billing,
  Comment,
  HistoryEntry,
  Invitation,
  Invited,
  Member,
  MemberRole,
  Message,
  OAuthConnection,
  Page,
  Project,
  Scope,
  SpeechJob,
  SpeechStatus,
  Task,
  TaskStatus,
  Token,
  Tree,
  TreeListItem,
  TreeSnapshot,
  TreeStyleName,
  User,
} from './types';
import type { Language } from '../i18n';

interface Session {
  user: User | null;
  csrf?: string;
}
/** `not_configured`: the service cannot send mail, and says so instead of claiming a mail went out. */
interface MailAnswer {
  status: 'queued';
  delivery: 'sent' | 'not_configured';
}

/** Every page of a list: the app shows whole lists (a Grove account may hold 250 trees). */
async function allPages<T>(path: string, params: Record<string, string | number | undefined> = {}): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | undefined;
  do {
    const page = await api<Page<T>>('GET', `${path}${query({ ...params, limit: 200, cursor })}`);
    items.push(...page.items);
    cursor = page.next_cursor ?? undefined;
  } while (cursor !== undefined);
  return items;
}

/** Every call that changes the session also brings its new CSRF value. */
async function session(promise: Promise<Session>): Promise<User | null> {
  const answer = await promise;
  setCsrf(answer.csrf);
  return answer.user;
}

export const auth = {
  me: () => session(api<Session>('GET', '/auth/me', undefined, { quiet401: true })),
  login: (email: string, password: string) =>
    session(api<Session>('POST', '/auth/login', { email, password }, { quiet401: true })),
  register: (input: { email: string; password: string; name?: string; language?: Language; timezone?: string }) =>
    session(api<Session>('POST', '/auth/register', input)),
  logout: () => session(api<Session>('POST', '/auth/logout', {})),
  updateProfile: (input: { name?: string; language?: Language; timezone?: string }) =>
    api<{ user: User }>('PATCH', '/auth/profile', input).then((a) => a.user),
  requestReset: (email: string) => api<MailAnswer>('POST', '/auth/reset/request', { email }),
  completeReset: (token: string, password: string) =>
    session(api<Session>('POST', '/auth/reset/complete', { token, password })),
  requestVerification: () => api<MailAnswer>('POST', '/auth/verify/request', {}),
  completeVerification: (token: string) =>
    api<{ user: User }>('POST', '/auth/verify/complete', { token }).then((a) => a.user),
  /** The account's own changes (CONTRACT §18): a wrong password is a 401 with details, not a dead session. */
  changePassword: (current_password: string, new_password: string) =>
    session(api<Session>('POST', '/auth/password', { current_password, new_password }, { quiet401: true })),
  changeEmail: (email: string, password: string) =>
    api<{ user: User }>('POST', '/auth/email', { email, password }, { quiet401: true }).then((a) => a.user),
  deleteAccount: (password: string) =>
    session(api<Session>('DELETE', '/auth/account', { password }, { quiet401: true })),
};

export const trees = {
  list: () => allPages<TreeListItem>('/trees'),
  get: (id: string) => api<TreeSnapshot>('GET', `/trees/${encodeURIComponent(id)}`),
  create: (name: string, style: TreeStyleName) =>
    api<{ tree: Tree }>('POST', '/trees', { name, style }).then((a) => a.tree),
  update: (id: string, patch: { name?: string; style?: TreeStyleName }) =>
    api<{ tree: Tree }>('PATCH', `/trees/${encodeURIComponent(id)}`, patch).then((a) => a.tree),
  remove: (id: string) => api<unknown>('DELETE', `/trees/${encodeURIComponent(id)}`),
};

export type ProjectPatch = Partial<Pick<Project, 'name' | 'description' | 'color' | 'parent_id' | 'tree_id'>>;
export const projects = {
  create: (input: { tree_id: string; name: string; parent_id?: string | null }) =>
    api<{ project: Project }>('POST', '/projects', input).then((a) => a.project),
  /** A new tree_id moves the project with its sub-projects and their tasks (CONTRACT §6). */
  update: (id: string, patch: ProjectPatch) =>
    api<{ project: Project }>('PATCH', `/projects/${encodeURIComponent(id)}`, patch).then((a) => a.project),
  /** With everything inside it: the app asks first, naming what goes. */
  remove: (id: string) => api<unknown>('DELETE', `/projects/${encodeURIComponent(id)}?cascade=true`),
  /** Every project of every tree the person sees. */
  list: () => allPages<Project>('/projects'),
};

/** A bound below any deadline: a bound, either one, leaves out the tasks that have none. */
const EARLIEST_DEADLINE = '1000-01-01';

/** A new tree_id moves the task to that tree (its project_id is cleared unless one of that tree is given). */
export type TaskPatch = Partial<
  Pick<Task, 'title' | 'text' | 'notes' | 'status' | 'deadline' | 'color' | 'project_id' | 'tree_id'>
>;
export const tasks = {
  create: (input: { tree_id: string; title: string; project_id?: string | null }) =>
    api<{ task: Task }>('POST', '/tasks', input).then((a) => a.task),
  update: (id: string, patch: TaskPatch) =>
    api<{ task: Task }>('PATCH', `/tasks/${encodeURIComponent(id)}`, patch).then((a) => a.task),
  remove: (id: string) => api<unknown>('DELETE', `/tasks/${encodeURIComponent(id)}`),
  /** A tree's archived tasks, which its snapshot leaves out (CONTRACT §6). */
  archived: (treeId: string) => allPages<Task>('/tasks', { tree_id: treeId, status: 'archived' }),
  get: (id: string) => api<{ task: Task }>('GET', `/tasks/${encodeURIComponent(id)}`).then((a) => a.task),
  search: (q: string, treeId: string) => api<Page<Task>>('GET', `/search${query({ q, tree_id: treeId, limit: 200 })}`),
  /** Every task with a deadline in every tree the person sees, of one status (CONTRACT §18). */
  withDeadline: (status: TaskStatus, assigneeId?: string) =>
    allPages<Task>('/tasks', { deadline_after: EARLIEST_DEADLINE, status, assignee_id: assigneeId }),
};

export const attachments = {
  list: (taskId: string) => allPages<Attachment>(`/tasks/${encodeURIComponent(taskId)}/attachments`),
  get: (id: string) =>
    api<{ attachment: Attachment; content_url: string; content_url_expires_at: string }>(
      'GET',
      `/attachments/${encodeURIComponent(id)}`,
    ),
  remove: (id: string) => api<unknown>('DELETE', `/attachments/${encodeURIComponent(id)}`),
};

export const speech = {
  status: () => api<SpeechStatus>('GET', '/speech/status'),
  jobs: (taskId: string) => allPages<SpeechJob>(`/tasks/${encodeURIComponent(taskId)}/transcriptions`),
  transcribe: (taskId: string, attachmentId: string) =>
    api<{ job: SpeechJob }>('POST', `/tasks/${encodeURIComponent(taskId)}/transcriptions`, {
      attachment_id: attachmentId,
    }).then((a) => a.job),
};

export const tokens = {
  list: () => api<{ items: Token[] }>('GET', '/tokens').then((a) => a.items),
  create: (input: { name: string; scopes: Scope[]; expires_in_days: number }) =>
    api<{ token: Token; value: string }>('POST', '/tokens', input),
  revoke: (id: string) => api<unknown>('DELETE', `/tokens/${encodeURIComponent(id)}`),
};

export const oauthConnections = {
  list: () => api<{ items: OAuthConnection[] }>('GET', '/oauth/connections').then((a) => a.items),
  revoke: (id: string) => api<unknown>('DELETE', `/oauth/connections/${encodeURIComponent(id)}`),
};

export const agentCalls = {
  latest: () => api<{ items: AgentCall[] }>('GET', '/agent-calls').then((a) => a.items),
};

const enc = encodeURIComponent;

/** Sharing a tree (owner) and the signed-in user's invitations (CONTRACT §10). */
export const members = {
  /** The members, each with their account's name, and the owner's name (name, or email when none). */
  list: (treeId: string) => api<{ items: Member[]; owner_name: string }>('GET', `/trees/${enc(treeId)}/members`),
  invite: (treeId: string, input: { email: string; role: MemberRole; expires_at?: string | null }) =>
    api<Invited>('POST', `/trees/${enc(treeId)}/members`, input),
  update: (id: string, patch: { role?: MemberRole; expires_at?: string | null }) =>
    api<{ member: Member }>('PATCH', `/members/${enc(id)}`, patch).then((a) => a.member),
  revoke: (id: string) => api<{ member: Member }>('DELETE', `/members/${enc(id)}`).then((a) => a.member),
};

export const invitations = {
  list: () => api<{ items: Invitation[] }>('GET', '/invitations').then((a) => a.items),
  /** With `token` (from an invitation's link): that invitation, for whoever is signed in. */
  accept: (id: string, token?: string) =>
    api<{ member: Member }>('POST', `/invitations/${enc(id)}/accept`, token !== undefined ? { token } : {}).then(
      (a) => a.member,
    ),
  decline: (id: string) => api<{ member: Member }>('POST', `/invitations/${enc(id)}/decline`, {}).then((a) => a.member),
};

export const assignees = {
  set: (taskId: string, userIds: string[]) =>
    api<{ task: Task }>('PUT', `/tasks/${enc(taskId)}/assignees`, { user_ids: userIds }).then((a) => a.task),
};

export const comments = {
  list: (taskId: string) => allPages<Comment>(`/tasks/${enc(taskId)}/comments`),
  create: (taskId: string, body: string) =>
    api<{ comment: Comment }>('POST', `/tasks/${enc(taskId)}/comments`, { body }).then((a) => a.comment),
  update: (id: string, body: string) =>
    api<{ comment: Comment }>('PATCH', `/comments/${enc(id)}`, { body }).then((a) => a.comment),
  remove: (id: string) => api<unknown>('DELETE', `/comments/${enc(id)}`),
};

export const messages = {
  list: (treeId: string) => allPages<Message>(`/trees/${enc(treeId)}/messages`),
  create: (treeId: string, body: string) =>
    api<{ message: Message }>('POST', `/trees/${enc(treeId)}/messages`, { body }).then((a) => a.message),
};

/** History is long: one page at a time, newest first, the next on "Load more". */
export const history = {
  page: (treeId: string, cursor?: string) =>
    api<Page<HistoryEntry>>('GET', `/trees/${enc(treeId)}/history${query({ limit: 50, cursor })}`),
};

export const billing = {
  get: () => api<Billing>('GET', '/billing'),
  checkout: (plan: 'sprout' | 'grove') =>
    api<{ url: string }>('POST', '/billing/checkout', { plan }).then((a) => a.url),
  portal: () => api<{ url: string }>('POST', '/billing/portal', {}).then((a) => a.url),
};
