import { describe, expect, it } from 'vitest';
import { CARD_VALIDITY } from '../../../core/cards';
import { formatPpmAsPercent } from '../../../core/money';
import { PLAN_IDS, PLANS } from '../../../core/plans';
import { buildFaq } from './faq-content';
import { filterFaq } from './faq-search';

const faq = buildFaq({ payAddress: 'pay.payweave.example' });
const answerTo = (id: string) =>
  faq
    .flatMap((category) => category.items)
    .find((item) => item.id === id)
    ?.answer.join(' ') ?? '';

describe('FAQ content', () => {
  it('builds every category with questions and unique ids', () => {
    expect(faq.length).toBeGreaterThan(0);
    const ids = faq.flatMap((category) => category.items.map((item) => item.id));
    expect(new Set(ids).size).toBe(ids.length);
    for (const category of faq) expect(category.items.length).toBeGreaterThan(0);
  });

  it('states each plan’s monthly combine limit from the plan table', () => {
    const answer = answerTo('monthly-limit');
    for (const id of PLAN_IDS) {
      const limit = PLANS[id].monthlyCombineLimit;
      expect(answer).toContain(`${PLANS[id].name}: ${limit === null ? 'unlimited' : `${limit} per month`}`);
    }
  });

  it('states product and cash-out fee rates from the plan table', () => {
    for (const id of PLAN_IDS) {
      expect(answerTo('fees-overview')).toContain(`${PLANS[id].name}: ${formatPpmAsPercent(PLANS[id].productFeePpm)}`);
      expect(answerTo('cashout-fees')).toContain(`${PLANS[id].name}: ${formatPpmAsPercent(PLANS[id].cashoutFeePpm)}`);
    }
  });

  it('names each plan with its price, the Free plan as the upgrade page does ($0.00), not as "Free (free)"', () => {
    const answer = answerTo('plans-overview');
    expect(answer).toContain('Free ($0.00 a month):');
    expect(answer).not.toContain('(free)');
    expect(answer).toContain('Premium ($9.99 a month or $99.99 a year):');
  });

  it('reproduces the worked fee example of docs/rules.md#fee-examples (card source, $300 on Free)', () => {
    expect(answerTo('fees-overview')).toContain('charging $300.00 to a card costs $9.00 in processing and $3.00 in product fee, so $288.00');
  });

  it('states card validity from the card rules', () => {
    expect(answerTo('validity')).toContain(`valid for ${CARD_VALIDITY.generalMonths} months`);
    expect(answerTo('validity')).toContain(`after ${CARD_VALIDITY.singleUseDays} days`);
  });

  it('tells BNPL users to make a one-time card of 110% with the pay address as merchant', () => {
    expect(answerTo('bnpl')).toContain('one-time card of 110%');
    expect(answerTo('bnpl')).toContain('pay.payweave.example');
  });
});

describe('filterFaq', () => {
  it('returns everything for an empty query and no category', () => {
    expect(filterFaq(faq, '  ', null)).toEqual(faq);
  });

  it('matches every word, in any order, case-insensitively', () => {
    const found = filterFaq(faq, 'PAYOUT methods', null).flatMap((category) => category.items.map((item) => item.id));
    expect(found).toContain('payout-methods');
  });

  it('drops categories without matches and returns nothing for nonsense', () => {
    expect(filterFaq(faq, 'xylophone quasar', null)).toEqual([]);
  });

  it('narrows to one category', () => {
    const result = filterFaq(faq, '', 'fees');
    expect(result.map((category) => category.id)).toEqual(['fees']);
  });
});
