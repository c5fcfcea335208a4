import { formatUsd } from '../../../../core/money';
import { isSourceType, PROVIDER_LABELS, PROVIDERS_BY_SOURCE_TYPE } from '../../../../core/fees';
import { networkLabel } from '../labels';
import type { SourceFormState } from '../use-source-form';
import { useWizardControl } from '../use-wizard-control';
import { WizardField } from './WizardField';

/** The source form's first row: the type, then its provider, or which PayWeave card for 'internal'. */
export function SourceTypeFields({ source }: { source: SourceFormState }) {
  const type = useWizardControl('type');
  const internal = type.value === 'internal';
  return (
    // A PayWeave card is named with its balance: too long for half a row, so it gets a row of its own.
    <div className={internal ? 'form-row source-form-row--stacked' : 'form-row'}>
      <WizardField label="Source type" required error={type.error}>
        {(control) => (
          <select {...control} ref={type.ref} onBlur={type.onBlur} className="field-input field-select" value={type.value} onChange={(e) => source.onTypeChange(e.target.value)}>
            <option value="">Select a type</option>
            {source.typeOptions.map((option) => (
              <option key={option.value} value={option.value}>
                {option.label}
              </option>
            ))}
          </select>
        )}
      </WizardField>
      {internal ? <SourceCardField source={source} /> : <ProviderField source={source} />}
    </div>
  );
}

function SourceCardField({ source }: { source: SourceFormState }) {
  const card = useWizardControl('sourceCardId', { onEdit: source.onEdit });
  return (
    <WizardField label="Card" required error={card.error}>
      {(control) => (
        <select {...control} ref={card.ref} onBlur={card.onBlur} className="field-input field-select" value={card.value} onChange={(e) => card.set(e.target.value)}>
          <option value="">Select one of your cards</option>
          {source.cardChoices.map((choice) => (
            <option key={choice.id} value={choice.id}>
              {choice.last4 ? `${networkLabel(choice.network)} •••• ${choice.last4} (${formatUsd(choice.remainingAmountCents)} available)` : 'Your PayWeave card'}
            </option>
          ))}
        </select>
      )}
    </WizardField>
  );
}

function ProviderField({ source }: { source: SourceFormState }) {
  const provider = useWizardControl('provider', { onEdit: source.onEdit });
  const type = source.values.type;
  return (
    <WizardField label="Provider" required error={provider.error}>
      {(control) => (
        <select
          {...control}
          ref={provider.ref}
          onBlur={provider.onBlur}
          className="field-input field-select"
          value={provider.value}
          disabled={type === ''}
          onChange={(e) => provider.set(e.target.value)}
        >
          <option value="">{type === '' ? 'Choose a type first' : 'Select a provider'}</option>
          {(isSourceType(type) ? PROVIDERS_BY_SOURCE_TYPE[type] : []).map((value) => (
            <option key={value} value={value}>
              {PROVIDER_LABELS[value]}
            </option>
          ))}
        </select>
      )}
    </WizardField>
  );
}
