import { describe, expect, it } from 'vitest';
import {
  indexAfterDelete,
  inFolder,
  moveItem,
  reactionCount,
  reorderWithin,
  restoreAt,
  sortByOrder,
  toggleReaction,
  upsertImage,
  withLiveUpdate,
} from './images.ts';
import { normaliseFolders, normaliseImage, readImages } from '../../contracts/readers/gallery.ts';
import { galleryImage } from '../../test/gallery.ts';
import { keyboardTarget } from './useReorder.ts';

describe('the folder list', () => {
  it('drops All and root and puts All first', () =>
    expect(normaliseFolders({ folders: ['Trips', 'All', 'root', 'Pets'] })).toEqual([
      'All',
      'Trips',
      'Pets',
    ]));
  it('reads a bare array too, without blanks or repeats', () =>
    expect(normaliseFolders(['Trips', ' ', 'Trips', 'ROOT'])).toEqual(['All', 'Trips']));
  it('is just All when the answer has no folders', () =>
    expect(normaliseFolders(null)).toEqual(['All']));
});

describe('reading images', () => {
  it('reads an array or {images}', () => {
    expect(readImages([galleryImage('a')]).map((image) => image.id)).toEqual(['a']);
    expect(readImages({ images: [galleryImage('b')] }).map((image) => image.id)).toEqual(['b']);
    expect(readImages({ nothing: true })).toEqual([]);
  });
  it('takes _id or id, and the file from any of its field names', () => {
    const image = normaliseImage({
      id: 'x1',
      imageUrl: '/uploads/x1.jpg',
      owner: { _id: 'o1', name: 'orion' },
    });
    expect(image).toMatchObject({
      id: 'x1',
      url: '/uploads/x1.jpg',
      folder: 'All',
      caption: '',
    });
    expect(image).not.toHaveProperty('_id');
    expect(image?.owner).toMatchObject({ id: 'o1', username: 'orion' });
    expect(image?.likes).toEqual([]);
  });
  it('keeps one address, the first file field a server sends, and one owner', () => {
    for (const key of ['filename', 'path', 'url', 'src', 'imageUrl']) {
      const image = normaliseImage({
        _id: 'x2',
        [key]: 'x2.jpg',
        user: { id: 'o2', username: 'lyra' },
      });
      expect(image?.url).toBe('x2.jpg');
      expect(image?.owner.id).toBe('o2');
      for (const alias of ['_id', 'filename', 'path', 'src', 'imageUrl', 'user']) {
        expect(image).not.toHaveProperty(alias);
      }
    }
  });
  it('takes the counts the server sent, which may count members it does not name', () => {
    const image = normaliseImage({
      id: 'x1',
      likes: ['a'],
      dislikes: [],
      likeCount: 3,
      dislikeCount: 1,
    });
    expect(image).toMatchObject({ likes: ['a'], dislikes: [], likeCount: 3, dislikeCount: 1 });
  });
  it('counts the ids of a server that sends only them, and never fewer than it names', () => {
    expect(normaliseImage({ id: 'x1', likes: ['a', 'b'], dislikes: ['c'] })).toMatchObject({
      likeCount: 2,
      dislikeCount: 1,
    });
    expect(normaliseImage({ id: 'x1', likes: ['a', 'b'], likeCount: 1 })?.likeCount).toBe(2);
    expect(normaliseImage({ id: 'x1', likeCount: -4, dislikeCount: 'many' })).toMatchObject({
      likeCount: 0,
      dislikeCount: 0,
    });
  });
  it('falls back to the file name as the id', () =>
    expect(normaliseImage({ filename: 'a.jpg' })?.id).toBe('a.jpg'));
  it('skips entries with neither id nor file', () =>
    expect(normaliseImage({ caption: 'x' })).toBeNull());
});

describe('folders', () => {
  const images = [galleryImage('a', { folder: 'Trips' }), galleryImage('b')];
  it('All shows every image', () => expect(inFolder(images, 'All')).toHaveLength(2));
  it('a folder shows its own images', () =>
    expect(inFolder(images, 'Trips').map((image) => image.id)).toEqual(['a']));
});

describe('reactions', () => {
  const image = galleryImage('a', { likes: ['someone'], dislikes: ['me'] });
  it('a like removes the member’s dislike', () => {
    const liked = toggleReaction(image, 'likes', 'me');
    expect(liked.likes).toEqual(['someone', 'me']);
    expect(liked.dislikes).toEqual([]);
  });
  it('a second like takes it back', () => {
    const twice = toggleReaction(toggleReaction(image, 'likes', 'me'), 'likes', 'me');
    expect(twice.likes).toEqual(['someone']);
    expect(twice.dislikes).toEqual([]);
  });
  it('a dislike removes the member’s like and leaves others alone', () => {
    const disliked = toggleReaction(
      galleryImage('b', { likes: ['me', 'someone'] }),
      'dislikes',
      'me',
    );
    expect(disliked).toMatchObject({ likes: ['someone'], dislikes: ['me'] });
  });
  it('moves the counts with the member’s own reaction, members not named counted too', () => {
    const counted = galleryImage('c', {
      likes: [],
      likeCount: 3,
      dislikes: ['me'],
      dislikeCount: 2,
    });
    const liked = toggleReaction(counted, 'likes', 'me');
    expect(liked).toMatchObject({ likes: ['me'], likeCount: 4, dislikes: [], dislikeCount: 1 });
    expect(reactionCount(liked, 'likes')).toBe(4);
    const back = toggleReaction(liked, 'likes', 'me');
    expect(back).toMatchObject({ likes: [], likeCount: 3, dislikes: [], dislikeCount: 1 });
    // Not in the other list: its count stays.
    expect(toggleReaction(back, 'dislikes', 'me')).toMatchObject({
      likeCount: 3,
      dislikeCount: 2,
    });
  });
});

