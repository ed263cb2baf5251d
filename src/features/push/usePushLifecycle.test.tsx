import { act, cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MemoryRouter, useLocation } from 'react-router-dom';
import { usePushLifecycle } from './usePushLifecycle.ts';

function Where() {
  usePushLifecycle(undefined);
  return <p data-testid="where">{useLocation().pathname}</p>;
}

let container: EventTarget & { startMessages: () => void };

beforeEach(() => {
  container = Object.assign(new EventTarget(), { startMessages: vi.fn() });
  Object.defineProperty(navigator, 'serviceWorker', { configurable: true, value: container });
});
afterEach(() => {
  cleanup();
  Reflect.deleteProperty(navigator, 'serviceWorker');
});

const post = (data: unknown) =>
  act(() => {
    container.dispatchEvent(new MessageEvent('message', { data }));
  });

const renderOnSpacehub = () =>
  render(
    <MemoryRouter initialEntries={['/spacehub']}>
      <Where />
    </MemoryRouter>,
  );

describe('messages from the service worker', () => {
  it('move the page to where a notification click leads', () => {
    renderOnSpacehub();
    post({ type: 'navigate', url: '/profile/alice' });
    expect(screen.getByTestId('where').textContent).toBe('/profile/alice');
  });

  it('ignore other messages and addresses on other sites', () => {
    renderOnSpacehub();
    post({ type: 'navigate', url: '//evil.example/x' });
    post({ type: 'other', url: '/profile/alice' });
    post('navigate');
    expect(screen.getByTestId('where').textContent).toBe('/spacehub');
  });
});
