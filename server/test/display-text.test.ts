/** Names and quotes without bidi controls, stored and shown (docs/decisions.md "Display text without bidi controls"). */
import { describe, expect, it } from 'vitest';
import type { PublicUser } from '../../src/contracts/user.ts';
import { type Member, asBearer, asCookie, forEachApp, signupUser } from './helpers.ts';

const RLO = '\u202e';
const ISOLATE = '\u2067';
const PDI = '\u2069';

forEachApp((t) => {
  const row = (member: Member) =>
    t.app.db
      .selectFrom('users')
      .selectAll()
      .where('id', '=', member.user.id)
      .executeTakeFirstOrThrow();
  const profile = async (member: Member, viewer: Member) => {
    const response = await t.app.inject({
      method: 'GET',
      url: `/api/users/profile/${member.username}`,
      headers: asBearer(viewer),
    });
    expect(response.statusCode).toBe(200);
    return response.json<{ user: PublicUser }>().user;
  };

  describe('a name and a quote with U+202E', () => {
    it('are stored and shown without it when signing up', async () => {
      const member = await signupUser(t.app, {
        firstName: `Ada${RLO}gpj`,
        lastName: `${ISOLATE}Love${PDI}lace`,
        favoriteQuote: `${RLO}Ad astra.`,
      });
      const viewer = await signupUser(t.app);

      const stored = await row(member);
      expect([stored.first_name, stored.last_name, stored.favorite_quote]).toEqual([
        'Adagpj',
        'Lovelace',
        'Ad astra.',
      ]);
      const shown = await profile(member, viewer);
      expect([shown.firstName, shown.lastName, shown.fullName, shown.favoriteQuote]).toEqual([
        'Adagpj',
        'Lovelace',
        'Adagpj Lovelace',
        'Ad astra.',
      ]);
    });

    it('are stored without it when the profile is edited', async () => {
      const member = await signupUser(t.app);

      const response = await t.app.inject({
        method: 'PATCH',
        url: '/api/auth/profile',
        headers: asCookie(member),
        payload: { firstName: `Eve${RLO}exe.jpg`, favoriteQuote: `Hi${RLO} there\u200f` },
      });

      expect(response.statusCode).toBe(200);
      expect(response.json<{ user: PublicUser }>().user.firstName).toBe('Eveexe.jpg');
      const stored = await row(member);
      expect([stored.first_name, stored.favorite_quote]).toEqual(['Eveexe.jpg', 'Hi there']);
    });

    it('is left out when shown, for a value stored before it was refused', async () => {
      const member = await signupUser(t.app);
      const viewer = await signupUser(t.app);
      await t.app.db
        .updateTable('users')
        .set({ first_name: `Old${RLO}name`, last_name: 'Kept', favorite_quote: `${RLO}quote` })
        .where('id', '=', member.user.id)
        .execute();

      const shown = await profile(member, viewer);

      expect([shown.firstName, shown.fullName, shown.favoriteQuote]).toEqual([
        'Oldname',
        'Oldname Kept',
        'quote',
      ]);
    });
  });
});
