// docs/rules.md#never-logged: no password, token, card number or CVV in a log line, whatever a log call includes
// (decision 156: secret fields at any depth, by our own walk; the headers by pino's redaction).
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { createLogger, redactLogObject } from './logger';

function capture() {
  const lines: string[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(chunk.toString('utf8'));
      done();
    },
  });
  return { logger: createLogger({ level: 'trace', stream }), text: () => lines.join('') };
}

describe('the logger keeps secrets out of every line', () => {
  it('secret fields are censored at any depth of a logged object, in arrays too, and nothing else is', () => {
    const { logger, text } = capture();
    logger.info(
      {
        password: 'top-secret-1',
        body: { currentPassword: 'top-secret-2', newPassword: 'top-secret-3', confirmPassword: 'top-secret-4', amountCents: 500 },
        sources: [{ cardNumber: '4111111111111111', cvv: '987', last4: '1111' }],
        deep: { a: { b: { c: { token: 'top-secret-5' } } } },
      },
      'a request',
    );
    const line = JSON.parse(text()) as Record<string, unknown>;
    expect(line).toMatchObject({
      password: '[redacted]',
      body: { currentPassword: '[redacted]', newPassword: '[redacted]', confirmPassword: '[redacted]', amountCents: 500 },
      sources: [{ cardNumber: '[redacted]', cvv: '[redacted]', last4: '1111' }],
      deep: { a: { b: { c: { token: '[redacted]' } } } },
      msg: 'a request',
    });
    expect(text()).not.toMatch(/top-secret|4111111111111111|"987"/);
  });

  it("a child logger's bindings go through the same walk (the linter refuses a child made otherwise), and a request id stays readable", () => {
    const { logger, text } = capture();
    logger.child(redactLogObject({ reqId: 'req-7', user: { token: 'top-secret-6' } }) as Record<string, unknown>).warn('refused');
    const line = JSON.parse(text()) as Record<string, unknown>;
    expect(line).toMatchObject({ reqId: 'req-7', user: { token: '[redacted]' }, msg: 'refused' });
  });

  it("a request's cookie and authorization headers and a reply's set-cookie are censored", () => {
    const { logger, text } = capture();
    logger.info({ res: { headers: { 'set-cookie': 'pw_session=top-secret-7' } } }, 'answered');
    // The request serializer keeps no headers at all; its URL loses a token's value.
    logger.info({ req: { method: 'GET', url: '/reset-password/confirm?token=top-secret-8', headers: { cookie: 'pw_session=top-secret-9' } } }, 'incoming');
    expect(text()).not.toContain('top-secret');
    expect(text()).toContain('/reset-password/confirm?token=[redacted]');
  });

  it('an error logged with a secret field on it loses the secret', () => {
    const { logger, text } = capture();
    logger.error(Object.assign(new Error('failed'), { password: 'top-secret-10' }));
    expect(text()).toContain('failed');
    expect(text()).not.toContain('top-secret');
  });

  it("a payout destination in full (`payTo`, decision 168) is censored whole, and an ACH account's numbers on their own too (decision 171)", () => {
    const { logger, text } = capture();
    logger.info({ registration: { method: 'ach', payTo: { method: 'ach', routingNumber: '021000021', accountNumber: '73059911462853' }, reference: 'destination:1' } }, 'registering');
    logger.info({ accountNumber: '73059911462854', nested: { routingNumber: '011000015' } }, 'parts');
    const [whole, parts] = text().trim().split('\n').map((line) => JSON.parse(line) as Record<string, unknown>);
    expect(whole).toMatchObject({ registration: { method: 'ach', payTo: '[redacted]', reference: 'destination:1' } });
    expect(parts).toMatchObject({ accountNumber: '[redacted]', nested: { routingNumber: '[redacted]' } });
    expect(text()).not.toMatch(/7305991146285|021000021|011000015/);
  });
});
