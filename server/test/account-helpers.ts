/** Members with a bit of everything, for the tests of leaving (docs/product.md "Leaving"). */
import type { FastifyInstance } from 'fastify';
import type { GalleryImage } from '../../src/contracts/gallery.ts';
import { MEDIA_PREFIXES } from '../src/media/index.ts';
import { patchImage, uploadImage } from './gallery-helpers.ts';
import {
  type Member,
  asCookie,
  friendAction,
  loginAs,
  newDevice,
  signupMembers,
  subscribeDevice,
  uniqueUsername,
} from './factories.ts';

export function deleteAccount(
  app: FastifyInstance,
  member: Pick<Member, 'cookie'>,
  body: Record<string, unknown>,
  headers: Record<string, string> = asCookie(member),
) {
  return app.inject({ method: 'DELETE', url: '/api/auth/account', headers, payload: body });
}

/** The member's own deletion, confirmed as the form sends it. */
export function deleteOwnAccount(app: FastifyInstance, member: Member) {
  return deleteAccount(app, member, { password: member.password, username: member.username });
}

/** Every key in the media store under the prefixes pictures live in. */
export async function storedKeys(app: FastifyInstance): Promise<string[]> {
  const keys: string[] = [];
  for (const prefix of MEDIA_PREFIXES)
    for await (const item of app.media.store.list(prefix)) keys.push(item.key);
  return keys.sort();
}

/** The media keys of an image's two sizes, from its addresses. */
export const imageKeys = (image: GalleryImage) =>
  [image.url, image.thumbnailUrl].map((address) => address.replace(/^\/uploads\//, ''));

export const avatarKey = (member: Member) => member.user.profileImage.replace(/^\/uploads\//, '');

/** A block straight into its table, named as a block made then keeps it; ends nothing. */
async function insertBlock(app: FastifyInstance, blocker: Member, blocked: Member) {
  await app.db
    .insertInto('blocks')
    .values({
      blocker_id: blocker.user.id,
      blocked_id: blocked.user.id,
      created_at: new Date().toISOString(),
      blocked_username: blocked.username,
    })
    .execute();
}

/** A report straight into its table (the reports' routes are not what is tested here). */
export async function insertReport(
  app: FastifyInstance,
  reporter: Member,
  target: { kind: 'member'; member: Member } | { kind: 'image'; image: GalleryImage },
  note = '',
): Promise<number> {
  const row = await app.db
    .insertInto('reports')
    .values({
      reporter_id: reporter.user.id,
      target_kind: target.kind,
      target_id: target.kind === 'member' ? target.member.user.id : target.image.id,
      target_user_id: target.kind === 'member' ? target.member.user.id : target.image.owner.id,
      reason: 'spam',
      note,
      status: 'open',
      resolution: null,
      resolved_by: null,
      resolved_at: null,
      created_at: new Date().toISOString(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

export interface Neighbourhood {
  leaver: Member;
  /** Another session of the leaver's. */
  leaverElsewhere: Member;
  /** The leaver asked, they accepted. */
  friendAsked: Member;
  /** They asked, the leaver accepted. */
  friendAnswered: Member;
  /** The leaver's request, still pending. */
  askedByLeaver: Member;
  /** Their request to the leaver, still pending. */
  askingLeaver: Member;
  /** Two members who know each other and not the leaver's rows, except through blocks and reports. */
  bystander: Member;
  otherBystander: Member;
  leaverPhotos: GalleryImage[];
  friendPhoto: GalleryImage;
  bystanderPhoto: GalleryImage;
  /** Reports about the leaver, which stay. */
  reportsAbout: number[];
}

/**
 * A leaver with photos (in a folder, with a caption), an avatar, reactions both ways, friends and
 * requests both ways, notifications to and from them and about their photo, two sessions, a push
 * device, blocks both ways, reports they made and reports about them; and members around them
 * with things of their own.
 */
export async function neighbourhood(app: FastifyInstance): Promise<Neighbourhood> {
  const [leaver, friendAsked, friendAnswered, askedByLeaver, askingLeaver, bystander, other] =
    await signupMembers(app, 7, (index) =>
      index === 0 ? { username: uniqueUsername('leaver') } : {},
    );
  const leaverElsewhere = await loginAs(app, leaver);

  await friendAction(app, leaver, 'request', friendAsked);
  await friendAction(app, friendAsked, 'accept', leaver);
  await friendAction(app, friendAnswered, 'request', leaver);
  await friendAction(app, leaver, 'accept', friendAnswered);
  await friendAction(app, leaver, 'request', askedByLeaver);
  await friendAction(app, askingLeaver, 'request', leaver);
  await friendAction(app, bystander, 'request', other);
  await friendAction(app, other, 'accept', bystander);

  const leaverPhotos = [
    await uploadImage(app, leaver, { folder: 'Trips' }),
    await uploadImage(app, leaver),
  ];
  await patchImage(app, leaver, leaverPhotos[0]!.id, { caption: 'Saturn at dusk' });
  const friendPhoto = await uploadImage(app, friendAsked);
  const bystanderPhoto = await uploadImage(app, bystander);
  await patchImage(app, friendAsked, leaverPhotos[0]!.id, { likes: true });
  await patchImage(app, bystander, leaverPhotos[1]!.id, { dislikes: true });
  await patchImage(app, leaver, friendPhoto.id, { likes: true });
  await patchImage(app, leaver, bystanderPhoto.id, { dislikes: true });
  await patchImage(app, other, bystanderPhoto.id, { likes: true });

  // A notice to someone else about the leaver's photo.
  await app.db
    .insertInto('notifications')
    .values({
      recipient_id: bystander.user.id,
      type: 'system',
      actor_id: null,
      message: 'A photo you reported was looked at.',
      link: '/moderation',
      request_id: null,
      image_id: leaverPhotos[1]!.id,
      read_at: null,
      created_at: new Date().toISOString(),
    })
    .execute();

  await subscribeDevice(app, leaver, newDevice('https://fcm.googleapis.com'));
  await insertBlock(app, leaver, bystander);
  await insertBlock(app, other, leaver);
  await insertReport(app, leaver, { kind: 'member', member: other }, 'made by the leaver');
  await insertReport(app, leaver, { kind: 'image', image: bystanderPhoto });
  const reportsAbout = [
    await insertReport(app, bystander, { kind: 'member', member: leaver }),
    await insertReport(app, other, { kind: 'image', image: leaverPhotos[1]! }),
  ];
  return {
    leaver,
    leaverElsewhere,
    friendAsked,
    friendAnswered,
    askedByLeaver,
    askingLeaver,
    bystander,
    otherBystander: other,
    leaverPhotos,
    friendPhoto,
    bystanderPhoto,
    reportsAbout,
  };
}
