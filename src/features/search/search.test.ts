import { describe, expect, it } from 'vitest';
import { moveHighlight } from './HeaderSearch.tsx';
import { rowStatus } from './useMemberSearch.ts';

describe('search keyboard', () => {
  it('moves down from nothing to the first row', () => expect(moveHighlight(-1, 3, 1)).toBe(0));
  it('moves up from nothing to the last row', () => expect(moveHighlight(-1, 3, -1)).toBe(2));
  it('wraps from the last row to the first', () => expect(moveHighlight(2, 3, 1)).toBe(0));
  it('wraps from the first row to the last', () => expect(moveHighlight(0, 3, -1)).toBe(2));
  it('highlights nothing without rows', () => expect(moveHighlight(0, 0, 1)).toBe(-1));
});

describe('search row status', () => {
  const row = { id: 'u2', username: 'orion', fullName: '', profileImage: '' };
  const flags = { isFriend: false, requestPending: false, incomingPending: false };
  it('is self for the member themself', () =>
    expect(rowStatus({ ...row, ...flags }, 'u2')).toBe('self'));
  it('reads each flag', () => {
    expect(rowStatus({ ...row, ...flags, isFriend: true }, 'me')).toBe('friends');
    expect(rowStatus({ ...row, ...flags, requestPending: true }, 'me')).toBe('pending');
    expect(rowStatus({ ...row, ...flags, incomingPending: true }, 'me')).toBe('incoming');
    expect(rowStatus({ ...row, ...flags }, 'me')).toBe('none');
  });
});
