// The open loop of the latency runs (latency.ts, through honest.ts's runHonest): the same steady
// sends as honest-worker.mjs, in a worker thread of its own, but HTTP/1.1 written on kept-alive
// sockets, each request's bytes made before the clock starts, and answers read by their length.
// fetch costs about 0.3 ms of CPU per request and node:http 0.1 ms; this, about 0.03 ms. At half a
// card list's capacity (over ten thousand a second) the other two queued the very requests they
// were timing, on the two cores they share with the server (decision 187). Plain JavaScript, so
// that no loader is needed in it.
import net from 'node:net';
import { parentPort, workerData } from 'node:worker_threads';

const HEADER_END = Buffer.from('\r\n\r\n');
const CHUNKED_END = Buffer.from('\r\n0\r\n\r\n');

/**
 * One answer at the start of `buffer`: its status, its body and where it ends, or null while it is
 * incomplete. Bodies come with a Content-Length (Fastify's JSON) or chunked.
 */
function readAnswer(buffer) {
  const headerEnd = buffer.indexOf(HEADER_END);
  if (headerEnd < 0) return null;
  const head = buffer.toString('latin1', 0, headerEnd);
  const status = Number(head.slice(9, 12));
  const bodyStart = headerEnd + 4;
  const length = /\r\ncontent-length:\s*(\d+)/i.exec(head);
  if (length) {
    const end = bodyStart + Number(length[1]);
    return buffer.length < end ? null : { status, body: buffer.subarray(bodyStart, end), end, close: /\r\nconnection:\s*close/i.test(head) };
  }
  if (/\r\ntransfer-encoding:\s*chunked/i.test(head)) {
    const last = buffer.indexOf(CHUNKED_END, bodyStart - 2);
    return last < 0 ? null : { status, body: buffer.subarray(bodyStart, last), end: last + CHUNKED_END.length, close: /\r\nconnection:\s*close/i.test(head) };
  }
  // No body (204, 304) or one that ends with the connection: take what is there.
  return { status, body: buffer.subarray(bodyStart), end: buffer.length, close: true };
}

function encode(url, request) {
  const body = request.body === undefined ? '' : request.body;
  const headers = Object.entries(request.headers ?? {}).map(([name, value]) => `${name}: ${value}\r\n`).join('');
  return Buffer.from(`${request.method} ${request.path} HTTP/1.1\r\nhost: ${url.host}\r\n${headers}content-length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
}

/** Connections opened before the clock starts: the bench's 32, enough for thousands a second at a few ms each. */
const WARM_CONNECTIONS = 32;
/**
 * At most this many at once. Past them a request waits here for the first free connection, and
 * that wait is in its time. Without a bound, a stall had the sender open hundreds of connections
 * at once; the server's accept queue overflowed, and the SYNs it dropped were sent again a second
 * later: p99s of 1.0–1.5 s that were the sender's.
 */
const MAX_CONNECTIONS = 128;

/** Kept-alive connections, one request at a time on each. */
async function connectionPool(url, onAnswer) {
  const idle = [];
  const all = new Set();
  const queued = [];
  const dispatch = (conn, job) => {
    conn.pending = job.pending;
    conn.socket.write(job.bytes);
  };
  const release = (conn) => {
    const job = queued.shift();
    if (job) dispatch(conn, job);
    else idle.push(conn);
  };
  const open = () => {
    const socket = net.connect(Number(url.port), url.hostname);
    socket.setNoDelay(true);
    const conn = { socket, pending: null, buffer: Buffer.alloc(0) };
    all.add(conn);
    const fail = (error) => {
      if (!all.delete(conn)) return;
      const pending = conn.pending;
      conn.pending = null;
      if (pending) onAnswer(pending, 'error', String(error ?? 'the connection closed'));
      // Its place goes to a new connection if requests are waiting for one.
      const job = queued.shift();
      if (job) dispatch(open(), job);
    };
    socket.on('data', (chunk) => {
      conn.buffer = conn.buffer.length === 0 ? chunk : Buffer.concat([conn.buffer, chunk]);
      const answer = conn.pending ? readAnswer(conn.buffer) : null;
      if (!answer) return;
      conn.buffer = conn.buffer.subarray(answer.end);
      const pending = conn.pending;
      conn.pending = null;
      onAnswer(pending, answer.status, answer.body.toString('utf8'));
      if (answer.close) {
        all.delete(conn);
        socket.destroy();
        const job = queued.shift();
        if (job) dispatch(open(), job);
      } else release(conn);
    });
    socket.on('error', fail);
    socket.on('close', () => fail());
    return conn;
  };
  const warm = Array.from({ length: WARM_CONNECTIONS }, open);
  await Promise.all(warm.map((conn) => new Promise((resolve) => conn.socket.once('connect', resolve).once('error', resolve))));
  for (const conn of warm) if (all.has(conn)) idle.push(conn);
  return {
    send(bytes, pending) {
      let conn = idle.pop();
      while (conn && !all.has(conn)) conn = idle.pop();
      if (conn) dispatch(conn, { bytes, pending });
      else if (all.size < MAX_CONNECTIONS) dispatch(open(), { bytes, pending });
      else queued.push({ bytes, pending });
    },
    close() {
      for (const conn of all) conn.socket.destroy();
      all.clear();
    },
  };
}

/** @param {{ name: string, rate: number, requests: Array<{ method: string, path: string, headers?: Record<string, string>, body?: string }> }} stream */
async function runStream(baseUrl, stream) {
  const url = new URL(baseUrl);
  const latencies = [];
  const failed = {};
  const examples = [];
  const encoded = stream.requests.map((request) => encode(url, request));
  const waiting = new Set();
  let finished;
  const allAnswered = new Promise((resolve) => (finished = resolve));
  let sending = true;
  const record = (pending, status, text) => {
    latencies.push(performance.now() - pending.sentAt);
    if (status === 'error' || status < 200 || status >= 300) {
      failed[status] = (failed[status] ?? 0) + 1;
      if (examples.length < 3) examples.push(`${status} ${text.slice(0, 200)}`);
    }
  };
  const onAnswer = (pending, status, text) => {
    if (!waiting.delete(pending)) return; // answered after its 30 s were up: already counted
    record(pending, status, text);
    if (!sending && waiting.size === 0) finished();
  };
  const pool = await connectionPool(url, onAnswer);
  const interval = 1000 / stream.rate;
  const started = performance.now();
  for (let i = 0; i < encoded.length; i += 1) {
    // Each send at its own time from the start, not after the previous one (no drift, no waiting).
    const wait = started + i * interval - performance.now();
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
    const pending = { sentAt: performance.now() };
    waiting.add(pending);
    pool.send(encoded[i], pending);
  }
  sending = false;
  if (waiting.size > 0) {
    // A request still unanswered after 30 s fails, as a user's would.
    const timeout = setTimeout(() => {
      for (const pending of waiting) record(pending, 'timeout', 'no answer in 30 s');
      waiting.clear();
      finished();
    }, 30_000);
    await allAnswered;
    clearTimeout(timeout);
  }
  pool.close();
  return { latencies, failed, examples };
}

if (parentPort) {
  const { baseUrl, streams } = workerData;
  const results = await Promise.all(streams.map((stream) => runStream(baseUrl, stream)));
  parentPort.postMessage(Object.fromEntries(streams.map((stream, i) => [stream.name, results[i]])));
}
