import type { Config } from '../config';

// docs/rules.md#demo-declines demo timings. DEMO_LATENCY_MS overrides them all (0 in tests and benchmarks).
export const DEMO_TIMINGS_MS = {
  preAuthorization: 1500,
  cardCreation: 2000,
  cashout: 2000,
  payment: 1500,
} as const;
export type DemoTiming = keyof typeof DEMO_TIMINGS_MS;

export async function demoDelay(config: Pick<Config, 'demoMode' | 'demoLatencyMs'>, timing: DemoTiming): Promise<void> {
  if (!config.demoMode) return;
  const ms = config.demoLatencyMs ?? DEMO_TIMINGS_MS[timing];
  if (ms > 0) await new Promise((resolve) => setTimeout(resolve, ms));
}
