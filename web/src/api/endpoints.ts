/** One typed function per endpoint the app uses; paths and bodies as the OpenAPI document has them. */
import { allPages, api, query, setCsrf } from './client';
import type {
  AgentCall,
  Attachment,
  Billing,
  Comment,
  HistoryEntry,
  Invitation,
  RevertResult,
  Invited,
  Member,
  MemberRole,
  Message,
  OAuthConnection,
  Page,
  Scope,
  SpeechJob,
  SpeechStatus,
  Token,
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

const enc = encodeURIComponent;

export { assignees, projects, tasks, trees, type ProjectPatch, type TaskPatch } from './records';

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
  /** `tree_ids` left out: every tree the person can see (CONTRACT §16.1). */
  create: (input: { name: string; scopes: Scope[]; expires_in_days: number; tree_ids?: string[] }) =>
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

/** History is long: one page at a time, newest first, the next on "Load more"; or one change's entries. */
export const history = {
  page: (treeId: string, cursor?: string, filter: { change_id?: string } = {}) =>
    api<Page<HistoryEntry>>('GET', `/trees/${enc(treeId)}/history${query({ limit: 50, cursor, ...filter })}`),
};

/**
 * Undo (CONTRACT §16.3). A 409 `revert_conflict` names the later changes in its details; with
 * `force` the revert goes on, putting back only the fields the change wrote.
 */
export const changes = {
  revert: (id: string, force = false) =>
    api<RevertResult>('POST', `/changes/${enc(id)}/revert${force ? '?force=true' : ''}`, {}),
  /** Every change the credential made in the tree since `since` (ISO 8601 with a zone). */
  revertSince: (treeId: string, credentialId: string, since: string, force = false) =>
    api<RevertResult>('POST', `/trees/${enc(treeId)}/revert${force ? '?force=true' : ''}`, {
      credential_id: credentialId,
      since,
    }),
};

export const billing = {
  get: () => api<Billing>('GET', '/billing'),
  checkout: (plan: 'sprout' | 'grove') =>
    api<{ url: string }>('POST', '/billing/checkout', { plan }).then((a) => a.url),
  portal: () => api<{ url: string }>('POST', '/billing/portal', {}).then((a) => a.url),
};
