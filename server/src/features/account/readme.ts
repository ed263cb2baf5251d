/** README.txt of a member's download (docs/product.md "Leaving"): every file in plain words. */
export const DOWNLOAD_README = `Your Orbit data
===============

This archive holds what Orbit keeps about you, as it was when the download started. The lists
are JSON files: plain text that any text editor opens, and that other programs can read. Times
are written in UTC, as 2026-01-31T18:05:00.000Z.

README.txt
  This explanation.

avatar.webp
  Your profile picture. Missing if you have none.

profile.json
  "member": your profile as Orbit shows it to you: your id, username, names, email, birthday,
  interests, favourite quote, theme, referral codes, your security question (never its answer),
  and whether you are a moderator. Your password and security answer are stored only as one-way
  hashes and are not included.
  "account": when you joined, when your profile last changed, and when this download started.
  "avatar": the name of your profile picture in this archive, or null.

friends.json
  "friends": the members you are friends with, and since when.
  "incoming": friend requests other members sent you that you have not answered.
  "outgoing": friend requests you sent that have not been answered.

notifications.json
  "notifications": every notification Orbit shows you, oldest first: what it said, who it was
  from, where it led, and whether you had read it. As in the app, none from a member while a
  block between you (yours or theirs) lasts.

reactions.json
  "given": your likes and dislikes of photos: the photo's id, its owner, which reaction, when.
  The owner is null while a block between you lasts.
  "received": likes and dislikes of your photos: the photo's id, who reacted, which reaction, when.
  As in the app, none from a member while a block between you lasts.

reports.json
  "reports": the photos and members you reported to moderators: what you reported, the reason,
  your note, whether a moderator has dealt with it and how, and when. The member is null while a
  block between you lasts, and "deleted member" once their account is gone. Reports other members
  made about you are not included.

blocks.json
  "blocked": the members you blocked and when, each named as in Settings: by the username they
  had when you blocked them, or null when Orbit could not show you their name then.

photos/
  Your photos at the size Orbit shows them, numbered in the order of your gallery
  (0001.webp first).

photos.json
  "photos": one line per photo, in gallery order: its file in photos/, its id, folder and
  caption, its size in pixels, and when you uploaded it. A photo whose picture could not be
  found when the download was made has "file": null.

You can download your data once every 10 minutes.
`;
