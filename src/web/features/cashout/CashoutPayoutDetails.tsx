import { Link } from 'react-router';
import { PAYOUT_DETAIL_FIELDS } from '../../../core/payout-details';
import { PAYOUT_METHOD_LABELS } from '../../../core/plans';
import type { PayoutMethod } from '../../../core/plans';
import { PayoutDetailFields, type PayoutDetails } from '../../lib/payout-details-form';
import { Notice } from '../../ui/Notice';
import type { Refused } from './use-payout-choices';

/**
 * The payout-details step, beside the chosen method: the server's refusal of a method without a
 * destination (decision 172) with a link to Settings, and the method's details when they are
 * asked (first use, or a saved method without a destination).
 */
export function CashoutPayoutDetails({ method, refused, asked, saved, details }: {
  method: PayoutMethod;
  refused: Refused | null;
  /** The details are entered here, before the cash-out. */
  asked: boolean;
  /** The method is one of the user's saved ones (its details are asked again). */
  saved: boolean;
  details: PayoutDetails;
}) {
  return (
    <>
      {refused && refused.method === method && (
        <Notice tone="warning" role="alert">
          {refused.message} <Link to="/settings?tab=payout-methods">Go to Payout Methods</Link>
        </Notice>
      )}
      {asked && (
        <PayoutDetailFields
          method={method}
          details={details}
          ids={{ routingNumber: 'payout-routing-number', detail: `payout-detail-${method}` }}
          detailHint={
            saved
              ? `We need your ${PAYOUT_METHOD_LABELS[method]} details again before we can pay to it. ${PAYOUT_DETAIL_FIELDS[method].hint} They are saved with the method.`
              : `First cash-out to ${PAYOUT_METHOD_LABELS[method]}: ${PAYOUT_DETAIL_FIELDS[method].hint} It is saved as a payout method.`
          }
        />
      )}
    </>
  );
}
