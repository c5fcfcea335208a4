// The framework's ceiling for `npm run bench`: Fastify with one route returning a small JSON
// object, nothing else (no plugins, no database, no logging). Started as its own process.
import Fastify from 'fastify';

const app = Fastify({ logger: false });
const body = { status: 'ok', cards: [{ id: '00000000-0000-4000-8000-000000000000', last4: '4242', remainingAmountCents: 10_000 }] };
app.get('/bare', async () => body);

const shutdown = () => app.close().then(() => process.exit(0));
process.on('SIGTERM', shutdown);
process.on('SIGINT', shutdown);
await app.listen({ port: Number(process.env.PORT ?? 4199), host: '127.0.0.1' });
