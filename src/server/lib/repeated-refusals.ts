// A client told to wait (429 or 503 with Retry-After) that comes straight back gets the same
// refusal again, but only after a short delay (decision 137; OWASP's progressive delays). A
// script that ignores Retry-After and resends the moment it is answered would otherwise take
// the event loop's turn thousands of times a second, and every honest request waits behind its
// refusals; held for a second, each of its connections asks once a second. The refusal itself
// is unchanged, and a client that waits as told never meets the delay.

import { setNewest } from './bounded-map';

/** How long a repeated refusal is held at least before it is sent. */
export const REPEATED_REFUSAL_DELAY_MS = 1_000;
/**
 * Up to this much more, at random (decision 146): clients that flood together are refused
 * together, and held for exactly the same time they would come back together, every second, as
 * one burst that honest requests queue behind. A random part spreads them over the second.
 */
export const REPEATED_REFUSAL_JITTER_MS = 500;
/** Clients remembered at most (the oldest are forgotten first). */
const MAX_CLIENTS = 10_000;

/** Remembers until when each client was told to wait, for refusals that have no memory of their own. */
export class RefusalMemory {
  private readonly waitUntil = new Map<string, number>();

  /** Records a refusal telling `client` to wait `retryAfterSeconds`; true when it had been told so already and came back early. */
  refused(client: string, retryAfterSeconds: number, now = Date.now()): boolean {
    const earlier = this.waitUntil.get(client);
    const cameBackEarly = earlier !== undefined && earlier > now;
    setNewest(this.waitUntil, client, Math.max(earlier ?? 0, now + retryAfterSeconds * 1000), MAX_CLIENTS);
    return cameBackEarly;
  }
}

/** Calls `send` now, or after the delay when the refusal repeats one the client did not wait out. */
export function sendRefusal(repeated: boolean, send: () => void, random: () => number = Math.random): void {
  if (!repeated) return send();
  setTimeout(send, REPEATED_REFUSAL_DELAY_MS + Math.floor(random() * REPEATED_REFUSAL_JITTER_MS)).unref();
}
