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

export type Adapters = {
  cardProcessor: CardProcessor;
  payouts: PayoutProvider;
  mailer: Mailer;
  /** Waits the spec's demo time for an operation (0 in tests and benchmarks). */
  delay(timing: DemoTiming): Promise<void>;
};

export function createAdapters(config: Config, db: Db): Adapters {
  return {
    cardProcessor: config.demoMode ? createDemoCardProcessor({ declineRate: config.demoDeclineRate }) : liveCardProcessor,
    payouts: config.demoMode ? createDemoPayouts() : livePayouts,
    mailer: createMailer(config, db),
    delay: (timing) => demoDelay(config, timing),
  };
}
