import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { errorResponse } from '../../../contracts/common';
import { dashboardResponse } from '../../../contracts/dashboard';
import { requireUser } from '../../plugins/session';
import { loadDashboard } from './dashboard-service';

export const dashboardRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/dashboard',
    { schema: { tags: ['dashboard'], summary: 'Promo, plan, monthly combines, boosts, recent combines and card balances', response: { 200: dashboardResponse, 401: errorResponse } } },
    async (request) => {
      const { userId } = requireUser(request);
      return loadDashboard(app, userId);
    },
  );
};
