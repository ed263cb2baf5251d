/**
 * What a write waiting in the offline outbox is, in the member's words (docs/product.md "Offline,
 * install and push"): the top bar's count, the logout prompt and Settings' section.
 */
/** Settings' section and the top bar's link to it. */
export const OUTBOX_SECTION = { id: 'outbox', label: 'Waiting to send' } as const;
export const OUTBOX_SECTION_PATH = `/settings#settings-${OUTBOX_SECTION.id}`;

/** The top bar's count, as said to assistive technology: `3 changes waiting to send`. */
export const waitingLabel = (count: number) =>
  `${count} ${count === 1 ? 'change' : 'changes'} waiting to send`;

/** The logout prompt's question. */
export const logoutQuestion = (count: number) =>
  count === 1
    ? '1 change hasn’t been sent. Log out and discard it?'
    : `${count} changes haven’t been sent. Log out and discard them?`;
