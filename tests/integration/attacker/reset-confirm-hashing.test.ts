// Decision 177: POST /api/auth/password-reset/confirm hashed the new password with argon2id (19 MiB,
// tens of milliseconds of a core) before it looked at the token, so anyone could make the server
// hash for free with made-up tokens, and those hashes were queued under no address in the pool's
// fair queue (decision 080). Now a token that is not live is refused before any hash.
import { randomBytes } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { outbox } from '../../../src/server/db/schema';
import { argon2Pool } from '../../../src/server/lib/argon2-pool';
import { registerUser } from '../../helpers/api-client';
import { client, loginVia } from '../../helpers/auth-client';
import { createTestApp, type TestApp } from '../../helpers/test-app';

const NEW_PASSWORD = 'Another-Strong-77';

describe(`attacker: argon2id through the reset link's confirmation (decision 177)`, () => {
  let t: TestApp;
  let clock = new Date();
  beforeAll(async () => {
    t = await createTestApp({ now: () => clock });
  });
  afterAll(async () => t?.close());

  const hashesStarted = () => argon2Pool().stats().started;
  const confirm = (ip: string, token: string) => client(t.app, ip).request('POST', '/api/auth/password-reset/confirm', { token, password: NEW_PASSWORD });
  async function linkFor(email: string): Promise<string> {
    expect((await client(t.app, '198.51.100.20').request('POST', '/api/auth/password-reset', { email })).statusCode).toBe(202);
    const [mail] = await t.database.db.select({ text: outbox.textBody }).from(outbox).where(eq(outbox.toAddress, email));
    const token = /token=([A-Za-z0-9_-]{43})/.exec(mail?.text ?? '')?.[1];
    if (!token) throw new Error('no reset link');
    return token;
  }

  it('made-up tokens are refused with no hash at all', async () => {
    const before = hashesStarted();
    for (let i = 0; i < 15; i += 1) {
      const res = await confirm('203.0.113.50', randomBytes(32).toString('base64url'));
      expect(res.statusCode).toBe(400);
      expect(res.json().error.code).toBe('invalid_token');
    }
    expect(hashesStarted()).toBe(before);
  });

  it('a live link hashes once and resets; spent or expired links hash nothing', async () => {
    const user = await registerUser(t.app);
    const token = await linkFor(user.email);

    let before = hashesStarted();
    const reset = await confirm('203.0.113.51', token);
    expect(reset.statusCode, reset.body).toBe(204);
    expect(hashesStarted()).toBe(before + 1);
    expect((await loginVia(client(t.app, '203.0.113.52'), user.email, NEW_PASSWORD)).statusCode).toBe(200);

    before = hashesStarted();
    const again = await confirm('203.0.113.51', token);
    expect(again.statusCode).toBe(400);
    expect(again.json().error.code).toBe('invalid_token');
    expect(hashesStarted()).toBe(before);

    const other = await registerUser(t.app);
    const late = await linkFor(other.email);
    clock = new Date(clock.getTime() + 61 * 60 * 1000);
    before = hashesStarted();
    expect((await confirm('203.0.113.53', late)).statusCode).toBe(400);
    expect(hashesStarted()).toBe(before);
  });
});
