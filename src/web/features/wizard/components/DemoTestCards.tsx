import { Icon } from '../../../ui/Icon';
import { DEMO_TEST_CARDS } from '../labels';

/** Demo mode: the made-up numbers that work here, as payment test modes list them. */
export function DemoTestCards({ onUse }: { onUse: (number: string) => void }) {
  return (
    <section className="demo-test-cards" aria-labelledby="demo-test-cards-heading">
      <h4 id="demo-test-cards-heading" className="demo-test-cards-title">
        <Icon name="info" size={16} />
        Demo mode: test numbers to try
      </h4>
      <p className="text-small text-muted">
        Made-up numbers are expected here; nothing is charged. Use any future expiry date and any 3 digits as CVV. About 1 in 10 pre-authorizations is declined at
        random, as real issuers sometimes do.
      </p>
      <ul className="demo-test-cards-list">
        {DEMO_TEST_CARDS.map((card) => (
          <li key={card.number}>
            <button type="button" className="link-button field-mono" onClick={() => onUse(card.number)} aria-label={`Use ${card.label} test number ${card.number}, ${card.outcome}`}>
              {card.number}
            </button>
            <span className="text-small text-muted">
              {card.label}, {card.outcome}
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}
