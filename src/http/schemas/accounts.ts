import { Type } from '@sinclair/typebox';
import { Nullable, OneOf, Timestamp } from './common.js';

export const User = Type.Object(
  {
    id: Type.String(),
    email: Type.String({ format: 'email' }),
    name: Type.String({ maxLength: 120 }),
    language: OneOf(['en', 'ru']),
    timezone: Type.String({ description: 'IANA time zone name' }),
    plan: OneOf(['seed', 'sprout', 'grove']),
    plan_expires_at: Nullable(Timestamp),
    effective_plan: OneOf(['seed', 'sprout', 'grove']),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { title: 'User' },
);

const Email = Type.String({ format: 'email', maxLength: 254 });
const Password = Type.String({ minLength: 10, maxLength: 1024, writeOnly: true });
const Language = OneOf(['en', 'ru']);
const Timezone = Type.String({ minLength: 1, maxLength: 64, description: 'IANA time zone name, e.g. Europe/Berlin' });

export const Me = Type.Object({ user: Nullable(User), csrf: Type.Optional(Type.String()) });
export const UserWithCsrf = Type.Object({ user: Nullable(User), csrf: Type.String() });
export const UserOnly = Type.Object({ user: User });

export const RegisterInput = Type.Object(
  {
    email: Email,
    password: Password,
    name: Type.Optional(Type.String({ maxLength: 120 })),
    language: Type.Optional(Language),
    timezone: Type.Optional(Timezone),
  },
  { additionalProperties: false },
);

export const LoginInput = Type.Object({ email: Email, password: Password }, { additionalProperties: false });

export const ProfileInput = Type.Object(
  { name: Type.Optional(Type.String({ maxLength: 120 })), language: Type.Optional(Language), timezone: Type.Optional(Timezone) },
  { additionalProperties: false },
);

export const ResetRequestInput = Type.Object({ email: Email }, { additionalProperties: false });
export const ResetCompleteInput = Type.Object(
  { token: Type.String({ minLength: 1, maxLength: 200, description: 'the token from the reset mail' }), password: Password },
  { additionalProperties: false },
);
export const ResetRequestAnswer = Type.Object({
  status: Type.Literal('queued'),
  delivery: OneOf(['sent', 'not_configured']),
});
