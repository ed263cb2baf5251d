import { describe, expect, it } from 'vitest';
import type { UsernameAvailability } from '../auth/useUsernameAvailability.ts';
import { AVAILABILITY_TEXT } from './usernameCheck.ts';

describe('the settings username availability', () => {
  it.each<[UsernameAvailability, string]>([
    ['current', 'Current username'],
    ['checking', 'Checking…'],
    ['available', 'Available ✓'],
    ['taken', 'Taken ✕'],
  ])('reads %s in the words of docs/product.md', (availability, text) =>
    expect(AVAILABILITY_TEXT[availability]).toBe(text),
  );

  it('says nothing while idle or when the check failed', () => {
    expect(AVAILABILITY_TEXT.idle).toBe('');
    expect(AVAILABILITY_TEXT.unknown).toBe('');
  });
});
