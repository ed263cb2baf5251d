import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  NO_SUCH_MEMBER,
  REPORT_DUPLICATE,
  REPORT_NOTE_MAX,
  REPORT_REASON_LABELS,
} from '../../contracts/safety.ts';
import { REPORT_FAILED, REPORT_THANKS, ReportDialog, type ReportTarget } from './ReportDialog.tsx';
import { answering, withDialogMethods } from '../../test/dialog.ts';

beforeEach(withDialogMethods);
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const photo: ReportTarget = { kind: 'image', id: 'img-7' };

function open(target: ReportTarget = photo) {
  const onClose = vi.fn();
  render(<ReportDialog open target={target} onClose={onClose} />);
  return { onClose };
}

const send = () => fireEvent.click(screen.getByRole('button', { name: 'Send report' }));

describe('the report dialog', () => {
  it('is titled for a photo or for the member it names', () => {
    open();
    expect(screen.getByRole('dialog', { name: 'Report photo' })).toBeTruthy();
    cleanup();
    open({ kind: 'member', id: 'u9', username: 'vega' });
    expect(screen.getByRole('dialog', { name: 'Report @vega' })).toBeTruthy();
  });

  it('offers the six reasons as one radio group and a note that stops at the limit', () => {
    open();
    const group = screen.getByRole('radiogroup', { name: 'Why are you reporting this?' });
    const radios = Array.from(group.querySelectorAll('input[type="radio"]'));
    expect(radios.map((radio) => radio.closest('label')?.textContent)).toEqual(
      Object.values(REPORT_REASON_LABELS),
    );
    expect(screen.getByLabelText('Add a note (optional)')).toHaveProperty(
      'maxLength',
      REPORT_NOTE_MAX,
    );
  });

  it('asks for a reason in the server’s words and sends nothing without one', () => {
    const server = answering(201, { ok: true });
    vi.stubGlobal('fetch', vi.fn(server.fetch));
    open();
    send();
    expect(screen.getByRole('alert').textContent).toBe('Pick a reason.');
    expect(document.activeElement).toBe(screen.getByRole('radio', { name: 'Spam' }));
    expect(server.calls).toEqual([]);
  });

  it('sends the photo, the reason and the note, then thanks the member with focus on Close', async () => {
    const server = answering(201, { ok: true });
    vi.stubGlobal('fetch', vi.fn(server.fetch));
    const { onClose } = open();
    fireEvent.click(screen.getByRole('radio', { name: 'Harassment' }));
    fireEvent.change(screen.getByLabelText('Add a note (optional)'), {
      target: { value: 'Mean words under every photo.' },
    });
    send();

    const close = await screen.findByRole('button', { name: 'Close' });
    expect(screen.getByText(REPORT_THANKS)).toBeTruthy();
    // Focus moves in an effect after the thanks are drawn.
    await waitFor(() => expect(document.activeElement).toBe(close));
    expect(screen.queryByRole('button', { name: 'Send report' })).toBeNull();
    expect(server.calls).toEqual([
      {
        url: expect.stringMatching(/\/api\/reports$/) as unknown,
        method: 'POST',
        body: {
          kind: 'image',
          targetId: 'img-7',
          reason: 'harassment',
          note: 'Mean words under every photo.',
        },
      },
    ]);
    fireEvent.click(close);
    expect(onClose).toHaveBeenCalledOnce();
  });

  it.each([
    [409, REPORT_DUPLICATE],
    [429, 'Too many attempts. Try again in 1200 seconds.'],
    [404, NO_SUCH_MEMBER],
  ])('shows the server’s refusal (%i) in the dialog and keeps the form', async (status, words) => {
    vi.stubGlobal('fetch', vi.fn(answering(status, { error: words }).fetch));
    open({ kind: 'member', id: 'u9', username: 'vega' });
    fireEvent.click(screen.getByRole('radio', { name: 'Spam' }));
    send();
    expect((await screen.findByRole('alert')).textContent).toBe(words);
    expect(screen.queryByText(REPORT_THANKS)).toBeNull();
    expect(screen.getByRole('button', { name: 'Send report' })).toHaveProperty('disabled', false);
  });

  it('says the report was not sent when the server cannot be reached', async () => {
    vi.stubGlobal('fetch', vi.fn().mockRejectedValue(new TypeError('Failed to fetch')));
    open();
    fireEvent.click(screen.getByRole('radio', { name: 'Other' }));
    send();
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe(REPORT_FAILED));
  });
});
