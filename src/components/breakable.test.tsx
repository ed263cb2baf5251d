import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { breakable } from './breakable.tsx';

const html = (text: string) => render(<h2>{breakable(text)}</h2>).container.innerHTML;

describe('breakable', () => {
  it('lets a username break after _ and ., and nowhere else', () => {
    expect(html('Block @cassiopeia_wanderer.1?')).toBe(
      '<h2>Block @cassiopeia_<wbr>wanderer.<wbr>1?</h2>',
    );
  });
  it('leaves a text without such a place, or with one at a word’s end, as it is', () => {
    expect(html('Delete image?')).toBe('<h2>Delete image?</h2>');
    expect(html('Done. Next')).toBe('<h2>Done. Next</h2>');
  });
});
