// The benchmark switch RATE_LIMIT_DISABLED (docs/decisions, "rate-limit switch for benchmarks"):
// validated, refused outside demo mode, and off by default.
import { afterEach, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../config';
import { createTestApp, type TestApp } from '../../../tests/helpers/test-app';
import { rateLimitsDisabled } from './rate-limit';

const base = { DATA_DIR: '/tmp/payweave-test-unused', CARD_DATA_KEY: '0f'.repeat(32) };

describe('RATE_LIMIT_DISABLED config', () => {
  it('is off by default and accepts exactly "true" or "false"', () => {
    expect(loadConfig(base).rateLimitDisabled).toBe(false);
    expect(loadConfig({ ...base, RATE_LIMIT_DISABLED: 'true' }).rateLimitDisabled).toBe(true);
    expect(loadConfig({ ...base, RATE_LIMIT_DISABLED: 'false' }).rateLimitDisabled).toBe(false);
    expect(() => loadConfig({ ...base, RATE_LIMIT_DISABLED: 'yes' })).toThrow(/RATE_LIMIT_DISABLED/);
  });

  it('is refused in live mode', () => {
    expect(() => loadConfig({ ...base, DEMO_MODE: 'false', RATE_LIMIT_DISABLED: 'true' })).toThrow(ConfigError);
    expect(() => loadConfig({ ...base, DEMO_MODE: 'false', RATE_LIMIT_DISABLED: 'true' })).toThrow(/only be "true" in demo mode/);
  });
});

describe('RATE_LIMIT_DISABLED in the app', () => {
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  const wrongLogins = async (app: TestApp['app'], times: number) => {
    const statuses: number[] = [];
    for (let i = 0; i < times; i += 1) {
      const response = await app.inject({
        method: 'POST',
        url: '/api/auth/login',
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify({ email: 'nobody-switch@example.com', password: 'Wrong-Password-1' }),
      });
      statuses.push(response.statusCode);
    }
    return statuses;
  };

  it('on: no attempt is refused (the per-e-mail limit is 10 a minute)', async () => {
    t = await createTestApp({ env: { RATE_LIMIT_DISABLED: 'true' } });
    expect(rateLimitsDisabled()).toBe(true);
    expect(await wrongLogins(t.app, 12)).toEqual(Array<number>(12).fill(401));
  });

  it('off (the default): the 11th attempt is refused', async () => {
    t = await createTestApp();
    expect(rateLimitsDisabled()).toBe(false);
    expect((await wrongLogins(t.app, 11)).at(-1)).toBe(429);
  });
});
