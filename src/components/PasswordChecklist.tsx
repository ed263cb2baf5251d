import { passwordChecks } from '../contracts/validation.ts';
import './PasswordChecklist.css';

const ITEMS = [
  ['length', '8+ characters'],
  ['upper', '1 uppercase'],
  ['lower', '1 lowercase'],
  ['digit', '1 number'],
  ['symbol', '1 symbol'],
] as const;

/** The strength checklist of docs/product.md "Validation rules", ticking as the member types. */
export function PasswordChecklist({ password }: { password: string }) {
  const checks = passwordChecks(password);
  return (
    <ul className="password-checklist" aria-label="Password requirements">
      {ITEMS.map(([key, label]) => (
        <li key={key} className={checks[key] ? 'met' : ''}>
          <span aria-hidden="true">{checks[key] ? '✓' : '○'}</span> {label}
          <span className="visually-hidden">{checks[key] ? ' (met)' : ' (not met)'}</span>
        </li>
      ))}
    </ul>
  );
}
