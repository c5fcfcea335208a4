import { useQuery } from '@tanstack/react-query';
import type { DashboardData } from '../../../../contracts/dashboard';
import { api } from '../../../lib/api';

export const dashboardQueryKey = ['dashboard'] as const;

/** GET /api/dashboard: every figure of the overview, from the server. */
export function useDashboard() {
  return useQuery({ queryKey: dashboardQueryKey, queryFn: () => api<DashboardData>('/api/dashboard') });
}
