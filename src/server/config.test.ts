import { describe, expect, it } from 'vitest';
import { loadConfig } from './config';

// A key is always given, so loadConfig never writes a demo key file.
const KEY = 'ab'.repeat(32);
const load = (env: Record<string, string>) => loadConfig({ CARD_DATA_KEY: KEY, ...env });

describe('configuration from the environment', () => {
  it('starts with the documented defaults', () => {
    const config = load({});
    expect(config).toMatchObject({ port: 3000, demoMode: true, demoDeclineRate: 0.1, logLevel: 'info', trustProxy: false, dbPoolSize: 10, rateLimitDisabled: false });
    expect(config.appUrl).toBe('http://localhost:3000');
  });

  it('names the bad variable in its message', () => {
    expect(() => load({ PORT: 'eighty' })).toThrow(/PORT/);
    expect(() => load({ DEMO_DECLINE_RATE: '1.5' })).toThrow(/DEMO_DECLINE_RATE/);
    expect(() => load({ DATABASE_URL: 'mysql://x' })).toThrow(/DATABASE_URL: must be a postgres:\/\/ URL/);
    expect(() => loadConfig({ DEMO_MODE: 'false' })).toThrow(/CARD_DATA_KEY: required when DEMO_MODE=false/);
  });

  it('TRUST_PROXY takes true/false, a hop count or proxy addresses, and refuses anything else', () => {
    expect(load({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    expect(load({ TRUST_PROXY: 'false' }).trustProxy).toBe(false);
    expect(load({ TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(load({ TRUST_PROXY: '10.0.0.0/8, 192.168.1.4' }).trustProxy).toEqual(['10.0.0.0/8', '192.168.1.4']);
    expect(() => load({ TRUST_PROXY: 'yes please' })).toThrow(/TRUST_PROXY/);
  });
});
