// A software passkey for the integration tests: what a phone or a security key does, built on
// node:crypto (ES256 on P-256, "none" attestation), so the server's real @simplewebauthn
// verification runs on real signatures. Nothing here is mocked: a wrong origin, an old challenge
// or another key makes the server's check fail exactly as a browser's would.
import { createHash, generateKeyPairSync, randomBytes, sign, type KeyObject } from 'node:crypto';
import { isoCBOR } from '@simplewebauthn/server/helpers';

type CreationOptions = { challenge: string; rp: { id?: string }; user: { id: string } };
type RequestOptions = { challenge: string; rpId?: string; allowCredentials?: Array<{ id: string }> };

export type RegistrationJSON = {
  id: string;
  rawId: string;
  type: 'public-key';
  authenticatorAttachment: 'platform';
  clientExtensionResults: Record<string, never>;
  response: { clientDataJSON: string; attestationObject: string; transports: string[] };
};

export type AuthenticationJSON = {
  id: string;
  rawId: string;
  type: 'public-key';
  authenticatorAttachment: 'platform';
  clientExtensionResults: Record<string, never>;
  response: { clientDataJSON: string; authenticatorData: string; signature: string; userHandle?: string };
};

const FLAG_UP = 0x01;
const FLAG_UV = 0x04;
const FLAG_BE = 0x08;
const FLAG_BS = 0x10;
const FLAG_AT = 0x40;

const b64url = (bytes: Uint8Array | Buffer) => Buffer.from(bytes).toString('base64url');
const sha256 = (data: Uint8Array | Buffer | string) => createHash('sha256').update(data).digest();

function clientData(type: 'webauthn.create' | 'webauthn.get', challenge: string, origin: string): Buffer {
  return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }), 'utf8');
}

export class SoftAuthenticator {
  readonly credentialId = randomBytes(32);
  private readonly privateKey: KeyObject;
  private readonly publicKey: KeyObject;
  /** The signature counter; tests may wind it back to act as a cloned authenticator. */
  counter = 0;
  /** The user handle the passkey was created for (base64url), as a discoverable credential keeps it. */
  userHandle: string | undefined;
  rpId: string | undefined;

  constructor(
    /** The origin the "browser" reports in clientDataJSON. */
    public origin: string,
    private readonly options: { userVerified?: boolean; backedUp?: boolean } = {},
  ) {
    const pair = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    this.privateKey = pair.privateKey;
    this.publicKey = pair.publicKey;
  }

  get id(): string {
    return b64url(this.credentialId);
  }

  private flags(extra: number): number {
    let flags = FLAG_UP | extra;
    if (this.options.userVerified !== false) flags |= FLAG_UV;
    if (this.options.backedUp) flags |= FLAG_BE | FLAG_BS;
    return flags;
  }

  private coseKey(): Uint8Array {
    const jwk = this.publicKey.export({ format: 'jwk' });
    const cose = new Map<number, number | Uint8Array>([
      [1, 2], // kty: EC2
      [3, -7], // alg: ES256
      [-1, 1], // crv: P-256
      [-2, new Uint8Array(Buffer.from(jwk.x!, 'base64url'))],
      [-3, new Uint8Array(Buffer.from(jwk.y!, 'base64url'))],
    ]);
    return isoCBOR.encode(cose);
  }

  /** navigator.credentials.create() answering `options`, as @simplewebauthn/browser would send it. */
  register(options: CreationOptions, origin = this.origin): RegistrationJSON {
    this.rpId = options.rp.id;
    this.userHandle = options.user.id;
    const rpIdHash = sha256(options.rp.id ?? '');
    const counter = Buffer.alloc(4);
    counter.writeUInt32BE(this.counter);
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(this.credentialId.length);
    const authData = Buffer.concat([
      rpIdHash,
      Buffer.from([this.flags(FLAG_AT)]),
      counter,
      Buffer.alloc(16), // aaguid: none
      idLength,
      this.credentialId,
      Buffer.from(this.coseKey()),
    ]);
    const attestationObject = isoCBOR.encode(
      new Map<string, string | Map<string, string> | Uint8Array>([
        ['fmt', 'none'],
        ['attStmt', new Map<string, string>()],
        ['authData', new Uint8Array(authData)],
      ]),
    );
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key',
      authenticatorAttachment: 'platform',
      clientExtensionResults: {},
      response: { clientDataJSON: b64url(clientData('webauthn.create', options.challenge, origin)), attestationObject: b64url(attestationObject), transports: ['internal'] },
    };
  }

  /** navigator.credentials.get() answering `options` (the counter moves on by one). */
  authenticate(options: RequestOptions, overrides: { origin?: string; rpId?: string; userHandle?: string | null } = {}): AuthenticationJSON {
    this.counter += 1;
    const rpIdHash = sha256(overrides.rpId ?? options.rpId ?? this.rpId ?? '');
    const counter = Buffer.alloc(4);
    counter.writeUInt32BE(this.counter);
    const authData = Buffer.concat([rpIdHash, Buffer.from([this.flags(0)]), counter]);
    const data = clientData('webauthn.get', options.challenge, overrides.origin ?? this.origin);
    const signature = sign('sha256', Buffer.concat([authData, sha256(data)]), this.privateKey);
    const userHandle = overrides.userHandle === null ? undefined : (overrides.userHandle ?? this.userHandle);
    return {
      id: this.id,
      rawId: this.id,
      type: 'public-key',
      authenticatorAttachment: 'platform',
      clientExtensionResults: {},
      response: { clientDataJSON: b64url(data), authenticatorData: b64url(authData), signature: b64url(signature), ...(userHandle ? { userHandle } : {}) },
    };
  }
}
