import type { Static } from '@sinclair/typebox';
import { describe, expectTypeOf, it } from 'vitest';
import type * as Accounts from '../../src/domain/accounts/accounts.js';
import type * as Journal from '../../src/domain/agents/journal.js';
import type * as Grants from '../../src/domain/agents/oauth-grants.js';
import type * as Tokens from '../../src/domain/agents/tokens.js';
import type * as Attachments from '../../src/domain/files/attachments.js';
import type * as Speech from '../../src/domain/files/speech.js';
import type * as Comments from '../../src/domain/trees/comments.js';
import type * as History from '../../src/domain/trees/history.js';
import type * as Invitations from '../../src/domain/trees/invitations.js';
import type * as Members from '../../src/domain/trees/members.js';
import type * as Messages from '../../src/domain/trees/messages.js';
import type * as AgentCallRoutes from '../../src/http/rest/agent-calls.js';
import type * as AttachmentRoutes from '../../src/http/rest/attachments.js';
import type * as SpeechRoutes from '../../src/http/rest/speech.js';
import type * as AccountSchemas from '../../src/http/schemas/accounts.js';
import type * as OAuthSchemas from '../../src/http/schemas/oauth.js';
import type * as TeamSchemas from '../../src/http/schemas/teams.js';
import type * as TokenSchemas from '../../src/http/schemas/tokens.js';

/*
 * Trees, projects and tasks are their wire schema's Static (src/domain/schemas/records.ts). The
 * records below are still written twice, as a domain interface and as a wire schema; until they
 * derive from one definition, the compiler (npm run typecheck reads this file) holds the two equal.
 */
describe('the domain records equal their wire schemas', () => {
  it('holds at compile time', () => {
    expectTypeOf<Accounts.User>().toEqualTypeOf<Static<typeof AccountSchemas.User>>();
    expectTypeOf<Tokens.Token>().toEqualTypeOf<Static<typeof TokenSchemas.Token>>();
    expectTypeOf<Grants.Connection>().toEqualTypeOf<Static<typeof OAuthSchemas.OAuthConnection>>();
    expectTypeOf<Journal.AgentCall>().toEqualTypeOf<Static<typeof AgentCallRoutes.AgentCall>>();
    expectTypeOf<Members.Member>().toEqualTypeOf<Static<typeof TeamSchemas.Member>>();
    expectTypeOf<Invitations.Invitation>().toEqualTypeOf<Static<typeof TeamSchemas.Invitation>>();
    expectTypeOf<Comments.Comment>().toEqualTypeOf<Static<typeof TeamSchemas.Comment>>();
    expectTypeOf<Messages.Message>().toEqualTypeOf<Static<typeof TeamSchemas.Message>>();
    expectTypeOf<History.HistoryEntry>().toEqualTypeOf<Static<typeof TeamSchemas.HistoryEntry>>();
    expectTypeOf<Attachments.Attachment>().toEqualTypeOf<Static<typeof AttachmentRoutes.Attachment>>();
    expectTypeOf<Speech.SpeechJob>().toEqualTypeOf<Static<typeof SpeechRoutes.SpeechJob>>();
  });
});
