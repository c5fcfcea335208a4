// The web app branches on the API's error codes (a changed quote, a dead reset link, a decline):
// only a code on the contract's list reaches that branching, anything else is a plain HTTP error.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { api, ApiError } from './api';

function answer(status: number, body: unknown) {
  vi.stubGlobal('fetch', vi.fn(async () => new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } })));
}
const failure = (path = '/api/x') => api(path).then(() => expect.unreachable('the call should fail'), (error: unknown) => error as ApiError);

describe('api(): error codes from the contract', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it('keeps a code on the list, with the server message', async () => {
    answer(409, { error: { code: 'quote_changed', message: 'The figures changed.' } });
    const error = await failure();
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ status: 409, code: 'quote_changed', message: 'The figures changed.' });
  });

  it('does not take a code that is not on the list for one of ours', async () => {
    answer(409, { error: { code: 'quote_has_changed', message: 'The figures changed.' } });
    expect(await failure()).toMatchObject({ status: 409, code: 'http_error', message: 'The figures changed.' });
  });
});
