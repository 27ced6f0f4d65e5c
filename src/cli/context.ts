import type { Deps } from '../domain/deps.js';
import type { Actor } from '../domain/actor.js';
import { loadConfig } from '../config.js';
import { openDeps } from '../app.js';
import { getUserByEmail } from '../domain/accounts/accounts.js';
import { userActor } from '../domain/actor.js';

/**
 * Runs one command against the same store the server uses (same environment), through the
 * domain layer, so plan limits and validation hold exactly as for REST and MCP.
 */
export async function withDeps<T>(work: (deps: Deps) => Promise<T>): Promise<T> {
  const { deps, close } = await openDeps(loadConfig());
  try {
    return await work(deps);
  } finally {
    await close();
  }
}

/** The operator acting as a user: every scope, the user's effective plan, `via: cli` in history. */
export async function actorByEmail(deps: Deps, email: string): Promise<Actor> {
  return userActor(await getUserByEmail(deps, email), 'cli');
}
