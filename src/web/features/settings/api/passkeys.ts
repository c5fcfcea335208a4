import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Passkey, PasskeyList } from '../../../../contracts/passkeys';
import { api } from '../../../lib/api';
import { answerPasskeyRequest, createPasskey } from '../../../lib/passkeys';
import { securityActivityQueryKey } from './security-activity';

// Settings → Security → Passkeys (docs/decisions/090). Adding and removing need the password (or
// a passkey) entered within 5 minutes: they answer 403 reauthentication_required otherwise, and
// the panel asks, then tries again.

// Not under ['me']: signing in as someone else must drop it with the rest of the cache.
export const passkeysQueryKey = ['passkeys'] as const;

export function usePasskeys(options: { enabled?: boolean } = {}) {
  return useQuery({ queryKey: passkeysQueryKey, queryFn: async () => (await api<PasskeyList>('/api/me/passkeys')).passkeys, enabled: options.enabled ?? true });
}

function useRefresh() {
  const client = useQueryClient();
  return () => Promise.all([client.invalidateQueries({ queryKey: passkeysQueryKey }), client.invalidateQueries({ queryKey: securityActivityQueryKey })]);
}

/** Creates a passkey on this device (the browser asks for a PIN or biometric) and adds it under `name`. */
export function useAddPasskey() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: async (name: string) => {
      const credential = await createPasskey();
      return api<Passkey>('/api/me/passkeys', { method: 'POST', body: { name, credential } });
    },
    onSuccess: () => refresh(),
  });
}

export function useRenamePasskey() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: ({ id, name }: { id: string; name: string }) => api<Passkey>(`/api/me/passkeys/${encodeURIComponent(id)}`, { method: 'PATCH', body: { name } }),
    onSuccess: () => refresh(),
  });
}

export function useRemovePasskey() {
  const refresh = useRefresh();
  return useMutation({
    mutationFn: (id: string) => api<void>(`/api/me/passkeys/${encodeURIComponent(id)}`, { method: 'DELETE' }),
    onSuccess: () => refresh(),
  });
}

/** "Confirm it's you" with a passkey instead of the password (the session cookie is replaced). */
export function useReauthenticateWithPasskey() {
  return useMutation({
    mutationFn: async () => {
      const credential = await answerPasskeyRequest('/api/auth/reauthenticate/passkey/options');
      await api<void>('/api/auth/reauthenticate/passkey', { method: 'POST', body: { credential } });
    },
  });
}
