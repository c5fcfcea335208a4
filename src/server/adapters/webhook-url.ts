// Whether a webhook URL may be called, and at which address. A user types the URL, so without this
// check the server would post to whatever the name leads to: its own database port, a neighbour on
// the private network, the cloud's metadata service (server-side request forgery). The name is
// resolved once, here, and the delivery connects to the address this returns: a second lookup
// could answer differently (DNS rebinding) after the check has passed.
import { promises as dns } from 'node:dns';
import { isIP } from 'node:net';
import { addressRefusal, type AddressRefusal } from '../lib/public-address';

/** Every address a name resolves to, in the resolver's order (dns.promises.lookup with all: true). */
export type ResolveAll = (hostname: string) => Promise<Array<{ address: string; family: number }>>;

export type WebhookUrlOptions = {
  /** Live mode: https only, and never loopback. */
  live: boolean;
  /** Demo mode only: lets a newcomer's receiver on this machine get webhooks. Ignored when live. */
  allowLoopback: boolean;
  /** Tests answer for the resolver; by default the system's, as every other connection uses. */
  resolve?: ResolveAll;
};

export type CheckedWebhookUrl = { ok: true; url: URL; hostname: string; address: string; family: 4 | 6 };
export type WebhookUrlCheck = CheckedWebhookUrl | { ok: false; error: string };

const systemResolve: ResolveAll = (hostname) => dns.lookup(hostname, { all: true });

function refusalMessage(reason: AddressRefusal): string {
  if (reason === 'private network address') return 'This address points to a private network and cannot receive webhooks.';
  if (reason === 'loopback address') return 'This address points to this server itself and cannot receive webhooks.';
  if (reason === 'cloud metadata address') return "This address is a cloud provider's metadata service and cannot receive webhooks.";
  return `This address is not on the public internet (${reason}) and cannot receive webhooks.`;
}

/**
 * Any port is accepted: receivers often listen on 8443 or 8080, and a port rule would protect
 * nothing the address rule does not, since every address left is one anyone on the internet can
 * already reach on any port.
 */
export async function checkWebhookUrl(text: string, options: WebhookUrlOptions): Promise<WebhookUrlCheck> {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return { ok: false, error: 'This is not a valid URL.' };
  }
  if (options.live && url.protocol !== 'https:') return { ok: false, error: 'Webhook URLs must use https.' };
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return { ok: false, error: 'Webhook URLs must use http or https.' };
  // A password in the URL would be stored and shown wherever the URL is; the signature is what
  // proves a webhook is ours, so a receiver needs no credentials in it.
  if (url.username || url.password) return { ok: false, error: 'Webhook URLs cannot contain a user name or password.' };

  const hostname = url.hostname.replace(/^\[(.*)\]$/, '$1');
  let addresses: Array<{ address: string; family: number }>;
  if (isIP(hostname)) {
    addresses = [{ address: hostname, family: isIP(hostname) }];
  } else {
    try {
      addresses = await (options.resolve ?? systemResolve)(hostname);
    } catch {
      addresses = [];
    }
    if (addresses.length === 0) return { ok: false, error: 'This host name could not be found.' };
  }

  const loopbackAllowed = options.allowLoopback && !options.live;
  // Every address, not only the first: the one connected to is ours to pick, but a name that also
  // leads inside is not a receiver's public endpoint.
  for (const { address } of addresses) {
    const reason = addressRefusal(address);
    if (reason && !(reason === 'loopback address' && loopbackAllowed)) return { ok: false, error: refusalMessage(reason) };
  }
  const [first] = addresses as [{ address: string; family: number }];
  return { ok: true, url, hostname, address: first.address, family: isIP(first.address) === 6 ? 6 : 4 };
}
