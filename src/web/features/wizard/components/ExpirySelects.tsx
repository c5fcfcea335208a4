import { useMemo } from 'react';
import { expiryYearOptions } from '../../../../core/cards';
import { useWizardControl } from '../use-wizard-control';

const MONTHS = Array.from({ length: 12 }, (_, i) => String(i + 1).padStart(2, '0'));

/** The source form's expiry: a month and a year select under one legend, with one error ('expiry') for both. */
export function ExpirySelects({ onEdit }: { onEdit?: () => void }) {
  const years = useMemo(() => expiryYearOptions(new Date()), []);
  const month = useWizardControl('expiryMonth', { errorField: 'expiry', onEdit });
  const year = useWizardControl('expiryYear', { errorField: 'expiry', onEdit });
  const error = month.error;
  return (
    <fieldset className="expiry-fieldset" aria-describedby={error ? 'expiry-error' : undefined}>
      <legend className="field-label">
        Expiry date<span className="field-required" aria-hidden="true"> *</span>
      </legend>
      <div className="expiry-selects">
        <label className="visually-hidden" htmlFor="source-exp-month">
          Expiry month
        </label>
        <select
          id="source-exp-month"
          ref={month.ref}
          className="field-input field-select"
          required
          aria-invalid={error ? true : undefined}
          value={month.value}
          autoComplete="cc-exp-month"
          onBlur={month.onBlur}
          onChange={(e) => month.set(e.target.value)}
        >
          <option value="">Month</option>
          {MONTHS.map((value) => (
            <option key={value} value={value}>
              {value}
            </option>
          ))}
        </select>
        <label className="visually-hidden" htmlFor="source-exp-year">
          Expiry year
        </label>
        <select
          id="source-exp-year"
          ref={year.ref}
          className="field-input field-select"
          required
          aria-invalid={error ? true : undefined}
          value={year.value}
          autoComplete="cc-exp-year"
          onBlur={year.onBlur}
          onChange={(e) => year.set(e.target.value)}
        >
          <option value="">Year</option>
          {years.map((value) => (
            <option key={value} value={String(value)}>
              {value}
            </option>
          ))}
        </select>
      </div>
      {error && (
        <p id="expiry-error" className="field-error">
          {error}
        </p>
      )}
    </fieldset>
  );
}
