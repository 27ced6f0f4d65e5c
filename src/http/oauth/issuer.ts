import type { FastifyRequest } from 'fastify';
import type { Deps } from '../../domain/deps.js';

export type ResourceKind = 'mcp' | 'api';

/**
 * The issuer: PUBLIC_URL, or the listen address when it is unset. With PORT=0 the configured
 * address has no real port, so the port the socket is actually bound to is used (never the
 * client's Host header, which anyone can forge).
 */
export function issuerOf(deps: Deps, request: FastifyRequest): string {
  const base = deps.config.publicUrl;
  return base.endsWith(':0') ? `${base.slice(0, -2)}:${request.socket.localPort}` : base;
}

/** The two protected resources of CONTRACT §13, exactly. */
export function resourceUrl(issuer: string, kind: ResourceKind): string {
  return kind === 'mcp' ? `${issuer}/mcp` : `${issuer}/api/v1`;
}

export function resourceUrls(issuer: string): string[] {
  return [resourceUrl(issuer, 'mcp'), resourceUrl(issuer, 'api')];
}

/** RFC 9728 §3.1: the well-known suffix is inserted before the resource's path. */
export function resourceMetadataUrl(issuer: string, kind: ResourceKind): string {
  return `${issuer}/.well-known/oauth-protected-resource${kind === 'mcp' ? '/mcp' : '/api/v1'}`;
}

/** Which resource a request addresses: /mcp, or the REST API under /api/v1; null elsewhere. */
export function resourceKindOf(url: string): ResourceKind | null {
  if (url === '/mcp' || url.startsWith('/mcp?') || url.startsWith('/mcp/')) return 'mcp';
  if (url === '/api/v1' || url.startsWith('/api/v1/') || url.startsWith('/api/v1?')) return 'api';
  return null;
}
