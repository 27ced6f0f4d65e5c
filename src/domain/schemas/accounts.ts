import { Type } from '@sinclair/typebox';
import { Nullable, OneOf, Timestamp } from './types.js';
import { planNames } from '../plans.js';
import { PROFILE_NAME_MAX } from '../field-bounds.js';

/** The account as every door returns it (CONTRACT §2, §18); `User` in the domain is its Static. */
export const languages = ['en', 'ru'] as const;

const Language = OneOf(languages);
const Plan = OneOf(planNames);
export const ProfileName = Type.String({ maxLength: PROFILE_NAME_MAX });

export const User = Type.Object(
  {
    id: Type.String(),
    email: Type.String({ format: 'email' }),
    name: ProfileName,
    language: Language,
    timezone: Type.String({ description: 'IANA time zone name' }),
    plan: Plan,
    plan_expires_at: Nullable(Timestamp),
    effective_plan: Plan,
    email_verified: Type.Boolean({
      description:
        'The account proved it reads `email` (a verification link, a completed reset or the operator); invitations to the email reach it only then.',
    }),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { $id: 'User', title: 'User' },
);
