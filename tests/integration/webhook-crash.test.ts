// Webhooks across a crash (docs/rules.md#webhooks): purchases commit their events, the server is
// killed (SIGKILL) while their deliveries are on their way, and started again on the same
// database. The receiver, which checks every signature with the standardwebhooks package, must
// in the end have each committed event at least once, and nothing that was not committed.
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { randomUUID } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_PASSWORD } from '../helpers/api-client';
import { queryRows } from '../helpers/db-snapshot';
import { insertFundedCard } from '../helpers/fixtures';
import { registerOver, removeServerBundle, serverBundle, startServer, type ServerProcess } from '../helpers/server-process';
import { createTestDatabase } from '../helpers/test-db';

const ENV = { TRUST_PROXY: 'true', WEBHOOKS_ALLOW_LOOPBACK: 'true' };
const PURCHASES = 6;
/** Each answer waits this long, so deliveries are still on their way when the server is killed. */
const RECEIVER_DELAY_MS = 1_500;

function bodyOf(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (text += chunk));
    request.on('end', () => resolve(text));
    request.on('error', reject);
  });
}

describe('webhooks across a crash', () => {
  beforeAll(async () => {
    await serverBundle();
  }, 60_000);
  afterAll(() => removeServerBundle());

  it('SIGKILL between the commit and the delivery: every committed event arrives after the restart, signed, none invented', async () => {
    const database = await createTestDatabase({ poolSize: 4 });
    let secret = '';
    const verified = new Set<string>();
    let forged = 0;
    const receiver = createServer(async (request, response) => {
      const body = await bodyOf(request);
      try {
        const payload = new Webhook(secret).verify(body, request.headers as Record<string, string>) as { id: string };
        verified.add(payload.id);
      } catch {
        forged += 1;
      }
      setTimeout(() => response.writeHead(200).end('ok'), RECEIVER_DELAY_MS);
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
    const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;

    let server: ServerProcess = await startServer({ databaseUrl: database.url, env: ENV });
    try {
      const user = await registerOver(server.url, `crash-${randomUUID()}@example.com`, TEST_PASSWORD, '10.77.0.1');
      const [me] = await queryRows<{ id: string }>(database.db, `select id from users order by created_at desc limit 1`);
      const cardId = await insertFundedCard(database.db, me!.id, 10_000);
      const endpoint = await user.request(server.url, 'POST', '/api/webhooks', { url: receiverUrl });
      expect(endpoint.status, endpoint.text).toBe(201);
      secret = (endpoint.body as { secret: string }).secret;

      for (let i = 0; i < PURCHASES; i += 1) {
        const bought = await user.request(server.url, 'POST', `/api/cards/${cardId}/purchases`, { merchant: `Shop ${i}`, amountCents: 100 + i }, { 'idempotency-key': randomUUID() });
        expect(bought.status, bought.text).toBe(201);
      }
      await server.kill();
      expect(server.child.signalCode).toBe('SIGKILL');
      const committed = (await queryRows<{ id: string }>(database.db, `select id from events where user_id = '${me!.id}' order by created_at`)).map((row) => row.id);
      expect(committed).toHaveLength(PURCHASES);
      // The kill came before the deliveries were done: the receiver takes 1.5 s to answer each.
      const [done] = await queryRows<{ n: number }>(database.db, `select count(*)::int as n from webhook_deliveries where status = 'delivered'`);
      expect(done!.n).toBeLessThan(PURCHASES);
      const beforeRestart = verified.size;

      // Started again on the same database: the scheduler fans out and sends what is due, and a
      // delivery that was in flight at the kill is sent again once its lease ends (30 s).
      server = await startServer({ databaseUrl: database.url, port: server.port, env: ENV });
      const deadline = Date.now() + 75_000;
      while (!committed.every((id) => verified.has(id))) {
        if (Date.now() > deadline) throw new Error(`after the restart ${verified.size} of ${committed.length} events arrived`);
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
      expect([...verified].sort()).toEqual([...committed].sort());
      expect(forged).toBe(0);
      console.info(`webhooks across a crash: ${beforeRestart} of ${PURCHASES} events delivered before the SIGKILL, all ${PURCHASES} after the restart, none invented`);
    } finally {
      await server.stop();
      await new Promise<void>((resolve) => receiver.close(() => resolve()));
      await database.drop();
    }
  }, 150_000);
});
