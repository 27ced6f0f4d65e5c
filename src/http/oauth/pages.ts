import type { FastifyReply } from 'fastify';
import type { Scope } from '../../domain/actor.js';
import { languageNames, pageText, type PageLanguage, type PageText } from './text.js';
import { pageLanguages } from './language.js';

/** Every string that reaches a page passes through here: client names and URIs are attacker-chosen. */
export function escapeHtml(value: string): string {
  return value.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );
}

/**
 * No script at all; styles only from our own origin (the app's built stylesheet). No
 * `form-action`: Chromium applies it to the redirect after the consent post, which goes to the
 * client's own redirect URI.
 */
const CSP =
  "default-src 'none'; style-src 'self'; img-src 'self'; frame-ancestors 'none'; base-uri 'none'; object-src 'none'";

/** What every page needs besides its body: its language, the app's stylesheets and the language switch. */
export interface PageFrame {
  language: PageLanguage;
  stylesheets: readonly string[];
  /** The same page in another language; null where there is no page to switch (the answer to a post). */
  switchTo: ((language: PageLanguage) => string) | null;
}

/** The app's mark (web/src/components/Logo.tsx), coloured by the app's stylesheet. */
const LOGO = `<svg class="logo" viewBox="0 0 32 32" width="28" height="28" aria-hidden="true" focusable="false"><rect width="32" height="32" rx="8" class="logo-bg"/><path d="M16 27V14M16 19l-5-5M16 17l5-4" class="logo-stem"/><circle cx="10" cy="12" r="3" class="logo-leaf"/><circle cx="22" cy="11" r="3" class="logo-leaf"/><circle cx="16" cy="9" r="3.4" class="logo-leaf light"/></svg>`;

function languageSwitch(frame: PageFrame): string {
  if (frame.switchTo === null) return '';
  const switchTo = frame.switchTo;
  const links = pageLanguages
    .map((language) =>
      language === frame.language
        ? `<a class="navlink current" aria-current="true" href="${escapeHtml(switchTo(language))}" lang="${language}" hreflang="${language}">${languageNames[language]}</a>`
        : `<a class="navlink" href="${escapeHtml(switchTo(language))}" lang="${language}" hreflang="${language}">${languageNames[language]}</a>`,
    )
    .join('');
  return `<nav class="lang-switch" aria-label="${escapeHtml(pageText[frame.language].languageLabel)}">${links}</nav>`;
}

/**
 * A complete page in the app's frame (top bar, card) with the headers CONTRACT §13 asks of the
 * consent page: it may never be framed (clickjacking a consent), runs no script, and is never cached.
 */
export function sendPage(reply: FastifyReply, status: number, frame: PageFrame, title: string, body: string) {
  const t = pageText[frame.language];
  reply
    .code(status)
    .type('text/html; charset=utf-8')
    .header('X-Frame-Options', 'DENY')
    .header('Content-Security-Policy', CSP)
    .header('Cache-Control', 'no-store')
    .header('Referrer-Policy', 'no-referrer')
    .header('X-Content-Type-Options', 'nosniff');
  const styles = frame.stylesheets.map((href) => `<link rel="stylesheet" href="${escapeHtml(href)}">`).join('');
  return reply.send(`<!doctype html><html lang="${frame.language}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<meta name="color-scheme" content="light"><title>${escapeHtml(title)} · Task Tree</title><link rel="icon" href="/favicon.svg" type="image/svg+xml">${styles}</head>
<body><div class="shell"><a class="skip" href="#main">${escapeHtml(t.skip)}</a>
<header class="topbar"><a class="brand" href="/">${LOGO}<span>Task Tree</span></a>${languageSwitch(frame)}</header>
<main id="main" class="main"><section class="card auth-card">${body}</section></main></div></body></html>`);
}

function hidden(fields: Record<string, string | null>): string {
  return Object.entries(fields)
    .filter((entry): entry is [string, string] => entry[1] !== null)
    .map(([name, value]) => `<input type="hidden" name="${escapeHtml(name)}" value="${escapeHtml(value)}">`)
    .join('');
}

export function errorPage(reply: FastifyReply, status: number, frame: PageFrame, message: string) {
  const t = pageText[frame.language];
  return sendPage(
    reply,
    status,
    frame,
    t.errorTitle,
    `<h1>${escapeHtml(t.errorTitle)}</h1>
<div class="note error" role="alert"><span>${escapeHtml(message)}</span></div>
<p class="foot">${escapeHtml(t.errorLead)}</p><p class="foot"><a href="/">${escapeHtml(t.home)}</a></p>`,
  );
}

export interface LoginView {
  csrf: string;
  returnTo: string;
  email: string;
  error: string | null;
  /** A language picked with the switch, carried through the post. */
  chosen: PageLanguage | null;
}