describe('a live update', () => {
  const held = galleryImage('a', { likes: ['me', 'someone'], likeCount: 4, caption: 'old' });
  const update = galleryImage('a', { likeCount: 5, dislikeCount: 1, caption: 'new' });
  it('takes the fields and counts and keeps the member’s own reaction it does not tell', () => {
    expect(withLiveUpdate(held, update, undefined, 'me')).toMatchObject({
      caption: 'new',
      likes: ['me', 'someone'],
      dislikes: [],
      likeCount: 5,
      dislikeCount: 1,
    });
  });
  it('sets the member’s own reaction when it tells it', () => {
    expect(withLiveUpdate(held, update, 'dislike', 'me')).toMatchObject({
      likes: ['someone'],
      dislikes: ['me'],
      likeCount: 5,
    });
    expect(withLiveUpdate(held, update, null, 'me')).toMatchObject({
      likes: ['someone'],
      dislikes: [],
    });
    expect(withLiveUpdate(undefined, update, 'like', 'me')).toMatchObject({
      likes: ['me'],
      dislikes: [],
    });
  });
});

describe('the viewer after a delete', () => {
  it('shows the next image, which moves into the deleted one’s place', () =>
    expect(indexAfterDelete(5, 2)).toBe(2));
  it('shows the previous image when the last was deleted', () =>
    expect(indexAfterDelete(5, 4)).toBe(3));
  it('closes when the only image was deleted', () => expect(indexAfterDelete(1, 0)).toBeNull());
  it('goes to the first when the first of two was deleted', () =>
    expect(indexAfterDelete(2, 0)).toBe(0));
});

describe('putting an image back', () => {
  const list = [galleryImage('a'), galleryImage('c')];
  it('restores it at its old index', () =>
    expect(restoreAt(list, galleryImage('b'), 1).map((image) => image.id)).toEqual([
      'a',
      'b',
      'c',
    ]));
  it('appends it when the list has shrunk', () =>
    expect(restoreAt(list, galleryImage('b'), 9).map((image) => image.id)).toEqual([
      'a',
      'c',
      'b',
    ]));
  it('does not add it twice', () => expect(restoreAt(list, galleryImage('a'), 0)).toHaveLength(2));
});

describe('upserting', () => {
  it('puts a new image first (newest first)', () =>
    expect(upsertImage([galleryImage('a')], galleryImage('b')).map((image) => image.id)).toEqual([
      'b',
      'a',
    ]));
  it('replaces a known image in place', () => {
    const list = upsertImage(
      [galleryImage('a'), galleryImage('b')],
      galleryImage('b', { caption: 'new' }),
    );
    expect(list.map((image) => [image.id, image.caption])).toEqual([
      ['a', ''],
      ['b', 'new'],
    ]);
  });
});

describe('reordering', () => {
  it('moves an item forwards and backwards', () => {
    expect(moveItem(['a', 'b', 'c', 'd'], 0, 2)).toEqual(['b', 'c', 'a', 'd']);
    expect(moveItem(['a', 'b', 'c', 'd'], 3, 0)).toEqual(['d', 'a', 'b', 'c']);
  });
  it('clamps the target and ignores a missing source', () => {
    expect(moveItem(['a', 'b'], 0, 9)).toEqual(['b', 'a']);
    expect(moveItem(['a', 'b'], 5, 0)).toEqual(['a', 'b']);
  });
  it('keeps a rearranged part in the slots it held', () =>
    expect(reorderWithin(['a', 'x', 'b', 'y', 'c'], ['c', 'a', 'b'])).toEqual([
      'c',
      'x',
      'a',
      'y',
      'b',
    ]));
  it('keeps the rest of the gallery after the rearranged first rows', () =>
    expect(reorderWithin(['a', 'b', 'c', 'd'], ['b', 'a'])).toEqual(['b', 'a', 'c', 'd']));
  it('sorts images by a saved order, unknown ones last', () =>
    expect(
      sortByOrder([galleryImage('a'), galleryImage('n'), galleryImage('b')], ['b', 'a']).map(
        (image) => image.id,
      ),
    ).toEqual(['b', 'a', 'n']));
  it('moves by one with left and right, by a row with up and down, within the list', () => {
    expect(keyboardTarget('ArrowRight', 1, 8, 4)).toBe(2);
    expect(keyboardTarget('ArrowLeft', 0, 8, 4)).toBe(0);
    expect(keyboardTarget('ArrowDown', 1, 8, 4)).toBe(5);
    expect(keyboardTarget('ArrowDown', 6, 8, 4)).toBe(7);
    expect(keyboardTarget('ArrowUp', 5, 8, 4)).toBe(1);
    expect(keyboardTarget('Tab', 1, 8, 4)).toBeNull();
  });
});
