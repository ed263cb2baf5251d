import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MEMBER_GONE, SUSPEND_MODERATOR } from '../../contracts/safety.ts';
import { HttpError } from '../../lib/http.ts';
import { useSession } from '../auth/store.ts';
import { normaliseUser } from '../../contracts/readers/user.ts';
import { member, report, resolved } from '../../test/moderation.ts';
import { withDialogMethods } from '../../test/dialog.ts';

const api = await vi.hoisted(async () => (await import('../../test/moderation.ts')).mockedCalls());
vi.mock('./api.ts', () => ({ moderationApi: api }));

const { ModerationPage } = await import('./ModerationPage.tsx');

const photoReport = report('3', { note: 'Posted all over.' });
const memberReport = report('2', {
  kind: 'member',
  image: null,
  reason: 'impersonation',
  member: member('eve'),
  reporter: null,
});
const goneMember = report('1', { kind: 'member', image: null, member: null });

function signIn(isModerator: boolean) {
  useSession.setState({
    status: 'signedIn',
    user: normaliseUser({ user: { id: 'id-mod', username: 'mod', isModerator } }),
  });
}

function renderPage() {
  render(
    <MemoryRouter>
      <ModerationPage />
    </MemoryRouter>,
  );
}

const card = (text: string) => {
  const item = screen.getByText(text).closest('li');
  if (!item) throw new Error(`no report holds ${text}`);
  return within(item);
};

beforeEach(() => {
  vi.clearAllMocks();
  api.page.mockImplementation((status: string) =>
    Promise.resolve(
      status === 'open'
        ? { reports: [photoReport, memberReport, goneMember], nextCursor: null }
        : { reports: [resolved(report('7'), 'photo_removed')], nextCursor: null },
    ),
  );
  withDialogMethods();
});
afterEach(() => {
  cleanup();
  useSession.setState({ status: 'loading', user: null });
});