export function loginPage(reply: FastifyReply, status: number, frame: PageFrame, view: LoginView) {
  const t = pageText[frame.language];
  const inFlow = view.returnTo !== '/';
  return sendPage(
    reply,
    status,
    frame,
    t.signInTitle,
    `<h1>${escapeHtml(t.signInTitle)}</h1>
${inFlow ? `<p class="muted">${escapeHtml(t.signInLead)}</p>` : ''}
<form method="post" action="/login" class="stack">${hidden({ csrf: view.csrf, return_to: view.returnTo, lang: view.chosen })}
<div class="field"><label for="email">${escapeHtml(t.email)}</label><input id="email" name="email" type="email" required autocomplete="username" value="${escapeHtml(view.email)}"></div>
<div class="field"><label for="password">${escapeHtml(t.password)}</label><input id="password" name="password" type="password" required minlength="10" maxlength="1024" autocomplete="current-password"></div>
${view.error === null ? '' : `<div class="note error" role="alert"><span>${escapeHtml(view.error)}</span></div>`}
<button type="submit" class="btn primary">${escapeHtml(t.signIn)}</button></form>
<p class="foot"><a href="/forgot">${escapeHtml(t.forgot)}</a></p>
<p class="foot">${escapeHtml(t.noAccount)} <a href="/register">${escapeHtml(t.createAccount)}</a></p>`,
  );
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
  /** The trees the user can see, to choose from (CONTRACT §16.1). */
  trees: { id: string; name: string }[];
  /** What was chosen when the page comes back after a refused post: null for All trees. */
  chosen: readonly string[] | null;
  /** Why the post was refused, shown above the choice. */
  error: string | null;
}

/** "All trees" (the default) or a checkbox per tree, in a fieldset named Trees. */
function treeChoice(t: PageText, view: ConsentView): string {
  const chosen = new Set(view.chosen ?? []);
  const radio = (value: 'all' | 'chosen', label: string, hint: string, checked: boolean) =>
    `<label class="check"><input type="radio" name="trees" value="${value}"${checked ? ' checked' : ''}> <span>${escapeHtml(label)} <span class="muted">(${escapeHtml(hint)})</span></span></label>`;
  const boxes =
    view.trees.length === 0
      ? `<p class="muted">${escapeHtml(t.noTrees)}</p>`
      : view.trees
          .map(
            (tree) =>
              `<label class="check"><input type="checkbox" name="tree_id" value="${escapeHtml(tree.id)}"${chosen.has(tree.id) ? ' checked' : ''}> <span>${escapeHtml(tree.name)}</span></label>`,
          )
          .join('');
  return `<fieldset class="stack"><legend>${escapeHtml(t.trees)}</legend>
${radio('all', t.allTrees, t.allTreesHint, view.chosen === null)}
${radio('chosen', t.chosenTrees, t.chosenTreesHint, view.chosen !== null)}
<div class="stack">${boxes}</div></fieldset>`;
}

export function consentPage(reply: FastifyReply, status: number, frame: PageFrame, view: ConsentView) {
  const t = pageText[frame.language];
  const scopes = view.granted.map((s) => `<li>${escapeHtml(t.scope[s])} (<code>${s}</code>)</li>`).join('');
  const dropped =
    view.dropped.length === 0
      ? ''
      : `<div class="note warn"><span>${escapeHtml(t.dropped)}<code>${view.dropped.join(', ')}</code></span></div>`;
  const error =
    view.error === null ? '' : `<div class="note error" role="alert"><span>${escapeHtml(view.error)}</span></div>`;
  return sendPage(
    reply,
    status,
    frame,
    t.consentTitle,
    `<h1>${escapeHtml(t.consentTitle)}</h1>
<div class="stack">
<p class="lead"><strong>${escapeHtml(view.clientName)}</strong> ${escapeHtml(t.wants)}</p>
<div><p>${escapeHtml(t.scopes)}</p><ul class="plain">${scopes}</ul></div>${dropped}
<div class="small-text"><p>${escapeHtml(t.resource)} <code>${escapeHtml(view.resource)}</code></p>
<p>${escapeHtml(t.redirect)} <code>${escapeHtml(view.redirectUri)}</code></p>
<p class="muted">${escapeHtml(t.signedInAs)} ${escapeHtml(view.userEmail)}</p></div>
</div>
<form method="post" action="/oauth/authorize" class="stack">${hidden(view.fields)}
${error}${treeChoice(t, view)}
<div class="actions start"><button type="submit" name="decision" value="approve" class="btn primary">${escapeHtml(t.approve)}</button>
<button type="submit" name="decision" value="deny" class="btn">${escapeHtml(t.deny)}</button></div></form>`,
  );
}
