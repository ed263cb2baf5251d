import { fireEvent, render, screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { apiUrl } from '../../lib/apiHost.ts';
import { GalleryPicture, altText } from './GalleryPicture.tsx';
import { PLACEHOLDER_IMAGE, imageSources } from './sources.ts';
import { galleryImage } from '../../test/gallery.ts';

describe('the image fallback chain', () => {
  it('tries the API host, then the relative path, for each picture in turn, then the placeholder', () => {
    const image = galleryImage('a');
    expect(imageSources(image)).toEqual([
      apiUrl('/uploads/gallery/a.webp'),
      '/uploads/gallery/a.webp',
      apiUrl('/uploads/gallery/a-thumb.webp'),
      '/uploads/gallery/a-thumb.webp',
      PLACEHOLDER_IMAGE,
    ]);
  });
  it('starts with the thumbnail for grids', () =>
    expect(imageSources(galleryImage('a'), { thumbnail: true }).slice(0, 3)).toEqual([
      apiUrl('/uploads/gallery/a-thumb.webp'),
      '/uploads/gallery/a-thumb.webp',
      apiUrl('/uploads/gallery/a.webp'),
    ]));
  it('keeps version parameters', () =>
    expect(imageSources(galleryImage('a', { url: '/uploads/a.jpg?v=3' }))[0]).toBe(
      apiUrl('/uploads/a.jpg?v=3'),
    ));
  it('reads a bare file name as a file under /uploads', () => {
    const image = galleryImage('a', { url: 'a.jpg', thumbnailUrl: '' });
    expect(imageSources(image)).toEqual([
      apiUrl('/uploads/a.jpg'),
      '/uploads/a.jpg',
      PLACEHOLDER_IMAGE,
    ]);
  });
  it('uses absolute addresses (a MEDIA_PUBLIC_URL) as they are', () => {
    const base = 'https://media.orbit.test/pictures/gallery';
    const image = galleryImage('a', {
      url: `${base}/a.webp`,
      thumbnailUrl: `${base}/a-thumb.webp`,
    });
    expect(imageSources(image, { thumbnail: true })).toEqual([
      `${base}/a-thumb.webp`,
      `${base}/a.webp`,
      PLACEHOLDER_IMAGE,
    ]);
  });
  it('lists an address once even when several fields hold it', () => {
    const chain = imageSources(galleryImage('a'));
    expect(new Set(chain).size).toBe(chain.length);
  });
});

describe('a gallery picture', () => {
  it('walks down the chain on each load error and stops at the placeholder', () => {
    const image = galleryImage('a', { thumbnailUrl: '' });
    render(<GalleryPicture image={image} />);
    const img = screen.getByRole('img', { name: 'Photo by @vega' });
    expect(img.getAttribute('src')).toBe(apiUrl('/uploads/gallery/a.webp'));
    fireEvent.error(img);
    expect(img.getAttribute('src')).toBe('/uploads/gallery/a.webp');
    fireEvent.error(img);
    expect(img.getAttribute('src')).toBe(PLACEHOLDER_IMAGE);
    fireEvent.error(img);
    expect(img.getAttribute('src')).toBe(PLACEHOLDER_IMAGE);
  });
  it('is described by its caption when it has one', () =>
    expect(altText(galleryImage('a', { caption: ' Saturn at dusk ' }))).toBe('Saturn at dusk'));
});
