import type { RouteOptions } from 'fastify';

type Phase = 'preValidation' | 'preHandler' | 'onSend';

/**
 * Adds a hook to one route (from an onRoute hook), after the route's own. A hook that concerns
 * only some routes belongs on those: Fastify skips a phase with no hook at all, so a read no
 * longer runs the preValidation and preHandler phases only for hooks that return at once (the
 * empty-body default, the Idempotency-Key guard and its recorder).
 */
export function addRouteHook(route: RouteOptions, phase: Phase, hook: NonNullable<RouteOptions[Phase]>): void {
  const own = route[phase] as unknown;
  const hooks = own === undefined ? [] : Array.isArray(own) ? own : [own];
  (route as unknown as Record<Phase, unknown[]>)[phase] = [...hooks, hook];
}

/** The route's methods: one or several. */
export function methodsOf(route: RouteOptions): string[] {
  return Array.isArray(route.method) ? route.method : [route.method];
}
