import type { FastifyReply } from 'fastify';
import type { Scope } from '../../domain/actor.js';
import { pageText, type PageLanguage } from './text.js';

/** Every string that reaches a page passes through here: client names and URIs are attacker-chosen. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);
}

const STYLE = `body{font:16px/1.5 system-ui,sans-serif;background:#f4f7f0;color:#1f2d16;margin:0}
main{max-width:28rem;margin:3rem auto;background:#fff;border-radius:12px;padding:2rem;box-shadow:0 2px 12px #0001}
h1{font-size:1.3rem;color:#3b5d1f}label{display:block;margin-top:1rem}input[type=email],input[type=password]{width:100%;padding:.5rem;box-sizing:border-box}
button{margin-top:1.5rem;margin-right:.5rem;padding:.6rem 1.2rem;border-radius:6px;border:1px solid #3b5d1f;background:#3b5d1f;color:#fff;font-size:1rem}
button.secondary{background:#fff;color:#3b5d1f}.note{background:#fff6d6;padding:.5rem;border-radius:6px}.error{color:#a11}code{word-break:break-all}`;

/**
 * A complete page with the headers CONTRACT §13 asks of the consent page: it may never be
 * framed (clickjacking a consent), runs no script, and is never cached.
 */
export function sendPage(reply: FastifyReply, status: number, language: PageLanguage, title: string, body: string) {
  reply
    .code(status)
    .type('text/html; charset=utf-8')
    .header('X-Frame-Options', 'DENY')
    .header('Content-Security-Policy', "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'; base-uri 'none'")
    .header('Cache-Control', 'no-store')
    .header('Referrer-Policy', 'no-referrer')
    .header('X-Content-Type-Options', 'nosniff');
  return reply.send(`<!doctype html><html lang="${language}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>${escapeHtml(title)}</title><style>${STYLE}</style></head><body><main>${body}</main></body></html>`);
}

function hidden(fields: Record<string, string | null>): string {
  return Object.entries(fields)
    .filter((entry): entry is [string, string] => entry[1] !== null)
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join('');
}

export function errorPage(reply: FastifyReply, status: number, language: PageLanguage, message: string) {
  const t = pageText[language];
  return sendPage(reply, status, language, t.errorTitle, `<h1>${escapeHtml(t.errorTitle)}</h1><p class="error">${escapeHtml(message)}</p>`);
}

export function loginPage(reply: FastifyReply, status: number, language: PageLanguage, input: { csrf: string; returnTo: string; email: string; error: string | null }) {
  const t = pageText[language];
  return sendPage(reply, status, language, t.signInTitle, `<h1>${escapeHtml(t.signInTitle)}</h1>
${input.error === null ? '' : `<p class="error" role="alert">${escapeHtml(input.error)}</p>`}
<form method="post" action="/login">${hidden({ csrf: input.csrf, return_to: input.returnTo })}
<label for="email">${escapeHtml(t.email)}</label><input id="email" name="email" type="email" required autocomplete="username" value="${escapeHtml(input.email)}">
<label for="password">${escapeHtml(t.password)}</label><input id="password" name="password" type="password" required minlength="10" maxlength="1024" autocomplete="current-password">
<button type="submit">${escapeHtml(t.signIn)}</button></form>`);
}

export interface ConsentView {
  clientName: string;
  userEmail: string;
  granted: Scope[];
  dropped: Scope[];
  resource: string;
  redirectUri: string;
  /** Every parameter of the authorization request, posted back with the decision. */
  fields: Record<string, string | null>;
}

export function consentPage(reply: FastifyReply, language: PageLanguage, view: ConsentView) {
  const t = pageText[language];
  const scopes = view.granted.map((s) => `<li>${escapeHtml(t.scope[s])} (<code>${s}</code>)</li>`).join('');
  const dropped = view.dropped.length === 0 ? '' : `<p class="note">${escapeHtml(t.dropped)}<code>${view.dropped.join(', ')}</code></p>`;
  return sendPage(reply, 200, language, t.consentTitle, `<h1>${escapeHtml(t.consentTitle)}</h1>
<p><strong>${escapeHtml(view.clientName)}</strong> ${escapeHtml(t.wants)}</p>
<p>${escapeHtml(t.scopes)}</p><ul>${scopes}</ul>${dropped}
<p>${escapeHtml(t.resource)} <code>${escapeHtml(view.resource)}</code></p>
<p>${escapeHtml(t.redirect)} <code>${escapeHtml(view.redirectUri)}</code></p>
<p>${escapeHtml(t.signedInAs)} ${escapeHtml(view.userEmail)}</p>
<form method="post" action="/oauth/authorize">${hidden(view.fields)}
<button type="submit" name="decision" value="approve">${escapeHtml(t.approve)}</button>
<button type="submit" name="decision" value="deny" class="secondary">${escapeHtml(t.deny)}</button></form>`);
}
