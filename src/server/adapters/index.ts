// External systems behind interfaces. Demo mode wires the simulated implementations; live mode
// wires implementations that refuse with the spec's "not implemented" message until real
// adapters exist. Swapping in a real processor is a new file here, not a rewrite.
import type { Config } from '../config';
import type { Db } from '../db/client';
import type { CardProcessor } from './card-processor';
import { createDemoCardProcessor, liveCardProcessor } from './card-processor';
import type { Mailer } from './mailer';
import { createMailer } from './mailer';
import type { PayoutProvider } from './payouts';
import { createDemoPayouts, livePayouts } from './payouts';
import { demoDelay, type DemoTiming } from './demo-latency';
import { DemoCallLog } from './demo-calls';

export type Adapters = {
  cardProcessor: CardProcessor;
  payouts: PayoutProvider;
  mailer: Mailer;
  /** Waits the spec's demo time for an operation (0 in tests and benchmarks). */
  delay(timing: DemoTiming): Promise<void>;
};

export function createAdapters(config: Config, db: Db): Adapters {
  // One record of calls for the demo processor, payouts and mail delivery: a fault spec's call
  // numbers and a test's counts read one log.
  const log = new DemoCallLog({ file: config.demoAdapterLog, faults: config.demoFaults, timeoutMs: config.demoFaultTimeoutMs });
  return {
    cardProcessor: config.demoMode ? createDemoCardProcessor({ declineRate: config.demoDeclineRate, log }) : liveCardProcessor,
    payouts: config.demoMode ? createDemoPayouts(log) : livePayouts,
    mailer: createMailer(config, db, undefined, config.demoMode ? log : undefined),
    delay: (timing) => demoDelay(config, timing),
  };
}
