import './choice-chips.css';

export type ChoiceChip<Value extends string> = { value: Value; label: string };

type ChoiceChipsProps<Value extends string> = {
  /** Names the group for screen readers, e.g. 'Filter cards'. */
  label: string;
  options: ReadonlyArray<ChoiceChip<Value>>;
  value: Value;
  onChange: (value: Value) => void;
};

/**
 * A row of toggle buttons of which one is on: list filters and view switches. Each is a button
 * with aria-pressed, so it is announced as on or off and works with the keyboard as it is.
 */
export function ChoiceChips<Value extends string>({ label, options, value, onChange }: ChoiceChipsProps<Value>) {
  return (
    <div className="choice-chips" role="group" aria-label={label}>
      {options.map((option) => (
        <button key={option.value} type="button" className="choice-chip" aria-pressed={option.value === value} onClick={() => onChange(option.value)}>
          {option.label}
        </button>
      ))}
    </div>
  );
}
