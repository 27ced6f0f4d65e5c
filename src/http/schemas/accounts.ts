import { Type } from '@sinclair/typebox';
import { Nullable, OneOf } from './common.js';
import { languages, ProfileName, User } from '../../domain/schemas/accounts.js';
import { EMAIL_MAX, PASSWORD_MAX, PASSWORD_MIN, TIMEZONE_MAX } from '../../domain/fields.js';

export { User };
const Language = OneOf(languages);

const Email = Type.String({ format: 'email', maxLength: EMAIL_MAX });
const Password = Type.String({ minLength: PASSWORD_MIN, maxLength: PASSWORD_MAX, writeOnly: true });
const Timezone = Type.String({
  minLength: 1,
  maxLength: TIMEZONE_MAX,
  description: 'IANA time zone name, e.g. Europe/Berlin',
});

export const Me = Type.Object({ user: Nullable(User), csrf: Type.Optional(Type.String()) });
export const UserWithCsrf = Type.Object({ user: Nullable(User), csrf: Type.String() });
export const UserOnly = Type.Object({ user: User });

export const RegisterInput = Type.Object(
  {
    email: Email,
    password: Password,
    name: Type.Optional(ProfileName),
    language: Type.Optional(Language),
    timezone: Type.Optional(Timezone),
  },
  { additionalProperties: false },
);

export const LoginInput = Type.Object({ email: Email, password: Password }, { additionalProperties: false });

export const ProfileInput = Type.Object(
  { name: Type.Optional(ProfileName), language: Type.Optional(Language), timezone: Type.Optional(Timezone) },
  { additionalProperties: false },
);

export const ResetRequestInput = Type.Object({ email: Email }, { additionalProperties: false });
export const ResetCompleteInput = Type.Object(
  {
    token: Type.String({ minLength: 1, maxLength: 200, description: 'the token from the reset mail' }),
    password: Password,
  },
  { additionalProperties: false },
);
/** A mail asked for: `not_configured` while no mail transport is, and then nothing claims a mail went out. */
export const MailAnswer = Type.Object({
  status: Type.Literal('queued'),
  delivery: OneOf(['sent', 'not_configured']),
});
export const ResetRequestAnswer = MailAnswer;
export const VerifyCompleteInput = Type.Object(
  { token: Type.String({ minLength: 1, maxLength: 200, description: 'the token from the verification mail' }) },
  { additionalProperties: false },
);

export const PasswordChangeInput = Type.Object(
  { current_password: Password, new_password: Password },
  { additionalProperties: false },
);
export const EmailChangeInput = Type.Object({ email: Email, password: Password }, { additionalProperties: false });
export const AccountDeleteInput = Type.Object({ password: Password }, { additionalProperties: false });
