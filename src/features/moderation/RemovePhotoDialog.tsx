import { type FormEvent, useId, useState } from 'react';
import { Dialog, DialogActions } from '../../components/Dialog.tsx';
import {
  type ModerationReport,
  REPORT_REASONS,
  REPORT_REASON_LABELS,
  type ReportReason,
} from '../../contracts/safety.ts';
import { memberName } from './logic.ts';
import { type ReportDialogProps, useReportAction } from './SuspendDialog.tsx';

/**
 * `Remove this photo?` with the reason its owner is told, the report's own chosen at first
 * (docs/product.md "Moderation").
 */
export function RemovePhotoDialog({ report, onClose, onActed, returnFocus }: ReportDialogProps) {
  return (
    <Dialog
      open={report !== null}
      title="Remove this photo?"
      onClose={onClose}
      returnFocus={returnFocus}
    >
      {report && (
        <RemovePhotoForm key={report.id} report={report} onClose={onClose} onActed={onActed} />
      )}
    </Dialog>
  );
}

function RemovePhotoForm({
  report,
  onClose,
  onActed,
}: Omit<ReportDialogProps, 'report' | 'returnFocus'> & { report: ModerationReport }) {
  const id = useId();
  const [reason, setReason] = useState<ReportReason>(report.reason);
  const { error, busy, needsNetwork, send } = useReportAction(report, { onClose, onActed });

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    await send('removePhoto', reason);
  };

  return (
    <form id={id} noValidate onSubmit={(event) => void submit(event)}>
      <p>
        It is deleted for good. {memberName(report.member)} is told which photo was removed, why,
        and where to read the rules.
      </p>
      <fieldset className="report-reasons" role="radiogroup" aria-labelledby={`${id}-legend`}>
        <legend id={`${id}-legend`}>Reason given to the owner</legend>
        {REPORT_REASONS.map((value) => (
          <label key={value} className="checkbox report-reason">
            <input
              type="radio"
              name={`${id}-reason`}
              value={value}
              checked={reason === value}
              onChange={() => setReason(value)}
            />
            {REPORT_REASON_LABELS[value]}
          </label>
        ))}
      </fieldset>
      <DialogActions
        error={error}
        onCancel={onClose}
        confirm={{
          label: 'Remove photo',
          danger: true,
          type: 'submit',
          busy,
          ...needsNetwork(busy),
        }}
      />
    </form>
  );
}
