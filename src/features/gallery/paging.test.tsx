import { act, cleanup, fireEvent, render, screen } from '@testing-library/react';
import type { ComponentProps } from 'react';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { useSession } from '../auth/store.ts';
import type { CurrentUser } from '../../contracts/readers/user.ts';
import { GalleryManager } from './GalleryManager.tsx';
import { GalleryViewer } from './GalleryViewer.tsx';
import { useGallery } from './store.ts';
import { galleryImage, json } from '../../test/gallery.ts';
import { withDialogMethods } from '../../test/dialog.ts';

const owner = { id: 'owner', username: 'vega' };

/** jsdom has no IntersectionObserver: this one reports the sentinel in view when told to. */
class SeenObserver {
  static all = new Set<SeenObserver>();
  private targets = new Set<Element>();
  constructor(private readonly callback: IntersectionObserverCallback) {
    SeenObserver.all.add(this);
  }
  observe(target: Element) {
    this.targets.add(target);
  }
  disconnect() {
    this.targets.clear();
    SeenObserver.all.delete(this);
  }
  static scrollToEnd() {
    for (const observer of SeenObserver.all)
      for (const target of observer.targets)
        observer.callback(
          [{ isIntersecting: true, target } as IntersectionObserverEntry],
          observer as unknown as IntersectionObserver,
        );
  }
  static watching() {
    return [...SeenObserver.all].some((observer) => observer.targets.size > 0);
  }
}

/** A server with `count` images in pages of 60; `fail` makes the next later page fail. */
function server(count: number) {
  const images = Array.from({ length: count }, (_, index) =>
    galleryImage(`i${index}`, { caption: `Picture ${index + 1}` }),
  );
  const state = { fail: false, calls: [] as string[] };
  const fetch = (url: string) => {
    state.calls.push(url);
    const { pathname, searchParams } = new URL(url);
    if (pathname.endsWith('/folders')) return Promise.resolve(json({ folders: [] }));
    const cursor = searchParams.get('cursor');
    if (cursor && state.fail) {
      state.fail = false;
      return Promise.reject(new TypeError('Failed to fetch'));
    }
    const start = Number(cursor ?? 0);
    const end = Math.min(start + 60, count);
    return Promise.resolve(
      json({
        images: images.slice(start, end),
        nextCursor: end < count ? String(end) : null,
        total: count,
      }),
    );
  };
  return { state, fetch };
}

beforeEach(() => {
  useGallery.getState().reset();
  useSession.setState({ status: 'signedIn', user: { id: 'me', username: 'me' } as CurrentUser });
  vi.stubGlobal('IntersectionObserver', SeenObserver);
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
  withDialogMethods();
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  SeenObserver.all.clear();
});

describe('the gallery manager', () => {
  it('reads the next page near the end, counts against the total and stops after a failure', async () => {
    const { state, fetch } = server(150);
    vi.stubGlobal('fetch', vi.fn(fetch));
    render(<GalleryManager owner={owner} canEdit={false} onOpen={() => {}} onClose={() => {}} />);
    expect(await screen.findByText('Showing 60 / 150')).toBeTruthy();
    expect(state.calls).toHaveLength(1);

    act(() => SeenObserver.scrollToEnd());
    expect(await screen.findByText('Showing 120 / 150')).toBeTruthy();
    expect(new URL(state.calls[1] ?? '').searchParams.get('cursor')).toBe('60');

    // Offline: the page fails once, and nothing asks for it again until the member does.
    state.fail = true;
    act(() => SeenObserver.scrollToEnd());
    expect(await screen.findByRole('alert')).toHaveProperty(
      'textContent',
      'Could not load more photos.',
    );
    expect(SeenObserver.watching()).toBe(false);
    act(() => SeenObserver.scrollToEnd());
    expect(state.calls).toHaveLength(3);

    fireEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('Showing 150 / 150')).toBeTruthy();
    expect(screen.queryByRole('button', { name: /Show more|Try again/ })).toBeNull();
    expect(screen.getAllByRole('button', { name: /^Picture/ })).toHaveLength(150);
  }, 30_000);

  it('offers the next page on a button for keyboard use', async () => {
    const { fetch } = server(70);
    vi.stubGlobal('fetch', vi.fn(fetch));
    render(<GalleryManager owner={owner} canEdit={false} onOpen={() => {}} onClose={() => {}} />);
    fireEvent.click(await screen.findByRole('button', { name: 'Show more' }));
    expect(await screen.findByText('Showing 70 / 70')).toBeTruthy();
  });
});

/** The viewer inside the router its owner link needs. */
const Viewer = (props: ComponentProps<typeof GalleryViewer>) => (
  <MemoryRouter>
    <GalleryViewer {...props} />
  </MemoryRouter>
);

describe('the viewer with some pages loaded', () => {
  const images = [galleryImage('a'), galleryImage('b'), galleryImage('c')];

  it('counts against the total, reads ahead, and moves past the loaded end once the page is there', () => {
    const onLoadMore = vi.fn();
    const onNavigate = vi.fn();
    const props = { ownerId: 'owner', canEdit: false, onNavigate, onLoadMore, total: 5 };
    const { rerender } = render(<Viewer {...props} images={images} imageId="c" more="loading" />);
    expect(screen.getByText('3 / 5')).toBeTruthy();
    expect(onLoadMore).not.toHaveBeenCalled();

    // Next at the end waits for the page on its way, then goes on.
    fireEvent.click(screen.getByRole('button', { name: 'Next image' }));
    expect(onNavigate).not.toHaveBeenCalled();
    rerender(
      <Viewer
        {...props}
        images={[...images, galleryImage('d'), galleryImage('e')]}
        imageId="c"
        more={null}
      />,
    );
    expect(onNavigate).toHaveBeenCalledWith('d');
  });

  it('asks for the next page near the end, and again only when the member moves on after a failure', () => {
    const onLoadMore = vi.fn();
    const props = { ownerId: 'owner', canEdit: false, onNavigate: vi.fn(), onLoadMore, total: 9 };
    const { rerender } = render(<Viewer {...props} images={images} imageId="b" more="idle" />);
    expect(onLoadMore).toHaveBeenCalledTimes(1);
    rerender(<Viewer {...props} images={images} imageId="c" more="error" />);
    expect(onLoadMore).toHaveBeenCalledTimes(1);
    fireEvent.keyDown(screen.getByRole('dialog', { name: 'Image viewer' }), { key: 'ArrowRight' });
    expect(onLoadMore).toHaveBeenCalledTimes(2);
  });
});
