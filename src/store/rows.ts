import type { Selectable } from 'kysely';
import type { PersonalTokenTable, UserTable } from './schema.js';

// Rows as read, for records that many modules pass around. A leaf (it imports only the schema), so
// the modules that use a row never need to import the module that writes it.

export type UserRow = Selectable<UserTable>;
export type TokenRow = Selectable<PersonalTokenTable>;
