import { describe, expect, it } from 'vitest';
import { SETTINGS_INTERESTS, SIGNUP_INTERESTS, choicesWithHeld } from './interests.ts';

describe('the interests settings offers', () => {
  it('are its own 25 when the member holds nothing outside them', () =>
    expect(choicesWithHeld(SETTINGS_INTERESTS, ['Tech', 'Cosplay'])).toEqual(SETTINGS_INTERESTS));

  it('add a signup-only Pets the member holds, after the list', () => {
    const choices = choicesWithHeld(SETTINGS_INTERESTS, ['Tech', 'Pets']);
    expect(SIGNUP_INTERESTS).toContain('Pets');
    expect(choices).toHaveLength(SETTINGS_INTERESTS.length + 1);
    expect(choices.at(-1)).toBe('Pets');
  });

  it('keep every held interest outside the list, in the order held', () =>
    expect(choicesWithHeld(['Tech'], ['Pets', 'Tech', 'Astronomy'])).toEqual([
      'Tech',
      'Pets',
      'Astronomy',
    ]));
});
