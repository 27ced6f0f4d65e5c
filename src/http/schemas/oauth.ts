import { Type } from '@sinclair/typebox';
import { OAuthConnection } from '../../domain/schemas/agents.js';

export { OAuthConnection };

export const OAuthConnectionList = Type.Object({ items: Type.Array(OAuthConnection) });
