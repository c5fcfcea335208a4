import type { Combine } from '../../../../contracts/combines';
import { Money } from '../../../ui/Money';
import { providerLabel, sourceTypeLabel } from '../history-format';

/** A combine's sources: provider, type, amount, fee (the creation fee included where it was added) and what went to the card. */
export function CombineSourcesTable({
  sources,
  creationFee,
  headingLevel,
}: {
  sources: Combine['sources'];
  creationFee: (source: Combine['sources'][number]) => number;
  headingLevel: 2 | 3;
}) {
  const Heading = `h${headingLevel}` as const;
  return (
    <section aria-label="Sources" className="history-section">
      <Heading>Sources</Heading>
      {/* Focusable: on a narrow window the table scrolls sideways, and a keyboard must reach it. */}
      <div className="history-table-wrap stack-table-wrap" tabIndex={0} role="region" aria-label="Sources of this combine">
        <table className="history-table stack-table">
          <thead>
            <tr>
              <th scope="col">Provider</th>
              <th scope="col">Type</th>
              <th scope="col" className="num">
                Amount
              </th>
              <th scope="col" className="num">
                Fee
              </th>
              <th scope="col" className="num">
                To card
              </th>
            </tr>
          </thead>
          <tbody>
            {sources.map((s) => (
              <tr key={s.id}>
                <th scope="row">
                  {providerLabel(s.type, s.provider)}
                  {s.last4 && <span className="text-muted"> •••• {s.last4}</span>}
                </th>
                <td data-label="Type">{sourceTypeLabel(s.type)}</td>
                <td className="num" data-label="Amount">
                  <Money cents={s.chargeCents + creationFee(s)} />
                </td>
                <td className="num" data-label="Fee">
                  <Money cents={s.processorFeeCents + s.productFeeCents + creationFee(s)} />
                </td>
                <td className="num" data-label="To card">
                  <Money cents={s.netCents} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
