/**
 * Names, quotes and captions without hidden characters, stored and shown (docs/decisions.md
 * "Display text without hidden characters").
 */
import { describe, expect, it } from 'vitest';
import type { GalleryImage } from '../../src/contracts/gallery.ts';
import type { PublicUser } from '../../src/contracts/user.ts';
import { listGallery, patchImage, uploadImage } from './gallery-helpers.ts';
import {
  type Member,
  asBearer,
  asCookie,
  forEachApp,
  signupUser,
  patchProfile,
} from './helpers.ts';

const RLO = '\u202e';
const ISOLATE = '\u2067';
const PDI = '\u2069';
const ZWSP = '\u200b';
const ZWNJ = '\u200c';
const ZWJ = '\u200d';
const WORD_JOINER = '\u2060';
const BOM = '\ufeff';
const ASTRONAUT = `👩🏽${ZWJ}🚀`;

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

      const response = await patchProfile(t.app, asCookie(member), {
        firstName: `Eve${RLO}exe.jpg`,
        favoriteQuote: `Hi${RLO} there\u200f`,
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

  describe('zero width characters', () => {
    it('are left out of names and quotes when signing up, but for the joiners that draw letters or emoji', async () => {
      const member = await signupUser(t.app, {
        firstName: `A${ZWSP}da${ZWJ}`,
        lastName: `Love${ZWNJ}lace${WORD_JOINER}`,
        favoriteQuote: `${BOM}Ad astra ${ASTRONAUT} علی${ZWNJ}زاده`,
      });
      const viewer = await signupUser(t.app);

      const stored = await row(member);
      expect([stored.first_name, stored.last_name, stored.favorite_quote]).toEqual([
        'Ada',
        'Lovelace',
        `Ad astra ${ASTRONAUT} علی${ZWNJ}زاده`,
      ]);
      const shown = await profile(member, viewer);
      expect([shown.fullName, shown.favoriteQuote]).toEqual([
        'Ada Lovelace',
        `Ad astra ${ASTRONAUT} علی${ZWNJ}زاده`,
      ]);
    });

    it('are left out when the profile is edited', async () => {
      const member = await signupUser(t.app);

      const response = await patchProfile(t.app, asCookie(member), {
        firstName: `${ZWSP}Eve${ZWJ}${ZWJ}`,
        lastName: `क्${ZWJ}ष`,
      });

      expect(response.statusCode).toBe(200);
      expect(response.json<{ user: PublicUser }>().user.fullName).toBe(`Eve क्${ZWJ}ष`);
      const stored = await row(member);
      expect([stored.first_name, stored.last_name]).toEqual(['Eve', `क्${ZWJ}ष`]);
    });

    it('are left out when shown, for a value stored before they were', async () => {
      const member = await signupUser(t.app);
      const viewer = await signupUser(t.app);
      await t.app.db
        .updateTable('users')
        .set({
          first_name: `Old${ZWSP}`,
          last_name: `Na${ZWJ}me`,
          favorite_quote: `${BOM}quote ${ASTRONAUT}`,
        })
        .where('id', '=', member.user.id)
        .execute();

      const shown = await profile(member, viewer);

      expect([shown.firstName, shown.lastName, shown.fullName, shown.favoriteQuote]).toEqual([
        'Old',
        'Name',
        'Old Name',
        `quote ${ASTRONAUT}`,
      ]);
    });

    it('are left out of a caption and a new folder, stored and shown, and of one stored before', async () => {
      const member = await signupUser(t.app);
      const image = await uploadImage(t.app, member);

      const response = await patchImage(t.app, member, image.id, {
        caption: `Sat${ZWSP}urn ${ASTRONAUT}`,
        folder: `Tr${ZWJ}ips${WORD_JOINER}`,
      });

      expect(response.statusCode).toBe(200);
      const patched = response.json<{ image: GalleryImage }>().image;
      expect([patched.caption, patched.folder]).toEqual([`Saturn ${ASTRONAUT}`, 'Trips']);
      await t.app.db
        .updateTable('gallery_images')
        .set({ caption: `Old${ZWSP} caption` })
        .where('id', '=', image.id)
        .execute();
      expect((await listGallery(t.app, member)).map((photo) => photo.caption)).toEqual([
        'Old caption',
      ]);
    });
  });
});
