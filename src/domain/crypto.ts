import { createHmac, hash, randomBytes, timingSafeEqual } from 'node:crypto';

/** Random secret material as base64url (32 bytes -> 43 characters). */
export function randomSecret(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

/** Tokens and session ids are high-entropy, so a plain SHA-256 is the right at-rest hash (no salt or KDF needed). */
export function sha256(value: string): string {
  // The one-shot hash() skips the Hash object: it runs on every authenticated request.
  return hash('sha256', value, 'base64url');
}

export function hmac(secret: string, value: string): string {
  return createHmac('sha256', secret).update(value).digest('base64url');
}

/** Compares two strings without leaking where they differ. */
export function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}
