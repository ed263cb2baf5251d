import { describe, expect, it } from 'vitest';
import { memberName, resolvedTogether, withPage } from './logic.ts';
import { member, report, resolved } from '../../test/moderation.ts';

describe('memberName', () => {
  it('names a member by @username', () => expect(memberName(member('bo'))).toBe('@bo'));
  it('names a member whose account is gone `deleted member`', () =>
    expect(memberName(null)).toBe('deleted member'));
});

describe('withPage', () => {
  it('adds a later page after what is loaded, leaving out reports already there', () =>
    expect(
      withPage([report('3'), report('2')], [report('2'), report('1')]).map((r) => r.id),
    ).toEqual(['3', '2', '1']));
});

describe('resolvedTogether', () => {
  const acted = report('5');
  const samePhoto = report('4', { reporter: member('dan') });
  const otherPhoto = report('3', {
    image: { id: 'img-2', url: '/uploads/2', thumbnailUrl: '/uploads/2t', caption: '' },
  });
  const aboutOwner = report('2', { kind: 'member', image: null });
  const aboutOther = report('1', { kind: 'member', image: null, member: member('eve') });

  const together = (resolution: Parameters<typeof resolved>[1]) =>
    [acted, samePhoto, otherPhoto, aboutOwner, aboutOther]
      .filter((other) => resolvedTogether(resolved(acted, resolution), acted, other))
      .map((other) => other.id);

  it('a dismissal resolves the one report', () => expect(together('dismissed')).toEqual(['5']));
  it('removing a photo resolves every open report of that photo', () =>
    expect(together('photo_removed')).toEqual(['5', '4']));
  it("suspending a member resolves every open report about them, their photos' included", () =>
    expect(together('member_suspended')).toEqual(['5', '4', '3', '2']));
});
