import { passwordChecks } from '../../core/passwords';
import { Icon } from './Icon';
import './password-checklist.css';

const EMPTY_CIRCLE = 'M12 22a10 10 0 1 0 0-20 10 10 0 0 0 0 20Z';

/**
 * The live checklist under a new-password field (docs/rules.md#passwords): each rule ticks as it is met. The
 * state is also said in words for screen readers, as the icon and colour are not read out.
 */
export function PasswordChecklist({ password, id }: { password: string; id?: string }) {
  const checks = passwordChecks(password);
  return (
    <div className="password-checklist" id={id}>
      <p className="password-checklist-title">Your password needs:</p>
      <ul>
        {checks.map((check) => (
          <li key={check.id} className={check.ok ? 'is-met' : undefined}>
            {check.ok ? <Icon name="checkCircle" size={16} /> : <Icon d={EMPTY_CIRCLE} size={16} />}
            <span>
              {check.label}
              <span className="visually-hidden">{check.ok ? ' (done)' : ' (not yet)'}</span>
            </span>
          </li>
        ))}
      </ul>
    </div>
  );
}
