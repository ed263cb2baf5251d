import AxeBuilder from '@axe-core/playwright';
import { type APIRequestContext, type Locator, type Page, expect } from '@playwright/test';
import sharp from 'sharp';
import { type Member, createMember, logIn, signedIn, test, uniqueName } from './helpers.ts';
import { createModerator, createOrdinaryMember } from './moderators.ts';

// Several members, each in a browser of their own, on a machine other suites share.
test.describe.configure({ timeout: 60_000 });

/** A member signed up with a request context of their own, for calls made in their name. */
async function memberWithApi(
  playwright: { request: { newContext: (options: object) => Promise<APIRequestContext> } },
  baseURL: string,
): Promise<{ member: Member; api: APIRequestContext }> {
  const api = await playwright.request.newContext({ baseURL });
  return { member: await createMember(api, baseURL), api };
}

/**
 * Playwright's `test` with the cast of a report: `moderator` (made one before first logging in),
 * `reported` (a fresh member, `reportedPage` once signed in) and `reporter` (a member with a request context of their own,
 * disposed after the test); `site` is the base URL.
 */
const it = test.extend<{
  site: string;
  moderator: Member;
  reported: Member;
  reportedPage: Page;
  reporter: { member: Member; api: APIRequestContext };
}>({
  site: async ({ baseURL }, use) => {
    await use(baseURL ?? '');
  },
  moderator: async ({ request, site }, use) => {
    await use(await createModerator(request, site));
  },
  reported: async ({ request, site }, use) => {
    await use(await createMember(request, site));
  },
  // The reported member signed in, on their own profile.
  reportedPage: async ({ browser, reported }, use) => {
    const page = await signedIn(browser, reported);
    await use(page);
    await page.context().close();
  },
  reporter: async ({ playwright, site }, use) => {
    const reporter = await memberWithApi(playwright, site);
    await use(reporter);
    await reporter.api.dispose();
  },
});

async function uploadPhoto(page: Page, baseURL: string): Promise<string> {
  const buffer = await sharp({
    create: { width: 640, height: 480, channels: 3, background: '#e4572e' },
  })
    .jpeg()
    .toBuffer();
  const response = await page.request.post('/api/gallery', {
    headers: { Origin: baseURL },
    multipart: { image: { name: 'reported.jpg', mimeType: 'image/jpeg', buffer } },
  });
  expect(response.status()).toBe(201);
  return ((await response.json()) as { image: { id: string } }).image.id;
}

async function memberId(page: Page): Promise<string> {
  const response = await page.request.get('/api/auth/me');
  return ((await response.json()) as { user: { id: string } }).user.id;
}

/** A report sent through the API in the reporter's name (the report dialog is tested on its own). */
async function report(
  api: APIRequestContext,
  baseURL: string,
  body: { kind: 'image' | 'member'; targetId: string; reason: string; note: string },
) {
  const response = await api.post('/api/reports', { headers: { Origin: baseURL }, data: body });
  expect(response.status(), await response.text()).toBe(201);
}

/** Reports the member signed in on `page` in the reporter's name; answers the note, made unique. */
async function reportMemberOn(
  reporter: { api: APIRequestContext },
  baseURL: string,
  page: Page,
  reason: string,
  note: string,
): Promise<string> {
  const unique = `${note} ${uniqueName('n')}`;
  await report(reporter.api, baseURL, {
    kind: 'member',
    targetId: await memberId(page),
    reason,
    note: unique,
  });
  return unique;
}

const tab = (page: Page, name: 'Open' | 'Resolved' | 'Suspended') =>
  page.getByRole('tab', { name });

/** The notes of the open reports, as the server lists them to the moderator signed in on `page`. */
async function openNotes(page: Page): Promise<string[]> {
  const response = await page.request.get('/api/moderation/reports?status=open');
  expect(response.status()).toBe(200);
  return ((await response.json()) as { reports: { note: string }[] }).reports.map(
    (report) => report.note,
  );
}
/** The report holding `note` (each test writes a note of its own) in the list shown. */
const reportWith = (page: Page, note: string): Locator =>
  page.getByRole('tabpanel').getByRole('listitem').filter({ hasText: note });

