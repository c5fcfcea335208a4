import { describe, expect, it } from 'vitest';
import { PROCESSOR_CARD_STATES, processorStateOf } from './card-processor-state';

describe('the state a card should have at the processor (decision 170)', () => {
  it('is active for an active card, frozen for a frozen one', () => {
    expect(processorStateOf({ status: 'active', frozen: false })).toBe('active');
    expect(processorStateOf({ status: 'active', frozen: true })).toBe('frozen');
  });

  it('is closed for every other status, frozen or not: permanent reasons first', () => {
    for (const status of ['cashed_out', 'expired', 'closed']) {
      expect(processorStateOf({ status, frozen: false })).toBe('closed');
      expect(processorStateOf({ status, frozen: true })).toBe('closed');
    }
  });

  it('treats a status it does not know as closed, never as usable', () => {
    expect(processorStateOf({ status: 'suspended', frozen: false })).toBe('closed');
  });

  it('answers one of the three states the processor is told', () => {
    for (const status of ['active', 'cashed_out', 'expired', 'closed']) {
      for (const frozen of [false, true]) expect(PROCESSOR_CARD_STATES).toContain(processorStateOf({ status, frozen }));
    }
  });
});
