// The live activity stream over real HTTP (docs/rules.md#live-activity): a signed-in page gets its
// own user's events as Server-Sent Events, nobody else's; a page that comes back with
// Last-Event-ID gets what it missed; signing out closes the stream. Events are written here as
// the writers write them, rows of `events`, so the stream is tested apart from what makes them.
import { randomUUID } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerUser, type ApiUser } from '../../../../tests/helpers/api-client';
import { createTestApp, type TestApp } from '../../../../tests/helpers/test-app';
import { events } from '../../db/schema';

type Received = { id: string; data: { id: string; type: string; data: unknown } };

/** An open stream: the messages so far, a wait for the n-th, and whether the server closed it. */
async function openStream(base: string, user: ApiUser, lastEventId?: string) {
  const controller = new AbortController();
  const response = await fetch(`${base}/api/events/stream`, {
    headers: { cookie: user.cookie, ...(lastEventId ? { 'last-event-id': lastEventId } : {}) },
    signal: controller.signal,
  });
  const messages: Received[] = [];
  let closed = false;
  const done = (async () => {
    const decoder = new TextDecoder();
    let buffer = '';
    try {
      for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
        buffer += decoder.decode(chunk, { stream: true });
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const block = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const fields = Object.fromEntries(block.split('\n').filter((line) => line && !line.startsWith(':')).map((line) => [line.slice(0, line.indexOf(':')), line.slice(line.indexOf(':') + 2)]));
          if (fields.data) messages.push({ id: fields.id!, data: JSON.parse(fields.data) });
        }
      }
      closed = true;
    } catch {
      // aborted by the test
    }
  })();
  async function waitFor(count: number, timeoutMs = 5_000): Promise<Received[]> {
    const deadline = Date.now() + timeoutMs;
    while (messages.length < count) {
      if (Date.now() > deadline) throw new Error(`expected ${count} messages, got ${messages.length}: ${JSON.stringify(messages)}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    return messages;
  }
  return { response, messages, waitFor, isClosed: () => closed, done, abort: () => controller.abort() };
}

describe('live activity stream', () => {
  let t: TestApp;
  let base: string;

  async function signedIn(): Promise<{ user: ApiUser; userId: string }> {
    const user = await registerUser(t.app);
    return { user, userId: (await user.request('GET', '/api/me')).json().id as string };
  }
  async function writeEvent(userId: string, type: string, data: unknown): Promise<string> {
    const id = `evt_${randomUUID().replaceAll('-', '')}`;
    await t.database.db.insert(events).values({ id, userId, type, data });
    return id;
  }

  beforeAll(async () => {
    t = await createTestApp();
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await t?.close();
  });

  it('sends the user’s new events as they are written, and none of another user’s', async () => {
    const { user, userId } = await signedIn();
    const other = await signedIn();
    const stream = await openStream(base, user);
    expect(stream.response.status).toBe(200);
    expect(stream.response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    await writeEvent(other.userId, 'card.frozen', { id: 'someone-else' });
    const first = await writeEvent(userId, 'card.authorization.approved', { amountCents: 750, merchant: 'Corner Books' });
    const second = await writeEvent(userId, 'card.frozen', { last4: '4242' });
    const received = await stream.waitFor(2);
    expect(received.map((m) => [m.id, m.data.type])).toEqual([
      [first, 'card.authorization.approved'],
      [second, 'card.frozen'],
    ]);
    expect(received[0]!.data).toMatchObject({ id: first, type: 'card.authorization.approved', data: { amountCents: 750, merchant: 'Corner Books' } });
    // Nothing else arrives: not the other user's, not one twice.
    await new Promise((resolve) => setTimeout(resolve, 1_500));
    expect(stream.messages).toHaveLength(2);
    stream.abort();
  });

  it('a page back with Last-Event-ID gets what came after that event, then the new ones', async () => {
    const { user, userId } = await signedIn();
    const seen = await writeEvent(userId, 'cashout.created', { n: 1 });
    const missed = await writeEvent(userId, 'cashout.paid', { n: 2 });
    const stream = await openStream(base, user, seen);
    await stream.waitFor(1);
    expect(stream.messages.map((m) => m.id)).toEqual([missed]);
    const next = await writeEvent(userId, 'rebate.paid', { n: 3 });
    await stream.waitFor(2);
    expect(stream.messages.map((m) => m.id)).toEqual([missed, next]);
    stream.abort();
  });

  it('signing out closes the stream; signed out, there is none (401)', async () => {
    const { user } = await signedIn();
    const stream = await openStream(base, user);
    expect((await user.request('POST', '/api/auth/logout')).statusCode).toBeLessThan(300);
    await Promise.race([stream.done, new Promise((resolve) => setTimeout(resolve, 5_000))]);
    expect(stream.isClosed()).toBe(true);
    const signedOut = await fetch(`${base}/api/events/stream`);
    expect(signedOut.status).toBe(401);
    expect(await signedOut.json()).toMatchObject({ error: { code: 'unauthorized' } });
  });
});
