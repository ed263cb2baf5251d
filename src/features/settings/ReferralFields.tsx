import { useId, useRef } from 'react';
import { TEXT_LIMITS } from '../../contracts/validation.ts';
import { FieldList } from '../auth/FieldList.tsx';
import { bindText } from './bindText.ts';
import type { FieldErrors, ReferralValues } from './settingsState.ts';

const COPY_MESSAGES = {
  copied: 'Referral code copied!',
  failed: 'Could not copy. Select the code and copy it.',
} as const;

/** The member's own code to share, with Copy; usable without editing. */
export function ReferralCode({
  code,
  onCopied,
}: {
  code: string;
  onCopied: (message: string) => void;
}) {
  const id = useId();
  const field = useRef<HTMLInputElement>(null);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(code);
      onCopied(COPY_MESSAGES.copied);
    } catch {
      // No clipboard (permission, insecure origin): leave the code selected for the member.
      field.current?.select();
      onCopied(COPY_MESSAGES.failed);
    }
  };
  return (
    <div className="field settings-code">
      <label htmlFor={id}>Your referral code</label>
      <div className="field-control">
        <input ref={field} id={id} value={code} readOnly placeholder="None yet" />
        <button type="button" className="button" onClick={() => void copy()} disabled={!code}>
          Copy code
        </button>
      </div>
    </div>
  );
}

interface ReferralFieldsProps {
  values: ReferralValues;
  errors: FieldErrors;
  onChange: (patch: Partial<ReferralValues>) => void;
}

/** Step 4: who referred the member. */
export function ReferralFields({ values, errors, onChange }: ReferralFieldsProps) {
  return (
    <FieldList
      fields={[
        {
          name: 'referral',
          label: 'Referred by',
          maxLength: TEXT_LIMITS.referral.max,
          hint: 'The referral code of the member who invited you.',
        },
      ]}
      bind={bindText(values, onChange)}
      errors={errors}
    />
  );
}
