import type { Deps } from '../deps.js';
import { randomSecret, sha256 } from '../crypto.js';
import { appLink } from '../links.js';

/**
 * An invitation's own one-time link (CONTRACT §19): `/invite?token=…&id=mbr_…`. It is shown to
 * the owner once (and mailed to the invited address when mail is configured); whoever holds it
 * and is signed in may accept the invitation, once. Only the token's hash is kept.
 */

export interface InviteLink {
  token: string;
  hash: string;
}

export function newInviteToken(): InviteLink {
  const token = randomSecret(32);
  return { token, hash: sha256(token) };
}

/** The link the app's `/invite` page reads: the token, and the invitation id it accepts. */
export function inviteUrl(publicUrl: string, memberId: string, token: string): string {
  return appLink(publicUrl, '/invite', { token, id: memberId }).toString();
}

export interface InvitationMail {
  to: string;
  treeName: string;
  inviter: string;
  url: string;
}

/** Mails the link to the invited address when a mailer is configured; never waits for it. */
export function mailInvitation(deps: Deps, mail: InvitationMail, onMailError: (err: unknown) => void): void {
  if (deps.mailer === null) return;
  deps.mailer
    .send({
      to: mail.to,
      subject: 'You are invited to a tree on Task Tree',
      text: [
        `${mail.inviter} invited you to the tree “${mail.treeName}” on Task Tree.`,
        `To join it, open ${mail.url} and sign in (or create an account).`,
        'The link works once, for whoever opens it first; keep it to yourself.',
        '',
        'If you did not expect this, ignore this mail.',
      ].join('\n'),
    })
    .catch(onMailError);
}
