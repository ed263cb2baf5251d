import { describe, expect, it } from 'vitest';
import { visibleMenuItems } from './menuItems.ts';

const labels = (username: string, path: string, moderator = false) =>
  visibleMenuItems(username, path, moderator).map((item) => item.label);

describe('the menu', () => {
  it('lists every page but the current one', () =>
    expect(labels('nova', '/settings')).toEqual([
      'SpaceHub',
      'Profile',
      'Store',
      'Events',
      'Blog',
      'Podcast',
      'CreatorsHub',
    ]));
  it('counts / as SpaceHub', () => expect(labels('nova', '/')).not.toContain('SpaceHub'));
  it('counts /creators as CreatorsHub', () =>
    expect(labels('nova', '/creators')).not.toContain('CreatorsHub'));
  it("leaves out Profile on the member's own profile", () =>
    expect(labels('nova', '/profile/nova')).not.toContain('Profile'));
  it("keeps Profile on someone else's profile", () =>
    expect(labels('nova', '/profile/orion')).toContain('Profile'));
  it('links Profile to /profile when there is no username', () =>
    expect(visibleMenuItems('', '/spacehub').find((item) => item.label === 'Profile')?.to).toBe(
      '/profile',
    ));
  it('has no Reports for a member who does not moderate', () =>
    expect(labels('nova', '/spacehub')).not.toContain('Reports'));
  it('gives moderators Reports after Settings, leading to /moderation', () => {
    expect(labels('nova', '/spacehub', true)).toEqual([
      'Profile',
      'Settings',
      'Reports',
      'Store',
      'Events',
      'Blog',
      'Podcast',
      'CreatorsHub',
    ]);
    expect(
      visibleMenuItems('nova', '/spacehub', true).find((item) => item.label === 'Reports')?.to,
    ).toBe('/moderation');
  });
  it('leaves out Reports on /moderation', () =>
    expect(labels('nova', '/moderation', true)).not.toContain('Reports'));
});
