// Work that must not be part of an answer's time (docs/rules.md#password-reset): the password-reset request answers
// at once, the same for every address, and only afterwards looks the address up and queues the
// e-mail. Each task starts on the next turn of the event loop, after the answer was written; a
// failure is logged (the answer was already sent). `idle()` waits for every task, so closing the
// app (and a test) never leaves one half done.
import type { FastifyBaseLogger } from 'fastify';

export type AfterAnswer = {
  /** Runs `work` after the current answer has gone out. */
  run(name: string, work: () => Promise<void>): void;
  /** Resolves once no task is pending (also those started while waiting). */
  idle(): Promise<void>;
};

export function createAfterAnswer(log: FastifyBaseLogger): AfterAnswer {
  const pending = new Set<Promise<void>>();
  return {
    run(name, work) {
      const task: Promise<void> = new Promise<void>((resolve) => setImmediate(resolve))
        .then(work)
        .catch((error: unknown) => log.error({ err: error, task: name }, 'work after the answer failed'))
        .finally(() => pending.delete(task));
      pending.add(task);
    },
    async idle() {
      while (pending.size > 0) await Promise.allSettled([...pending]);
    },
  };
}
