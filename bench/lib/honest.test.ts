import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { runHonest, summarise, type HonestRequest } from './honest';

describe('honest traffic', () => {
  it('p99 is the nearest rank, and refused requests count against the ok ones', () => {
    const latencies = Array.from({ length: 200 }, (_, i) => i + 1); // 1..200 ms
    const figures = summarise(latencies, { 429: 2, 503: 1 }, []);
    expect(figures).toMatchObject({ sent: 200, ok: 197, p50: 100, p99: 198, max: 200 });
  });

  it.each(['fetch', 'sockets'] as const)('with %s, sends at a steady rate whatever the answers, and records each status', async (sender) => {
    let served = 0;
    const server = createServer((_req, res) => {
      served += 1;
      res.statusCode = served % 5 === 0 ? 503 : 200;
      res.end('{}');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const started = performance.now();
      const out = await runHonest(url, [{ name: 'ping', rate: 50, next: () => ({ method: 'GET', path: '/' }) }], 0.4, sender);
      expect(out.ping?.sent).toBe(20);
      expect(out.ping?.failed).toEqual({ 503: 4 });
      expect(out.ping?.ok).toBe(16);
      // 20 requests at 50/s are spread over 0.38 s, not sent at once.
      expect(performance.now() - started).toBeGreaterThanOrEqual(370);
    } finally {
      server.close();
    }
  });

  it('with sockets, reads answers of a known length, chunked ones and ones that close the connection, and sends each body whole', async () => {
    const bodies: string[] = [];
    const server = createServer((req, res) => {
      let body = '';
      req.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      req.on('end', () => {
        if (req.url === '/chunked') {
          res.write('{"part":');
          setTimeout(() => res.end('2}'), 5);
        } else if (req.url === '/close') {
          res.setHeader('connection', 'close');
          res.end('{}');
        } else if (req.url === '/echo') {
          bodies.push(body);
          res.statusCode = body === '{"amountCents":100}' ? 201 : 400;
          res.end(body);
        } else {
          res.statusCode = 409;
          res.end('{"error":"taken"}');
        }
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const paths = ['/chunked', '/close', '/echo', '/taken'];
    let i = 0;
    try {
      const next = (): HonestRequest => {
        const path = paths[i++ % paths.length] as string;
        return path === '/echo' ? { method: 'POST', path, headers: { 'content-type': 'application/json' }, body: '{"amountCents":100}' } : { method: 'GET', path };
      };
      const out = await runHonest(url, [{ name: 'mixed', rate: 200, next }], 0.4, 'sockets');
      expect(out.mixed?.sent).toBe(80);
      expect(out.mixed?.failed).toEqual({ 409: 20 });
      expect(out.mixed?.examples[0]).toBe('409 {"error":"taken"}');
      expect(bodies).toHaveLength(20);
    } finally {
      server.close();
    }
  });
});
