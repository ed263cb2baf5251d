/**
 * How the smoke flows point at things: by what a member reads (a label, a role and its name, a
 * text), as the Chromium suite does with Playwright's locators. Plain data, so it travels to the
 * page in either driver.
 */
export interface Query {
  /** A form control by its label's text (exact). */
  label?: string;
  /** An ARIA role, explicit or implied by the element. */
  role?: 'button' | 'link' | 'dialog' | 'heading' | 'list' | 'img' | 'menuitem' | 'tab';
  /** The accessible name: exact, or the start of it with `prefix`. */
  name?: string;
  prefix?: boolean;
  /** A CSS selector, optionally narrowed to elements whose text contains `text`. */
  css?: string;
  text?: string;
  /** Looks only inside the first match of this query. */
  within?: Query;
  /** Also matches elements that take no space (a file input hidden behind its button). */
  hidden?: boolean;
}

/**
 * Every visible element matching `query`, in document order. Runs in the page: it must stay
 * self-contained (the drivers send its source).
 */
export function findElements(query: Query, root: ParentNode = document): Element[] {
  const normalise = (text: string | null | undefined) => (text ?? '').replace(/\s+/g, ' ').trim();
  const ROLES: Record<string, string> = {
    button: 'button, [role="button"], input[type="submit"], input[type="button"]',
    link: 'a[href], [role="link"]',
    dialog: 'dialog, [role="dialog"], [role="alertdialog"]',
    heading: 'h1, h2, h3, h4, h5, h6, [role="heading"]',
    list: 'ul, ol, [role="list"]',
    img: 'img, [role="img"]',
    menuitem: '[role="menuitem"]',
    tab: '[role="tab"]',
  };
  const nameOf = (element: Element): string => {
    const label = element.getAttribute('aria-label');
    if (label) return normalise(label);
    const labelledBy = element.getAttribute('aria-labelledby');
    if (labelledBy)
      return normalise(
        labelledBy
          .split(/\s+/)
          .map((id) => document.getElementById(id)?.textContent ?? '')
          .join(' '),
      );
    if (element instanceof HTMLImageElement) return normalise(element.alt);
    return normalise(element.textContent);
  };
  const shown = (element: Element) => {
    if (query.hidden) return true;
    if (element.getClientRects().length === 0) return false;
    return getComputedStyle(element).visibility !== 'hidden';
  };

  let scope: ParentNode = root;
  if (query.within) {
    const outer = findElements(query.within, root)[0];
    if (!outer) return [];
    scope = outer;
  }
  let found: Element[];
  if (query.label !== undefined) {
    found = Array.from(scope.querySelectorAll('label'))
      .filter((label) => normalise(label.textContent) === query.label)
      .map((label) => label.control)
      .filter((control): control is HTMLElement => control !== null);
  } else if (query.role) {
    found = Array.from(scope.querySelectorAll(ROLES[query.role] ?? `[role="${query.role}"]`));
  } else {
    found = Array.from(scope.querySelectorAll(query.css ?? '*'));
  }
  if (query.name !== undefined) {
    const wanted = query.name;
    found = found.filter((element) =>
      query.prefix ? nameOf(element).startsWith(wanted) : nameOf(element) === wanted,
    );
  }
  if (query.text !== undefined) {
    const wanted = query.text;
    found = found.filter((element) => normalise(element.textContent).includes(wanted));
  }
  return found.filter(shown);
}
