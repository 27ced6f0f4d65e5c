import { Type } from '@sinclair/typebox';
import { Nullable, OneOf, Timestamp } from './common.js';
import { memberRoles } from '../../domain/trees/members.js';

/** Members, invitations (CONTRACT §10). */
const Role = OneOf(memberRoles);
const Expiry = Nullable(Type.String({ format: 'date-time', description: 'any time; once passed the member reads as expired' }));

export const Member = Type.Object(
  {
    id: Type.String(),
    tree_id: Type.String(),
    user_id: Nullable(Type.String()),
    email: Type.String(),
    role: Role,
    status: OneOf(['pending', 'active', 'revoked', 'expired']),
    expires_at: Nullable(Type.String()),
    invited_by: Type.String(),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { title: 'Member' },
);

export const MemberOnly = Type.Object({ member: Member });
export const MemberList = Type.Object({ items: Type.Array(Member) });
export const InviteInput = Type.Object(
  { email: Type.String({ minLength: 3, maxLength: 254 }), role: Role, expires_at: Type.Optional(Expiry) },
  { additionalProperties: false },
);
export const MemberPatch = Type.Object({ role: Type.Optional(Role), expires_at: Type.Optional(Expiry) }, { additionalProperties: false });

export const Invitation = Type.Object({ ...Member.properties, tree_name: Type.String() }, { title: 'Invitation' });
export const InvitationList = Type.Object({ items: Type.Array(Invitation) });
