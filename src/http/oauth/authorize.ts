import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Deps } from '../../domain/deps.js';
import { checkCsrf } from '../../domain/accounts/sessions.js';
import { effectivePlan } from '../../domain/plans.js';
import {
  checkAuthorizationRequest,
  scopesToGrant,
  type AuthorizationRequest,
  type Params,
} from '../../domain/agents/oauth-authorize.js';
import { approveAuthorization } from '../../domain/agents/oauth-grants.js';
import { browserSession, type BrowserSession } from './browser-session.js';
import { choosableTrees, CREDENTIAL_TREES_MAX } from '../../domain/agents/credential-trees.js';
import { userActor } from '../../domain/actor.js';
import { DomainError } from '../../domain/errors.js';
import type { UserRow } from '../../store/rows.js';
import { consentPage, errorPage } from './pages.js';
import { pageText } from './text.js';
import { chosenLanguage } from './language.js';
import { frameFor } from './frame.js';
import { issuerOf, resourceUrls } from './issuer.js';

const hidden = { hide: true };
const REQUEST_FIELDS = [
  'response_type',
  'client_id',
  'redirect_uri',
  'code_challenge',
  'code_challenge_method',
  'state',
  'scope',
  'resource',
];

/** Back to the client with RFC 6749 §4.1.2 parameters and RFC 9207's `iss`. */
function redirectTo(reply: FastifyReply, status: 302 | 303, uri: string, params: Record<string, string | null>) {
  const url = new URL(uri);
  for (const [name, value] of Object.entries(params)) if (value !== null) url.searchParams.set(name, value);
  reply.header('Cache-Control', 'no-store');
  return reply.code(status).redirect(url.toString(), status);
}

/** GET shows consent (or sends to /login); POST is the decision, with the CSRF field of the page. */
export function authorizeRoutes(deps: Deps, app: FastifyInstance, stylesheets: readonly string[]): void {
  async function check(request: FastifyRequest, reply: FastifyReply, params: Params, status: 302 | 303) {
    const checked = await checkAuthorizationRequest(deps, params, resourceUrls(issuerOf(deps, request)));
    if (checked.ok) return checked.request;
    if ('page' in checked) {
      const frame = frameFor(request, stylesheets, null);
      return errorPage(reply, 400, frame, pageText[frame.language].untrusted[checked.page]);
    }
    const { uri, error, description, state } = checked.redirect;
    return redirectTo(reply, status, uri, {
      error,
      error_description: description,
      state,
      iss: issuerOf(deps, request),
    });
  }

  app.get('/oauth/authorize', { schema: hidden }, async (request, reply) => {
    const checked = await check(request, reply, request.query as Params, 302);
    if (!isRequest(checked)) return checked;
    const session = await browserSession(deps, request, reply);
    if (session.user === null) return reply.redirect(`/login?return_to=${encodeURIComponent(request.url)}`, 302);
    return showConsent(request, reply, { ...session, user: session.user }, checked, request.query as Params);
  });

  /** The consent page for this request; again, with what was chosen and why it was refused, after a refused post. */
  async function showConsent(
    request: FastifyRequest,
    reply: FastifyReply,
    session: BrowserSession & { user: UserRow },
    checked: AuthorizationRequest,
    params: Params,
    refused: { chosen: string[] | null; error: string } | null = null,
  ) {
    const plan = effectivePlan(session.user.plan, session.user.plan_expires_at);
    const { granted, dropped } = scopesToGrant(checked.scopes, plan);
    // The language picked with the switch rides along, so a forged-post page answers in it too.
    const fields: Record<string, string | null> = { csrf: session.csrf, lang: chosenLanguage(request) };
    for (const name of REQUEST_FIELDS) {
      const value = params[name];
      fields[name] = typeof value === 'string' ? value : null;
    }
    const trees = await choosableTrees(deps.db, userActor(session.user, 'session'));
    return consentPage(reply, refused === null ? 200 : 400, frameFor(request, stylesheets, session.user.language), {
      clientName: checked.client.client_name,
      userEmail: session.user.email,
      granted,
      dropped,
      resource: checked.resource,
      redirectUri: checked.redirectUri,
      fields,
      trees,
      chosen: refused?.chosen ?? null,
      error: refused?.error ?? null,
    });
  }

  app.post('/oauth/authorize', { schema: hidden }, async (request, reply) => {
    const body = (request.body ?? {}) as Params;
    const checked = await check(request, reply, body, 303);
    if (!isRequest(checked)) return checked;
    const session = await browserSession(deps, request, reply);
    const frame = frameFor(request, stylesheets, session.user?.language ?? null);
    const csrf = body.csrf;
    // A consent post from anywhere but our own page (no or wrong CSRF field) is refused, never redirected.
    if (session.user === null || typeof csrf !== 'string' || !checkCsrf(deps.config.secret, session.id, csrf)) {
      return errorPage(reply, 403, frame, pageText[frame.language].forged);
    }
    const iss = issuerOf(deps, request);
    if (body.decision !== 'approve') {
      return redirectTo(reply, 303, checked.redirectUri, {
        error: 'access_denied',
        error_description: 'The user denied the request.',
        state: checked.state,
        iss,
      });
    }
    const plan = effectivePlan(session.user.plan, session.user.plan_expires_at);
    const t = pageText[frame.language];
    const treeIds = chosenTrees(body);
    const again = (error: string) =>
      showConsent(request, reply, { ...session, user: session.user! }, checked, body, { chosen: treeIds ?? [], error });
    if (treeIds !== null && treeIds.length === 0) return again(t.chooseTree);
    if (treeIds !== null && treeIds.length > CREDENTIAL_TREES_MAX) return again(t.tooManyTrees);
    try {
      const { code } = await approveAuthorization(deps, session.user, plan, checked, treeIds);
      return redirectTo(reply, 303, checked.redirectUri, { code, state: checked.state, iss });
    } catch (err) {
      // A tree deleted or unshared since the page was shown (or a forged id): nothing is granted; choose again.
      if (err instanceof DomainError && (err.code === 'not_found' || err.code === 'validation_failed'))
        return again(t.treeGone);
      throw err;
    }
  });
}

/** The consent post's choice of trees: null for All trees, else the ticked ids (repeats folded). */
function chosenTrees(body: Params): string[] | null {
  if (body.trees !== 'chosen') return null;
  const ticked = body.tree_id;
  const ids = ticked === undefined ? [] : Array.isArray(ticked) ? ticked : [ticked];
  return [...new Set(ids)];
}

function isRequest(value: unknown): value is AuthorizationRequest {
  return typeof value === 'object' && value !== null && 'codeChallenge' in value;
}
