import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { CHAR_COUNT_ANNOUNCE_MS } from '../../components/useCharCount.tsx';
import { CAPTION_MAX } from '../../contracts/gallery.ts';
import { CaptionEditor } from './CaptionEditor.tsx';

afterEach(cleanup);

const editing = (caption: string) =>
  render(
    <CaptionEditor
      caption={caption}
      mode="editing"
      onModeChange={vi.fn()}
      onSave={vi.fn<(caption: string) => Promise<void>>().mockResolvedValue()}
    />,
  );

describe('the caption editor', () => {
  it('stops at the server’s limit', () => {
    editing('');
    expect(screen.getByLabelText('Caption')).toHaveProperty('maxLength', CAPTION_MAX);
  });

  it('counts nothing while the caption is far from the limit', () => {
    editing('A comet over the ridge');
    expect(screen.queryByTestId('char-count')).toBeNull();
    expect(screen.getByLabelText('Caption').getAttribute('aria-describedby')).toBeNull();
  });

  it('counts the characters left from 80 % of the limit, tied to the field', () => {
    editing('c'.repeat(399));
    const field = screen.getByLabelText('Caption');
    fireEvent.change(field, { target: { value: 'c'.repeat(400) } });
    const count = screen.getByTestId('char-count');
    expect(count.textContent).toBe('100 characters left');
    expect(field.getAttribute('aria-describedby')).toBe(count.id);
  });

  it('tells screen readers the count once typing pauses, not on every keystroke', async () => {
    vi.useFakeTimers();
    try {
      editing('c'.repeat(450));
      const live = document.querySelector('[aria-live="polite"]');
      // The count it opened with is read with the field, not announced on its own.
      await act(() => vi.advanceTimersByTimeAsync(CHAR_COUNT_ANNOUNCE_MS * 2));
      expect(live?.textContent).toBe('');
      const field = screen.getByLabelText('Caption');
      fireEvent.change(field, { target: { value: 'c'.repeat(450) + 'x' } });
      await act(() => vi.advanceTimersByTimeAsync(CHAR_COUNT_ANNOUNCE_MS));
      expect(live?.textContent).toBe('49 characters left');
      fireEvent.change(field, { target: { value: 'c'.repeat(450) } });
      fireEvent.change(field, { target: { value: 'c'.repeat(451) } });
      fireEvent.change(field, { target: { value: 'c'.repeat(452) } });
      await act(() => vi.advanceTimersByTimeAsync(CHAR_COUNT_ANNOUNCE_MS - 1));
      expect(live?.textContent).toBe('49 characters left');
      await act(() => vi.advanceTimersByTimeAsync(1));
      expect(live?.textContent).toBe('48 characters left');
    } finally {
      vi.useRealTimers();
    }
  });
});