describe('the moderation page', () => {
  it('tells a member who does not moderate that only moderators can see reports', () => {
    signIn(false);
    renderPage();
    expect(screen.getByRole('heading', { name: 'Reports' })).toBeTruthy();
    expect(screen.getByText('Only moderators can see reports.')).toBeTruthy();
    expect(api.page).not.toHaveBeenCalled();
  });

  it('tells a moderator the server no longer counts as one the same', async () => {
    signIn(true);
    api.page.mockRejectedValueOnce(new HttpError(403, '403', 'Only moderators can do that.'));
    renderPage();
    expect(await screen.findByText('Only moderators can see reports.')).toBeTruthy();
  });

  it('lists open reports with the item, reporter, reason, note and actions', async () => {
    signIn(true);
    renderPage();
    expect(screen.getByRole('tab', { name: 'Open' }).getAttribute('aria-selected')).toBe('true');
    const list = await screen.findByRole('list', { name: 'Open reports' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(3);

    const photo = card('Posted all over.');
    expect(photo.getByText('Photo by').textContent).toBe('Photo by @bo');
    expect(photo.getByRole('img', { name: 'Reported photo' }).getAttribute('src')).toMatch(
      /\/uploads\/gallery\/img-1-thumb\.webp$/,
    );
    expect(photo.getByText('Reported by').textContent).toBe('Reported by @cora');
    expect(photo.getByText('Spam')).toBeTruthy();
    expect(photo.getByRole('button', { name: 'Dismiss' })).toBeTruthy();
    expect(photo.getByRole('button', { name: 'Remove photo' })).toBeTruthy();
    expect(photo.getByRole('button', { name: 'Suspend member' })).toBeTruthy();

    const person = card('Impersonation');
    expect(person.getByRole('link', { name: '@eve' }).getAttribute('href')).toBe('/profile/eve');
    expect(person.getByText('Reported by deleted member')).toBeTruthy();
    expect(person.queryByRole('button', { name: 'Remove photo' })).toBeNull();

    const gone = within(within(list).getAllByRole('listitem')[2] as HTMLElement);
    expect(gone.getByText('deleted member')).toBeTruthy();
    expect(gone.queryByRole('button', { name: 'Suspend member' })).toBeNull();
    expect(gone.getByRole('button', { name: 'Dismiss' })).toBeTruthy();
  });

  it('offers no Remove photo once the photo is gone', async () => {
    signIn(true);
    api.page.mockResolvedValueOnce({ reports: [report('4', { image: null })], nextCursor: null });
    renderPage();
    await screen.findByRole('list', { name: 'Open reports' });
    expect(screen.queryByRole('button', { name: 'Remove photo' })).toBeNull();
  });

  it('says when there is nothing to show in either tab', async () => {
    signIn(true);
    api.page.mockResolvedValue({ reports: [], nextCursor: null });
    renderPage();
    expect(await screen.findByText('No open reports.')).toBeTruthy();
    fireEvent.click(screen.getByRole('tab', { name: 'Resolved' }));
    expect(await screen.findByText('No resolved reports.')).toBeTruthy();
  });

  it('shows resolved reports with what was done, by whom and when', async () => {
    signIn(true);
    renderPage();
    fireEvent.click(screen.getByRole('tab', { name: 'Resolved' }));
    const list = await screen.findByRole('list', { name: 'Resolved reports' });
    const line = within(list).getByText(/^Photo removed by/);
    expect(line.textContent).toMatch(/^Photo removed by @mod · /);
    expect(line.querySelector('time')?.getAttribute('datetime')).toBe('2026-11-26T11:00:00.000Z');
    expect(within(list).queryByRole('button')).toBeNull();
  });

  it('asks for the next page with Load more', async () => {
    signIn(true);
    api.page.mockResolvedValueOnce({ reports: [photoReport], nextCursor: 'bzM' });
    api.page.mockResolvedValueOnce({ reports: [memberReport], nextCursor: null });
    renderPage();
    fireEvent.click(await screen.findByRole('button', { name: 'Load more' }));
    await screen.findByText('Impersonation');
    expect(api.page).toHaveBeenLastCalledWith('open', 'bzM');
    expect(screen.queryByRole('button', { name: 'Load more' })).toBeNull();
  });

  it.each([MEMBER_GONE, SUSPEND_MODERATOR])(
    "shows the server's refusal of an action (%s) above the reports it keeps",
    async (refusal) => {
      signIn(true);
      api.suspend.mockRejectedValueOnce(new HttpError(409, '409', refusal));
      renderPage();
      await screen.findByRole('list', { name: 'Open reports' });
      fireEvent.click(card('Impersonation').getByRole('button', { name: 'Suspend member' }));
      const dialog = screen.getByRole('dialog', { name: 'Suspend @eve?' });
      fireEvent.change(within(dialog).getByLabelText('Reason shown to the member'), {
        target: { value: 'Pretends to be someone.' },
      });
      fireEvent.click(within(dialog).getByRole('button', { name: 'Suspend' }));
      expect((await screen.findByRole('alert')).textContent).toBe(refusal);
      expect(screen.queryByRole('dialog')).toBeNull();
      expect(screen.queryByText('Only moderators can see reports.')).toBeNull();
      expect(await screen.findByText('Impersonation')).toBeTruthy();
    },
  );

  describe('the suspension dialog', () => {
    async function openDialog() {
      signIn(true);
      renderPage();
      await screen.findByRole('list', { name: 'Open reports' });
      fireEvent.click(card('Posted all over.').getByRole('button', { name: 'Suspend member' }));
      return within(screen.getByRole('dialog', { name: 'Suspend @bo?' }));
    }

    it('asks for a reason of at most 500 characters', async () => {
      const dialog = await openDialog();
      const reason = dialog.getByLabelText('Reason shown to the member');
      expect(reason.getAttribute('maxlength')).toBe('500');
      expect(reason.hasAttribute('required')).toBe(true);
      fireEvent.change(reason, { target: { value: 'x'.repeat(450) } });
      expect(dialog.getByTestId('char-count').textContent).toBe('50 characters left');
    });

    it('sends nothing without a reason', async () => {
      const dialog = await openDialog();
      fireEvent.change(dialog.getByLabelText('Reason shown to the member'), {
        target: { value: '   ' },
      });
      fireEvent.click(dialog.getByRole('button', { name: 'Suspend' }));
      expect(await dialog.findByText('Give a reason the member will see.')).toBeTruthy();
      expect(api.suspend).not.toHaveBeenCalled();
    });

    it('closes on Cancel', async () => {
      const dialog = await openDialog();
      fireEvent.click(dialog.getByRole('button', { name: 'Cancel' }));
      expect(screen.queryByRole('dialog')).toBeNull();
      expect(api.suspend).not.toHaveBeenCalled();
    });

    it('suspends with the reason, closes and takes the report out of the list', async () => {
      api.suspend.mockResolvedValueOnce({ report: resolved(photoReport, 'member_suspended') });
      const dialog = await openDialog();
      fireEvent.change(dialog.getByLabelText('Reason shown to the member'), {
        target: { value: ' Spam everywhere. ' },
      });
      fireEvent.click(dialog.getByRole('button', { name: 'Suspend' }));
      await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
      expect(api.suspend).toHaveBeenCalledWith('3', 'Spam everywhere.');
      expect(screen.queryByText('Posted all over.')).toBeNull();
      expect(document.activeElement?.id).toBe('reports-panel');
    });

    it('keeps the reason when the server could not be reached', async () => {
      api.suspend.mockRejectedValueOnce(new HttpError(0, 'Network error'));
      const dialog = await openDialog();
      const reason = dialog.getByLabelText('Reason shown to the member');
      fireEvent.change(reason, { target: { value: 'Spam.' } });
      fireEvent.click(dialog.getByRole('button', { name: 'Suspend' }));
      expect(await dialog.findByText('Something went wrong. Try again.')).toBeTruthy();
      expect((reason as HTMLTextAreaElement).value).toBe('Spam.');
    });
  });
});
