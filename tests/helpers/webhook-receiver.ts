// A webhook receiver on 127.0.0.1 for the webhook tests: records every request and answers with
// the statuses it is told, in order (then 200), or not at all ('hang').
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Webhook } from 'standardwebhooks';

export type Received = { headers: Record<string, string>; body: string; json: { id: string; type: string; timestamp: string; data: Record<string, unknown> } };

export type Receiver = {
  url: string;
  received: Received[];
  /** The answers to give next, in order; once spent, 200. */
  answers: Array<number | 'hang'>;
  /** Whether `message` verifies with `secret` (the standardwebhooks package, as a receiver would). */
  verifies(message: Received, secret: string): boolean;
  close(): Promise<void>;
};

export async function startReceiver(): Promise<Receiver> {
  const received: Received[] = [];
  const answers: Array<number | 'hang'> = [];
  const hanging = new Set<http.ServerResponse>();
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      received.push({ headers: request.headers as Record<string, string>, body, json: JSON.parse(body) as Received['json'] });
      const answer = answers.shift() ?? 200;
      if (answer === 'hang') {
        hanging.add(response);
        return;
      }
      response.writeHead(answer, { 'content-type': 'text/plain' }).end(answer === 200 ? 'ok' : `answered ${answer}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks`,
    received,
    answers,
    verifies(message, secret) {
      try {
        new Webhook(secret).verify(message.body, message.headers);
        return true;
      } catch {
        return false;
      }
    },
    async close() {
      for (const response of hanging) response.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
