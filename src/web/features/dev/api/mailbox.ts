import { useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import type { mailboxResponse } from '../../../../contracts/auth';
import { api } from '../../../lib/api';

type Mailbox = z.infer<typeof mailboxResponse>;

/** GET /api/dev/mailbox: the demo outbox (404 outside demo mode). */
export function useMailbox() {
  return useQuery({
    queryKey: ['dev', 'mailbox'],
    queryFn: () => api<Mailbox>('/api/dev/mailbox'),
    staleTime: 0,
    retry: false,
  });
}
