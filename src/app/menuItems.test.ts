import { describe, expect, it } from 'vitest';
import { visibleMenuItems } from './menuItems.ts';

const labels = (username: string, path: string) =>
  visibleMenuItems(username, path).map((item) => item.label);

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
});
