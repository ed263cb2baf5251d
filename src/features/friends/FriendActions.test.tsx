import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { FriendStatus } from '../../contracts/friends.ts';
import { useNetwork } from '../offline/store.ts';
import type { FriendAction } from './api.ts';
import { FriendActions } from './FriendActions.tsx';
import { PROFILE_TOASTS, SEARCH_FAILURES } from './messages.ts';

afterEach(() => {
  cleanup();
  useNetwork.setState({ online: true });
});

const labels = () => screen.queryAllByRole('button').map((button) => button.textContent);

describe('the friend actions', () => {
  it.each<[FriendStatus | 'loading', (string | null)[]]>([
    ['none', ['Add']],
    ['incoming', ['Accept', 'Decline']],
    ['pending', ['Cancel']],
    ['friends', ['Unfriend']],
    ['self', []],
    ['loading', []],
  ])('offer for %s what docs/product.md "Profile" lists', (status, expected) => {
    render(<FriendActions status={status} onAct={vi.fn()} onUnfriend={vi.fn()} />);
    expect(labels()).toEqual(expected);
  });

  it('call back with the action of the button pressed', () => {
    const acted: FriendAction[] = [];
    render(<FriendActions status="incoming" onAct={(action) => acted.push(action)} />);
    fireEvent.click(screen.getByRole('button', { name: 'Decline' }));
    fireEvent.click(screen.getByRole('button', { name: 'Accept' }));
    expect(acted).toEqual(['decline', 'accept']);
  });

  it('read as the search row wants them: Add Friend, Canceling…, a Friends badge', () => {
    const { rerender } = render(
      <FriendActions status="none" onAct={vi.fn()} small addLabel="Add Friend" />,
    );
    expect(screen.getByRole('button', { name: 'Add Friend' }).className).toBe(
      'button small primary',
    );
    // While the cancel runs the status already reads none: the button still says Canceling….
    rerender(<FriendActions status="none" onAct={vi.fn()} small canceling busy />);
    expect(labels()).toEqual(['Canceling…']);
    expect(screen.getByRole('button', { name: 'Canceling…' })).toHaveProperty('disabled', true);
    rerender(<FriendActions status="friends" onAct={vi.fn()} small />);
    expect(labels()).toEqual([]);
    expect(screen.getByText('Friends').className).toBe('badge');
  });

  it('ask the profile to confirm before unfriending instead of acting', () => {
    const onAct = vi.fn();
    const onUnfriend = vi.fn();
    render(<FriendActions status="friends" onAct={onAct} onUnfriend={onUnfriend} />);
    fireEvent.click(screen.getByRole('button', { name: 'Unfriend' }));
    expect(onUnfriend).toHaveBeenCalledTimes(1);
    expect(onAct).not.toHaveBeenCalled();
  });

  it('wait while a call runs, and are disabled offline', () => {
    const { rerender } = render(<FriendActions status="incoming" onAct={vi.fn()} busy />);
    expect(screen.getAllByRole('button').map((button) => button.hasAttribute('disabled'))).toEqual([
      true,
      true,
    ]);
    useNetwork.setState({ online: false });
    rerender(<FriendActions status="none" onAct={vi.fn()} />);
    expect(screen.getByRole('button', { name: 'Add' }).hasAttribute('disabled')).toBe(true);
  });
});

describe('the friend texts', () => {
  it('are those of docs/product.md "Profile" and "Errors"', () => {
    expect(Object.values(PROFILE_TOASTS).flatMap(({ ok, failed }) => [ok, failed])).toEqual([
      'Friend request sent',
      'Could not send request.',
      null,
      'Could not cancel.',
      'You are now friends',
      'Could not accept.',
      null,
      'Could not decline.',
      'Removed from friends',
      'Could not unfriend.',
    ]);
    expect(SEARCH_FAILURES.request).toBe('Couldn’t send request.');
    expect(SEARCH_FAILURES.cancel).toBe('Couldn’t cancel request.');
    expect(SEARCH_FAILURES.accept ?? SEARCH_FAILURES.decline).toBeUndefined();
  });
});
