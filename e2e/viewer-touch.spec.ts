/** The viewer on a touch screen (docs/product.md "Image viewer"): real touches through Chromium's input (CDP). */
import { type CDPSession, type Locator, type Page, expect } from '@playwright/test';
import { addPhotos, signedIn, test } from './helpers.ts';

interface Point {
  x: number;
  y: number;
}

/** Touches as a phone's screen sends them: every finger's point at each step. */
class Fingers {
  constructor(private readonly cdp: CDPSession) {}

  private send(type: 'touchStart' | 'touchMove' | 'touchEnd', points: Point[]) {
    return this.cdp.send('Input.dispatchTouchEvent', {
      type,
      touchPoints: points.map((point, id) => ({ x: point.x, y: point.y, id })),
    });
  }

  /** Fingers go down at `from`, travel to `to` in `steps` moves, and lift. */
  async drag(from: Point[], to: Point[], steps = 8) {
    await this.send('touchStart', from);
    for (let step = 1; step <= steps; step++) {
      await this.send(
        'touchMove',
        from.map((start, index) => {
          const end = to[index] ?? start;
          return {
            x: start.x + ((end.x - start.x) * step) / steps,
            y: start.y + ((end.y - start.y) * step) / steps,
          };
        }),
      );
    }
    await this.send('touchEnd', []);
  }

  async tap(at: Point) {
    await this.send('touchStart', [at]);
    await this.send('touchEnd', []);
  }
}

const viewer = (page: Page) => page.getByRole('dialog', { name: 'Image viewer' });
const photo = (page: Page) => viewer(page).locator('.viewer-image');

async function centreOf(locator: Locator): Promise<Point> {
  const box = await locator.boundingBox();
  if (!box) throw new Error('not on screen');
  return { x: box.x + box.width / 2, y: box.y + box.height / 2 };
}

/** The photo's shown width, once it has stopped moving. */
async function settledWidth(locator: Locator): Promise<number> {
  let last = -1;
  for (;;) {
    const width = (await locator.boundingBox())?.width ?? 0;
    if (Math.abs(width - last) < 0.5) return width;
    last = width;
    await new Promise((resolve) => setTimeout(resolve, 150));
  }
}

const phoneTest = test.extend<{ phone: Page; fingers: Fingers }>({
  phone: async ({ browser, member, baseURL }, use) => {
    const page = await signedIn(browser, member, {
      context: { viewport: { width: 390, height: 844 }, hasTouch: true },
    });
    await addPhotos(page, baseURL ?? '', 3);
    await page.reload();
    await use(page);
    await page.context().close();
  },
  fingers: async ({ phone }, use) => {
    await use(new Fingers(await phone.context().newCDPSession(phone)));
  },
});

phoneTest(
  'a swipe sideways follows the finger and moves on past a threshold, snapping back below it; a swipe down closes',
  async ({ phone: page, fingers, member }) => {
    await page.getByRole('button', { name: `Photo 1 of 3 by @${member.username}` }).click();
    await expect(viewer(page).getByText('1 / 3')).toBeVisible();
    await expect(photo(page)).toHaveAttribute('alt', `Photo 1 of 3 by @${member.username}`);
    const centre = await centreOf(photo(page));
    const left = (await photo(page).boundingBox())?.x ?? 0;

    // A short swipe: the photo goes with the finger, then back into place.
    await fingers.drag([centre], [{ x: centre.x - 30, y: centre.y }]);
    await expect(viewer(page).getByText('1 / 3')).toBeVisible();
    await expect.poll(async () => (await photo(page).boundingBox())?.x).toBeCloseTo(left, 0);

    // Past the threshold: on to the next photo, and back.
    await fingers.drag([{ x: centre.x + 120, y: centre.y }], [{ x: centre.x - 120, y: centre.y }]);
    await expect(viewer(page).getByText('2 / 3')).toBeVisible();
    await fingers.drag([{ x: centre.x - 120, y: centre.y }], [{ x: centre.x + 120, y: centre.y }]);
    await expect(viewer(page).getByText('1 / 3')).toBeVisible();
    // Nothing before the first photo: the swipe snaps back.
    await fingers.drag([{ x: centre.x - 120, y: centre.y }], [{ x: centre.x + 120, y: centre.y }]);
    await expect(viewer(page).getByText('1 / 3')).toBeVisible();
    await expect.poll(async () => (await photo(page).boundingBox())?.x).toBeCloseTo(left, 0);

    // A short pull down snaps back; a long one closes the viewer.
    await fingers.drag([centre], [{ x: centre.x, y: centre.y + 40 }]);
    await expect(viewer(page)).toBeVisible();
    await fingers.drag([{ x: centre.x, y: centre.y - 100 }], [{ x: centre.x, y: centre.y + 150 }]);
    await expect(viewer(page)).toBeHidden();
    expect(new URL(page.url()).searchParams.get('image')).toBeNull();
  },
);

phoneTest(
  'two fingers pinch-zoom the photo, and a double tap zooms in and back out',
  async ({ phone: page, fingers, member }) => {
    await page.getByRole('button', { name: `Photo 2 of 3 by @${member.username}` }).click();
    await expect(viewer(page).getByText('2 / 3')).toBeVisible();
    const width = await settledWidth(photo(page));
    const centre = await centreOf(photo(page));

    await fingers.drag(
      [
        { x: centre.x - 40, y: centre.y },
        { x: centre.x + 40, y: centre.y },
      ],
      [
        { x: centre.x - 100, y: centre.y },
        { x: centre.x + 100, y: centre.y },
      ],
    );
    expect(await settledWidth(photo(page))).toBeGreaterThan(width * 2);
    // Zoomed, a finger pans the photo instead of moving to the next one.
    await fingers.drag([centre], [{ x: centre.x - 120, y: centre.y }]);
    await expect(viewer(page).getByText('2 / 3')).toBeVisible();
    // Pinched back, it rests at its size.
    await fingers.drag(
      [
        { x: centre.x - 120, y: centre.y },
        { x: centre.x + 120, y: centre.y },
      ],
      [
        { x: centre.x - 10, y: centre.y },
        { x: centre.x + 10, y: centre.y },
      ],
    );
    expect(await settledWidth(photo(page))).toBeCloseTo(width, 0);

    await fingers.tap(centre);
    await fingers.tap(centre);
    expect(await settledWidth(photo(page))).toBeCloseTo(width * 2.5, 0);
    await fingers.tap(centre);
    await fingers.tap(centre);
    expect(await settledWidth(photo(page))).toBeCloseTo(width, 0);
    await expect(viewer(page).getByText('2 / 3')).toBeVisible();
  },
);
