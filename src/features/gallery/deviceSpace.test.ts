import { describe, expect, it } from 'vitest';
import { FORM_OVERHEAD_BYTES, fitOnDevice, formatBytes, marginOf } from './deviceSpace.ts';

const MB = 1024 * 1024;

describe('room on the device for uploads kept offline', () => {
  it('keeps 16 MB free, or a twentieth of a large quota', () => {
    expect(marginOf(100 * MB)).toBe(16 * MB);
    expect(marginOf(1000 * MB)).toBe(50 * MB);
  });

  it('takes files in the order picked while they fit past the margin', () => {
    const estimate = { quota: 100 * MB, usage: 80 * MB };
    // 4 MB free past the margin: 3 MB fits, the next 3 MB not, a small one after it does.
    expect(fitOnDevice([3 * MB, 3 * MB, 500_000], estimate)).toEqual([true, false, true]);
  });

  it('counts what is on its way to being kept and each file’s form', () => {
    const estimate = { quota: 100 * MB, usage: 80 * MB };
    expect(fitOnDevice([4 * MB - FORM_OVERHEAD_BYTES], estimate)).toEqual([true]);
    expect(fitOnDevice([4 * MB - FORM_OVERHEAD_BYTES + 1], estimate)).toEqual([false]);
    expect(fitOnDevice([1 * MB], estimate, 3.5 * MB)).toEqual([false]);
  });

  it('refuses everything on a full device', () => {
    expect(fitOnDevice([1], { quota: 10 * MB, usage: 10 * MB })).toEqual([false]);
  });

  it('reads sizes as a member does', () => {
    expect(formatBytes(3_200_000)).toBe('3.2 MB');
    expect(formatBytes(820_000)).toBe('820 kB');
    expect(formatBytes(12)).toBe('1 kB');
  });
});
