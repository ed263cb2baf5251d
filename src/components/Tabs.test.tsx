import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useState } from 'react';
import { afterEach, describe, expect, it } from 'vitest';
import { Tabs, tabId } from './Tabs.tsx';

function Lists({ panelId }: { panelId?: string }) {
  const [tab, setTab] = useState<'open' | 'resolved' | 'all'>('open');
  return (
    <>
      <Tabs
        label="Lists"
        tabs={{ open: 'Open', resolved: 'Resolved', all: 'All' }}
        selected={tab}
        onSelect={setTab}
        {...(panelId ? { panelId } : {})}
      />
      <p>{tab}</p>
    </>
  );
}

afterEach(cleanup);

const tab = (name: string) => screen.getByRole('tab', { name });

describe('tabs', () => {
  it('are a named tablist with one tab selected and only that one in the Tab order', () => {
    render(<Lists />);
    expect(screen.getByRole('tablist', { name: 'Lists' })).toBeTruthy();
    expect(tab('Open').getAttribute('aria-selected')).toBe('true');
    expect(tab('Open').tabIndex).toBe(0);
    expect(tab('Resolved').getAttribute('aria-selected')).toBe('false');
    expect(tab('Resolved').tabIndex).toBe(-1);
  });

  it('select the tab clicked', () => {
    render(<Lists />);
    fireEvent.click(tab('Resolved'));
    expect(tab('Resolved').getAttribute('aria-selected')).toBe('true');
    expect(tab('Resolved').tabIndex).toBe(0);
    expect(screen.getByText('resolved')).toBeTruthy();
  });

  it('move and select with the arrow keys, wrapping at either end, and focus the new tab', () => {
    render(<Lists />);
    tab('Open').focus();
    fireEvent.keyDown(tab('Open'), { key: 'ArrowRight' });
    expect(tab('Resolved').getAttribute('aria-selected')).toBe('true');
    expect(document.activeElement).toBe(tab('Resolved'));
    fireEvent.keyDown(tab('Resolved'), { key: 'ArrowLeft' });
    fireEvent.keyDown(tab('Open'), { key: 'ArrowLeft' });
    expect(tab('All').getAttribute('aria-selected')).toBe('true');
    expect(document.activeElement).toBe(tab('All'));
    fireEvent.keyDown(tab('All'), { key: 'ArrowRight' });
    expect(document.activeElement).toBe(tab('Open'));
  });

  it('go to the first and last tab with Home and End', () => {
    render(<Lists />);
    fireEvent.keyDown(tab('Open'), { key: 'End' });
    expect(document.activeElement).toBe(tab('All'));
    fireEvent.keyDown(tab('All'), { key: 'Home' });
    expect(document.activeElement).toBe(tab('Open'));
    expect(tab('Open').getAttribute('aria-selected')).toBe('true');
  });

  it('leave other keys alone', () => {
    render(<Lists />);
    fireEvent.keyDown(tab('Open'), { key: 'ArrowDown' });
    expect(tab('Open').getAttribute('aria-selected')).toBe('true');
  });

  it('name the panel they control, which the selected tab labels', () => {
    render(<Lists panelId="reports" />);
    expect(tab('Open').getAttribute('aria-controls')).toBe('reports');
    expect(tab('Open').id).toBe(tabId('reports', 'open'));
  });
});
