import { type FormEvent, type RefObject, useId, useState } from 'react';
import { Dialog, DialogActions } from '../../components/Dialog.tsx';
import { TextAreaField } from '../../components/Field.tsx';
import {
  type ModerationReport,
  SUSPENSION_REASON_MAX,
  SuspendBody,
} from '../../contracts/safety.ts';
import { useNeedsNetwork } from '../offline/store.ts';
import { type ActionOutcome, useModeration } from './store.ts';

/** A dialog that acts on a report: the moderators' `Suspend member` and `Remove photo`. */
export interface ReportDialogProps {
  /** The report to act on; the dialog is open while there is one. */
  report: ModerationReport | null;
  onClose: () => void;
  onActed: (outcome: ActionOutcome) => void;
  returnFocus: RefObject<HTMLElement | null>;
}

/**
 * Sends a report's action from its dialog: unreached, the dialog stays with the notice, to be sent
 * again; otherwise it closes and the page says what happened.
 */
export function useReportAction(
  report: ModerationReport,
  { onClose, onActed }: Pick<ReportDialogProps, 'onClose' | 'onActed'>,
) {
  const [error, setError] = useState<string | null>(null);
  const busy = useModeration((state) => Boolean(state.busy[report.id]));
  const act = useModeration((state) => state.act);
  const needsNetwork = useNeedsNetwork();
  const send = async (action: Parameters<typeof act>[0], reason: string) => {
    setError(null);
    const outcome = await act(action, report, reason);
    if (outcome === 'unreachable') setError(useModeration.getState().notice);
    else onClose();
    onActed(outcome);
  };
  return { error, setError, busy, needsNetwork, send };
}

/** `Suspend @{username}?` with the reason the member will read (docs/product.md "Moderation"). */
export function SuspendDialog({ report, onClose, onActed, returnFocus }: ReportDialogProps) {
  return (
    <Dialog
      open={report !== null}
      title={`Suspend @${report?.member?.username ?? ''}?`}
      onClose={onClose}
      returnFocus={returnFocus}
    >
      {/* Keyed by the report, so each opening starts with an empty reason. */}
      {report && (
        <SuspendForm key={report.id} report={report} onClose={onClose} onActed={onActed} />
      )}
    </Dialog>
  );
}

function SuspendForm({
  report,
  onClose,
  onActed,
}: Omit<ReportDialogProps, 'report' | 'returnFocus'> & { report: ModerationReport }) {
  const formId = useId();
  const [reason, setReason] = useState('');
  const { error, setError, busy, needsNetwork, send } = useReportAction(report, {
    onClose,
    onActed,
  });

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const checked = SuspendBody.safeParse({ reason });
    if (!checked.success) {
      setError(checked.error.issues[0]?.message ?? null);
      return;
    }
    await send('suspend', checked.data.reason);
  };

  return (
    <>
      <form id={formId} noValidate onSubmit={(event) => void submit(event)}>
        <TextAreaField
          label="Reason shown to the member"
          value={reason}
          maxLength={SUSPENSION_REASON_MAX}
          required
          error={error}
          liveError
          onChange={(event) => setReason(event.target.value)}
        />
      </form>
      <DialogActions
        onCancel={onClose}
        confirm={{
          label: 'Suspend',
          danger: true,
          type: 'submit',
          form: formId,
          ...needsNetwork(busy),
        }}
      />
    </>
  );
}
