import { vi } from 'vitest';
import type { ModerationReport, ReportMember } from '../contracts/safety.ts';

export const member = (username: string): ReportMember => ({
  id: `id-${username}`,
  username,
  profileImage: `/uploads/avatars/${username}.webp`,
});

/** An open photo report of `imageId`, owned by `owner`, unless `overrides` say otherwise. */
export function report(id: string, overrides: Partial<ModerationReport> = {}): ModerationReport {
  return {
    id,
    kind: 'image',
    reason: 'spam',
    note: '',
    createdAt: '2026-11-26T10:00:00.000Z',
    reporter: member('cora'),
    member: member('bo'),
    image: {
      id: 'img-1',
      url: '/uploads/gallery/img-1.webp',
      thumbnailUrl: '/uploads/gallery/img-1-thumb.webp',
      caption: '',
    },
    status: 'open',
    resolution: null,
    resolvedBy: null,
    resolvedAt: null,
    ...overrides,
  };
}

/** `report` as an action resolved it. */
export function resolved(
  source: ModerationReport,
  resolution: NonNullable<ModerationReport['resolution']>,
): ModerationReport {
  return {
    ...source,
    status: 'resolved',
    resolution,
    resolvedBy: member('mod'),
    resolvedAt: '2026-11-26T11:00:00.000Z',
    image: resolution === 'photo_removed' ? null : source.image,
  };
}

/** The moderation calls as mocks, for `vi.mock` of the feature's api.ts; each test says what they answer. */
export const mockedCalls = () => ({
  page: vi.fn(),
  dismiss: vi.fn(),
  removePhoto: vi.fn(),
  suspend: vi.fn(),
  reopen: vi.fn(),
  suspended: vi.fn(),
  lift: vi.fn(),
});
