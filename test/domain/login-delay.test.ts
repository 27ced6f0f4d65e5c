import { describe, expect, it } from 'vitest';
import { loginDelayMs } from '../../src/domain/accounts/login-throttle.js';

describe('the sign-in delay of an email failed from many addresses', () => {
  it('starts after ten failures, grows with them, and stops at three seconds', () => {
    expect([0, 10, 11, 20, 30, 40, 41, 1_000].map(loginDelayMs)).toEqual([
      0, 0, 100, 1_000, 2_000, 3_000, 3_000, 3_000,
    ]);
  });
});
