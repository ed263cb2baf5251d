import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { REPORT_RESOLVED } from '../../contracts/safety.ts';
import { HttpError } from '../../lib/http.ts';
import { loadErrorMessage } from '../notifications/logic.ts';
import { member, report, resolved } from '../../test/moderation.ts';

const api = await vi.hoisted(async () => (await import('../../test/moderation.ts')).mockedCalls());
vi.mock('./api.ts', () => ({ moderationApi: api }));

const { ACTION_FAILED, useModeration } = await import('./store.ts');

const state = () => useModeration.getState();
const ids = (status: 'open' | 'resolved') => state().lists[status]?.items.map((r) => r.id);

/** A promise to answer by hand, for answers that arrive out of order. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((done) => (resolve = done));
  return { promise, resolve };
}

beforeEach(() => {
  vi.clearAllMocks();
  api.page.mockResolvedValue({ reports: [report('3'), report('2')], nextCursor: 'bzI' });
});
afterEach(() => state().reset());

describe('the moderation store', () => {
  it('loads the first page of open reports as the server orders them', async () => {
    await state().load('open');
    expect(api.page).toHaveBeenCalledWith('open', null);
    expect(ids('open')).toEqual(['3', '2']);
    expect(state().lists.open).toMatchObject({ status: 'ready', nextCursor: 'bzI' });
  });

  it('asks for the next page with nextCursor as it came and adds it after the first', async () => {
    await state().load('open');
    api.page.mockResolvedValueOnce({ reports: [report('1')], nextCursor: null });
    await state().loadMore('open');
    expect(api.page).toHaveBeenLastCalledWith('open', 'bzI');
    expect(ids('open')).toEqual(['3', '2', '1']);
    await state().loadMore('open');
    expect(api.page).toHaveBeenCalledTimes(2);
  });

  it('keeps the latest load when answers come out of order', async () => {
    const first = deferred<unknown>();
    api.page.mockReturnValueOnce(first.promise);
    const older = state().load('open');
    api.page.mockResolvedValueOnce({ reports: [report('9')], nextCursor: null });
    await state().load('open');
    first.resolve({ reports: [report('1')], nextCursor: 'x' });
    await older;
    expect(ids('open')).toEqual(['9']);
    expect(state().lists.open?.nextCursor).toBeNull();
  });

  it('says so when the server answers that the member does not moderate', async () => {
    api.page.mockRejectedValueOnce(new HttpError(403, 'no', 'Only moderators can do that.'));
    await state().load('open');
    expect(state().forbidden).toBe(true);
  });

  it('shows the error of a first page that failed', async () => {
    api.page.mockRejectedValueOnce(new HttpError(500, '500', 'Something broke.'));
    await state().load('resolved');
    expect(state().lists.resolved).toMatchObject({ status: 'error' });
    expect(loadErrorMessage(state().lists.resolved?.error)).toBe('Something broke.');
  });

  it('takes a dismissed report out of the open list and reads the resolved list afresh', async () => {
    await state().load('open');
    await state().load('resolved');
    api.dismiss.mockResolvedValueOnce({ report: resolved(report('3'), 'dismissed') });
    const pending = state().act('dismiss', report('3'));
    expect(state().busy).toEqual({ '3': true });
    expect(await pending).toBe('done');
    expect(api.dismiss).toHaveBeenCalledWith('3');
    expect(ids('open')).toEqual(['2']);
    expect(state().lists.resolved).toBeUndefined();
    expect(state().busy).toEqual({});
    expect(state().notice).toBeNull();
  });

  it('takes every open report of a removed photo out of the list', async () => {
    const other = report('1', {
      image: { id: 'img-2', url: '/u/2', thumbnailUrl: '/u/2t', caption: '' },
    });
    api.page.mockResolvedValueOnce({
      reports: [report('3'), report('2'), other],
      nextCursor: null,
    });
    await state().load('open');
    api.removePhoto.mockResolvedValueOnce({ report: resolved(report('3'), 'photo_removed') });
    await state().act('removePhoto', report('3'));
    expect(ids('open')).toEqual(['1']);
  });

  it('sends the reason of a suspension and takes every report about the member out', async () => {
    api.page.mockResolvedValueOnce({
      reports: [
        report('3', { kind: 'member', image: null }),
        report('2'),
        report('1', { member: member('eve') }),
      ],
      nextCursor: null,
    });
    await state().load('open');
    api.suspend.mockResolvedValueOnce({
      report: resolved(report('3', { kind: 'member', image: null }), 'member_suspended'),
    });
    await state().act('suspend', report('3', { kind: 'member', image: null }), 'Spam, again');
    expect(api.suspend).toHaveBeenCalledWith('3', 'Spam, again');
    expect(ids('open')).toEqual(['1']);
  });

  it("shows the server's refusal and loads the open reports again", async () => {
    await state().load('open');
    api.dismiss.mockRejectedValueOnce(new HttpError(409, '409', REPORT_RESOLVED));
    api.page.mockResolvedValueOnce({ reports: [report('2')], nextCursor: null });
    expect(await state().act('dismiss', report('3'))).toBe('refused');
    expect(state().notice).toBe('This report has already been resolved.');
    await vi.waitFor(() => expect(ids('open')).toEqual(['2']));
    expect(api.page).toHaveBeenCalledTimes(2);
    expect(state().busy).toEqual({});
  });

  it('tells a server that could not be reached from a refusal', async () => {
    await state().load('open');
    api.removePhoto.mockRejectedValueOnce(new HttpError(0, 'Network error'));
    expect(await state().act('removePhoto', report('3'))).toBe('unreachable');
    expect(state().notice).toBe(ACTION_FAILED);
  });

  it('sends one action at a time for a report', async () => {
    const answer = deferred<unknown>();
    api.dismiss.mockReturnValueOnce(answer.promise);
    const first = state().act('dismiss', report('3'));
    expect(await state().act('dismiss', report('3'))).toBe('refused');
    answer.resolve({ report: resolved(report('3'), 'dismissed') });
    expect(await first).toBe('done');
    expect(api.dismiss).toHaveBeenCalledTimes(1);
  });

  it('sends the reason chosen for Remove photo, else the report’s own', async () => {
    await state().load('open');
    api.removePhoto.mockImplementation((id: string) =>
      Promise.resolve({ report: resolved(report(id), 'photo_removed') }),
    );
    await state().act('removePhoto', report('3'), 'violence');
    await state().act('removePhoto', report('2', { reason: 'nudity' }), 'nonsense');
    expect(api.removePhoto.mock.calls).toEqual([
      ['3', 'violence'],
      ['2', 'nudity'],
    ]);
  });

  it('puts a report opened again by Undo back in its place among the open ones', async () => {
    api.page.mockResolvedValueOnce({
      reports: [report('5'), report('3'), report('2')],
      nextCursor: null,
    });
    await state().load('open');
    api.dismiss.mockResolvedValueOnce({ report: resolved(report('3'), 'dismissed') });
    expect(await state().act('dismiss', report('3'))).toBe('done');
    expect(ids('open')).toEqual(['5', '2']);

    api.reopen.mockResolvedValueOnce({ report: report('3') });
    expect(await state().undoDismiss(report('3'))).toBe('done');
    expect(api.reopen).toHaveBeenCalledWith('3');
    expect(ids('open')).toEqual(['5', '3', '2']);
  });

  it('says why Undo failed and reads the open reports again', async () => {
    await state().load('open');
    api.reopen.mockRejectedValueOnce(
      new HttpError(409, 'no', 'Only a dismissed report can be opened again.'),
    );
    expect(await state().undoDismiss(report('7'))).toBe('refused');
    expect(state().notice).toBe('Only a dismissed report can be opened again.');
    await vi.waitFor(() => expect(api.page).toHaveBeenCalledTimes(2));
  });

  it('lists suspended members and drops one whose suspension is lifted', async () => {
    const suspendedMember = (id: string) => ({
      id,
      username: id,
      profileImage: '',
      reason: 'Spam.',
      suspendedAt: '2026-11-26T10:00:00.000Z',
    });
    api.suspended.mockResolvedValueOnce({ members: [suspendedMember('a'), suspendedMember('b')] });
    await state().loadSuspended();
    api.lift.mockResolvedValueOnce({ ok: true });
    expect(await state().lift(suspendedMember('a'))).toBe('done');
    expect(api.lift).toHaveBeenCalledWith('a');
    expect(state().suspended).toEqual({ status: 'ready', members: [suspendedMember('b')] });
  });
});
