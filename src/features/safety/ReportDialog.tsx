import { type FormEvent, type RefObject, useEffect, useId, useRef, useState } from 'react';
import { Dialog, DialogActions } from '../../components/Dialog.tsx';
import { TextAreaField } from '../../components/Field.tsx';
import {
  REPORT_NOTE_MAX,
  REPORT_REASON_LABELS,
  REPORT_REASONS,
  ReportBody,
  type ReportKind,
  type ReportReason,
} from '../../contracts/safety.ts';
import { useNeedsNetwork } from '../offline/store.ts';
import { HttpError } from '../../lib/http.ts';
import { safetyApi, safetyErrorText } from './api.ts';
import { noteReported } from './reported.ts';
import './safety.css';

export const REPORT_THANKS = 'Thanks — a moderator will review this.';
export const REPORT_FAILED = 'Could not send the report. Please try again.';

/** What is reported: a photo by its id, or a member by theirs. */
export type ReportTarget =
  { kind: 'image'; id: string } | { kind: 'member'; id: string; username: string };

const reportTitle = (target: ReportTarget) =>
  target.kind === 'image' ? 'Report photo' : `Report @${target.username}`;

/** The report dialog of docs/product.md "Reports", for a photo or a member. */
export function ReportDialog({
  open,
  target,
  onClose,
  returnFocus,
}: {
  open: boolean;
  target: ReportTarget;
  onClose: () => void;
  /** Where focus goes once it closes (the menu that opened it is gone). */
  returnFocus?: RefObject<HTMLElement | null>;
}) {
  return (
    <Dialog open={open} title={reportTitle(target)} onClose={onClose} returnFocus={returnFocus}>
      <ReportForm kind={target.kind} targetId={target.id} onClose={onClose} />
    </Dialog>
  );
}

/**
 * The dialog's body, mounted while it is open, so each opening starts with a fresh form. A refusal
 * stays until the member changes something (docs/forms.md "A failed save is said once").
 */
function ReportForm({
  kind,
  targetId,
  onClose,
}: {
  kind: ReportKind;
  targetId: string;
  onClose: () => void;
}) {
  const [reason, setReason] = useState<ReportReason | null>(null);
  const [note, setNote] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [sent, setSent] = useState(false);
  const needsNetwork = useNeedsNetwork();
  const id = useId();
  const firstReason = useRef<HTMLInputElement>(null);

  const send = async (event: FormEvent) => {
    event.preventDefault();
    // The contract the server checks with says what is missing, in the same words.
    const body = ReportBody.safeParse({ kind, targetId, reason: reason ?? undefined, note });
    if (!body.success) {
      setError(body.error.issues[0]?.message ?? REPORT_FAILED);
      if (!reason) firstReason.current?.focus();
      return;
    }
    setBusy(true);
    setError(null);
    try {
      await safetyApi.sendReport(body.data);
      noteReported(kind, targetId);
      setSent(true);
    } catch (failure) {
      // 409: reported already, from another tab or device.
      if (failure instanceof HttpError && failure.status === 409) noteReported(kind, targetId);
      setError(safetyErrorText(failure, REPORT_FAILED));
    } finally {
      setBusy(false);
    }
  };

  if (sent) return <ReportSent onClose={onClose} />;
  const errorId = `${id}-error`;
  return (
    <form className="report-form" onSubmit={(event) => void send(event)} noValidate>
      <fieldset
        className="report-reasons"
        role="radiogroup"
        aria-labelledby={`${id}-legend`}
        aria-describedby={error ? errorId : undefined}
      >
        <legend id={`${id}-legend`}>Why are you reporting this?</legend>
        {REPORT_REASONS.map((value, index) => (
          <label key={value} className="checkbox report-reason">
            <input
              ref={index === 0 ? firstReason : undefined}
              type="radio"
              name={`${id}-reason`}
              value={value}
              checked={reason === value}
              onChange={() => {
                setReason(value);
                setError(null);
              }}
            />
            {REPORT_REASON_LABELS[value]}
          </label>
        ))}
      </fieldset>
      <TextAreaField
        label="Add a note (optional)"
        value={note}
        maxLength={REPORT_NOTE_MAX}
        onChange={(event) => {
          setNote(event.target.value);
          setError(null);
        }}
      />
      <DialogActions
        error={error}
        errorId={errorId}
        onCancel={onClose}
        confirm={{ label: 'Send report', type: 'submit', busy, ...needsNetwork(busy) }}
      />
    </form>
  );
}

/** Once sent: the thanks, and Close, which takes focus (the form's button is gone). */
function ReportSent({ onClose }: { onClose: () => void }) {
  const id = useId();
  const close = useRef<HTMLButtonElement>(null);
  useEffect(() => close.current?.focus(), []);
  return (
    <>
      <p id={id} role="status">
        {REPORT_THANKS}
      </p>
      <DialogActions
        confirm={{ label: 'Close', ref: close, 'aria-describedby': id, onClick: onClose }}
      />
    </>
  );
}