async function openReports(page: Page) {
  await page.getByRole('button', { name: 'Menu' }).click();
  await page
    .getByRole('navigation', { name: 'Pages' })
    .getByRole('link', { name: 'Reports' })
    .click();
  await expect(page).toHaveURL(/\/moderation$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Reports' })).toBeVisible();
  await expect(tab(page, 'Open')).toHaveAttribute('aria-selected', 'true');
}

/** `Suspend member` on the report `item` about `member`: the dialog, once open. */
async function openSuspend(page: Page, item: Locator, member: Member): Promise<Locator> {
  await item.getByRole('button', { name: 'Suspend member' }).click();
  const dialog = page.getByRole('dialog', { name: `Suspend @${member.username}?` });
  await expect(dialog).toBeVisible();
  return dialog;
}

/** Gives the reason and sends it; the dialog closes whatever the server answers. */
async function sendSuspend(dialog: Locator, reason: string): Promise<void> {
  await dialog.getByLabel('Reason shown to the member').fill(reason);
  await dialog.getByRole('button', { name: 'Suspend' }).click();
  await expect(dialog).toBeHidden();
}

it('a moderator removes a reported photo; its owner is told and the photo is gone', async ({
  browser,
  site: baseURL,
  moderator,
  reported: owner,
  reporter,
}) => {
  const b = await signedIn(browser, owner);
  const imageId = await uploadPhoto(b, baseURL);
  const caption = `Sunset over the bay ${uniqueName('c')}`;
  const captioned = await b.request.patch(`/api/gallery/${imageId}`, {
    headers: { Origin: baseURL },
    data: { caption },
  });
  expect(captioned.status()).toBe(200);
  await b.reload();
  const grid = b.getByRole('list', { name: 'Photos' });
  await expect(grid.locator('.photo-open')).toHaveCount(1);
  const note = `Not for here ${uniqueName('n')}`;
  await report(reporter.api, baseURL, { kind: 'image', targetId: imageId, reason: 'nudity', note });

  const m = await signedIn(browser, moderator);
  await openReports(m);
  const item = reportWith(m, note);
  await expect(item).toBeVisible();
  await expect(item.getByRole('img', { name: caption })).toBeVisible();
  await expect(item.getByText(`Photo by @${owner.username}`)).toBeVisible();
  await expect(item.getByText(`Reported by @${reporter.member.username}`)).toBeVisible();
  await expect(item.getByText('Nudity or sexual content')).toBeVisible();
  await expect(item.getByRole('button', { name: 'Dismiss' })).toBeVisible();
  await expect(item.getByRole('button', { name: 'Suspend member' })).toBeVisible();
  // Remove photo asks first, with the report's reason chosen; Cancel changes nothing.
  const remove = item.getByRole('button', { name: 'Remove photo' });
  await remove.click();
  const dialog = m.getByRole('dialog', { name: 'Remove this photo?' });
  await expect(dialog).toContainText(`@${owner.username} is told which photo was removed, why`);
  await expect(dialog.getByRole('radio', { name: 'Nudity or sexual content' })).toBeChecked();
  expect(
    (await new AxeBuilder({ page: m }).withTags(['wcag2a', 'wcag2aa']).analyze()).violations,
  ).toEqual([]);
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  await expect(remove).toBeFocused();
  await expect(item).toBeVisible();
  await expect(grid.locator('.photo-open')).toHaveCount(1);

  // Confirmed with another reason, the photo goes and the list takes focus.
  await remove.click();
  await dialog.getByRole('radio', { name: 'Violence' }).check();
  await dialog.getByRole('button', { name: 'Remove photo' }).click();
  await expect(dialog).toBeHidden();
  await expect(item).toBeHidden();
  await expect(m.getByRole('tabpanel')).toBeFocused();

  await tab(m, 'Resolved').click();
  const resolved = reportWith(m, note);
  await expect(resolved.getByText(`Photo removed by @${moderator.username}`)).toBeVisible();
  await expect(resolved.getByRole('button')).toHaveCount(0);

  // The owner's open profile loses the photo and the bell brings the notice.
  await expect(grid.locator('.photo-open')).toHaveCount(0);
  await b.getByRole('button', { name: /^Notifications/ }).click();
  const told = `A moderator removed your photo “${caption}” for Violence. Read the rules to see what isn’t allowed.`;
  const notice = b
    .getByRole('dialog', { name: 'Notifications', exact: true })
    .getByRole('listitem')
    .filter({ hasText: told });
  await expect(notice).toBeVisible();
  await expect(notice.locator('.notification-text')).toHaveText(told);
  // It says where the rules are.
  await notice.getByRole('link', { name: 'Read the rules' }).click();
  await expect(b).toHaveURL(/\/rules$/);
  await expect(b.getByRole('heading', { level: 1, name: 'Community rules' })).toBeVisible();
  await expect(b.getByText('Violence', { exact: true })).toBeVisible();
  await b.goto('/profile');
  await expect(b.getByRole('heading', { level: 2, name: 'Photos' })).toBeVisible();
  await expect(b.getByRole('list', { name: 'Photos' }).locator('.photo-open')).toHaveCount(0);
  const gallery = await b.request.get('/api/gallery');
  expect(((await gallery.json()) as { total: number }).total).toBe(0);
});

it('a moderator suspends a reported member: their open tab is signed out and their login says why', async ({
  browser,
  site: baseURL,
  moderator,
  reported,
  reporter,
  reportedPage: d,
}) => {
  const note = await reportMemberOn(reporter, baseURL, d, 'impersonation', 'Pretends to be staff');

  const m = await signedIn(browser, moderator, { path: '/moderation' });
  const item = reportWith(m, note);
  await expect(item.getByRole('link', { name: `@${reported.username}` })).toBeVisible();
  await expect(item.getByText('Impersonation')).toBeVisible();
  await expect(item.getByRole('button', { name: 'Remove photo' })).toHaveCount(0);
  const dialog = await openSuspend(m, item, reported);
  expect(
    (await new AxeBuilder({ page: m }).withTags(['wcag2a', 'wcag2aa']).analyze()).violations,
  ).toEqual([]);
  // A reason is required.
  await dialog.getByRole('button', { name: 'Suspend' }).click();
  await expect(dialog.getByText('Give a reason the member will see.')).toBeVisible();
  const reason = 'Impersonating the Orbit team.';
  await sendSuspend(dialog, reason);
  await expect(item).toBeHidden();
  await tab(m, 'Resolved').click();
  await expect(
    reportWith(m, note).getByText(`Member suspended by @${moderator.username}`),
  ).toBeVisible();

  // Their tab is signed out as the server ends their sessions and sockets.
  await expect(d).toHaveURL(/\/landing/, { timeout: 10_000 });
  await logIn(d, reported);
  await expect(d.getByText(`This account is suspended: ${reason}`, { exact: true })).toBeVisible();
  await expect(d).toHaveURL(/\/landing/);
});

it('a moderator reported by a member is not suspended from Reports, and the page says why', async ({
  browser,
  request,
  site: baseURL,
  moderator,
  reporter,
}) => {
  const other = await createModerator(request, baseURL);
  const o = await signedIn(browser, other, { path: '/moderation' });
  const note = await reportMemberOn(reporter, baseURL, o, 'other', 'Moderates unfairly');

  const m = await signedIn(browser, moderator, { path: '/moderation' });
  const item = reportWith(m, note);
  await sendSuspend(await openSuspend(m, item, other), 'Unfair.');
  await expect(m.getByRole('alert')).toHaveText('Moderators can’t be suspended here.');
  await expect(item).toBeVisible();

  // The other moderator still moderates: their Reports list loads and holds the report.
  await o.reload();
  await expect(reportWith(o, note)).toBeVisible();
});

it('a member who does not moderate has no Reports in the menu and is told so at /moderation', async ({
  browser,
  request,
  site,
}) => {
  const member = await createOrdinaryMember(request, site);
  const page = await signedIn(browser, member);
  expect(
    ((await (await page.request.get('/api/auth/me')).json()) as { user: { isModerator: boolean } })
      .user.isModerator,
  ).toBe(false);
  await page.getByRole('button', { name: 'Menu' }).click();
  const menu = page.getByRole('navigation', { name: 'Pages' });
  await expect(menu.getByRole('link', { name: 'Settings' })).toBeVisible();
  await expect(menu.getByRole('link', { name: 'Reports' })).toHaveCount(0);
  await page.goto('/moderation');
  await expect(page.getByText('Only moderators can see reports.')).toBeVisible();
  await expect(page.getByRole('tab')).toHaveCount(0);
});

it('Dismiss resolves a report with nothing done; a report resolved meanwhile says so', async ({
  browser,
  site: baseURL,
  moderator,
  reporter,
  reportedPage: d,
}) => {
  const profile = d.url();
  const targetId = await memberId(d);
  const first = `Spam in every comment ${uniqueName('n')}`;
  await report(reporter.api, baseURL, { kind: 'member', targetId, reason: 'spam', note: first });

  const m = await signedIn(browser, moderator, { path: '/moderation' });
  await m.getByRole('tabpanel').getByRole('listitem').first().waitFor();
  expect(
    (await new AxeBuilder({ page: m }).withTags(['wcag2a', 'wcag2aa']).analyze()).violations,
  ).toEqual([]);
  const item = reportWith(m, first);
  // Dismiss takes effect at once and offers Undo, which opens the report again on the server.
  await item.getByRole('button', { name: 'Dismiss' }).click();
  await expect(item).toBeHidden();
  const toast = m.getByRole('status').filter({ hasText: 'Report dismissed' });
  await expect(toast).toBeVisible();
  expect(await openNotes(m)).not.toContain(first);
  await toast.getByRole('button', { name: 'Undo' }).click();
  await expect(item).toBeVisible();
  await expect(toast).toBeHidden();
  await expect(m.getByRole('tabpanel')).toBeFocused();
  expect(await openNotes(m)).toContain(first);
  await m.reload();
  await expect(item).toBeVisible();

  // Left alone, the offer goes after a few seconds and the report stays dismissed.
  await item.getByRole('button', { name: 'Dismiss' }).click();
  await expect(item).toBeHidden();
  await expect(toast).toBeVisible();
  await expect(toast).toBeHidden({ timeout: 15_000 });
  expect(await openNotes(m)).not.toContain(first);
  await tab(m, 'Resolved').click();
  await expect(reportWith(m, first).getByText(`Dismissed by @${moderator.username}`)).toBeVisible();
  // Nothing else happened to the member.
  await d.reload();
  await expect(d).toHaveURL(profile);

  // Another moderator (here the same one, in another tab) resolves the next report first.
  const second = `Still spamming ${uniqueName('n')}`;
  await report(reporter.api, baseURL, { kind: 'member', targetId, reason: 'other', note: second });
  await tab(m, 'Open').click();
  const stale = reportWith(m, second);
  await expect(stale).toBeVisible();
  const id = await m.evaluate(async (note) => {
    const answer = (await (await fetch('/api/moderation/reports?status=open')).json()) as {
      reports: { id: string; note: string }[];
    };
    return answer.reports.find((report) => report.note === note)?.id ?? '';
  }, second);
  const dismissed = await m.request.post(`/api/moderation/reports/${id}/dismiss`, {
    headers: { Origin: baseURL },
  });
  expect(dismissed.status()).toBe(200);
  await stale.getByRole('button', { name: 'Dismiss' }).click();
  await expect(m.getByRole('alert')).toHaveText('This report has already been resolved.');
  await expect(stale).toBeHidden();
});

it('reports come 50 a page, and Load more brings the next', async ({
  browser,
  request,
  playwright,
  site: baseURL,
  moderator,
}) => {
  // 51 reports: three reporters (20 an hour each at most) report the same 17 members.
  const targets: string[] = [];
  for (let index = 0; index < 17; index++) {
    await createMember(request, baseURL);
    targets.push(
      ((await (await request.get('/api/auth/me')).json()) as { user: { id: string } }).user.id,
    );
  }
  const tag = uniqueName('p');
  const notes: string[] = [];
  for (let reporter = 0; reporter < 3; reporter++) {
    const { api } = await memberWithApi(playwright, baseURL);
    for (const targetId of targets) {
      const note = `${tag} ${notes.length}`;
      notes.push(note);
      await report(api, baseURL, { kind: 'member', targetId, reason: 'spam', note });
    }
    await api.dispose();
  }

  const m = await signedIn(browser, moderator, { path: '/moderation' });
  const items = m.getByRole('list', { name: 'Open reports' }).getByRole('listitem');
  await expect(items).toHaveCount(50);
  // Newest first: the first report sent is on the next page.
  await expect(reportWith(m, notes.at(-1) ?? '')).toBeVisible();
  await expect(reportWith(m, `${tag} 0`)).toHaveCount(0);
  await m.getByRole('button', { name: 'Load more' }).click();
  await expect(reportWith(m, `${tag} 0`)).toBeVisible();
  expect(await items.count()).toBeGreaterThan(50);
});

it('a moderator lifts a suspension from the Suspended tab, after confirming; the member logs in again', async ({
  browser,
  site: baseURL,
  moderator,
  reported,
  reporter,
  reportedPage: d,
}) => {
  const note = await reportMemberOn(reporter, baseURL, d, 'spam', 'Sells followers');
  const m = await signedIn(browser, moderator, { path: '/moderation' });
  const reason = `Selling followers ${uniqueName('r')}`;
  await sendSuspend(await openSuspend(m, reportWith(m, note), reported), reason);
  await expect(d).toHaveURL(/\/landing/, { timeout: 10_000 });

  // The tab lists them with the reason and when.
  await tab(m, 'Suspended').click();
  const list = m.getByRole('list', { name: 'Suspended members' });
  const entry = list.getByRole('listitem', { name: `@${reported.username}` });
  await expect(entry).toContainText(reason);
  await expect(entry.getByText(/^Suspended \d+(s|m) ago$/)).toBeVisible();
  expect(
    (await new AxeBuilder({ page: m }).withTags(['wcag2a', 'wcag2aa']).analyze()).violations,
  ).toEqual([]);

  // Lift suspension asks first; Cancel leaves them suspended, focus back on the button.
  const lift = entry.getByRole('button', { name: 'Lift suspension' });
  await lift.click();
  const dialog = m.getByRole('dialog', { name: `Lift the suspension of @${reported.username}?` });
  await expect(dialog).toContainText('They can log in again.');
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  await expect(lift).toBeFocused();
  await logIn(d, reported);
  await expect(d.getByText(`This account is suspended: ${reason}`, { exact: true })).toBeVisible();

  // Confirmed, they leave the list, the list takes focus, and their login works again.
  await lift.click();
  await dialog.getByRole('button', { name: 'Lift suspension' }).click();
  await expect(dialog).toBeHidden();
  await expect(entry).toHaveCount(0);
  await expect(m.getByRole('tabpanel')).toBeFocused();
  await m.reload();
  await tab(m, 'Suspended').click();
  await expect(m.getByRole('tabpanel').getByText('Loading…')).toHaveCount(0);
  await expect(entry).toHaveCount(0);
  await logIn(d, reported);
  await expect(d).toHaveURL(/\/profile\//, { timeout: 10_000 });
});
