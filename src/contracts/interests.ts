/** Interest choices of docs/product.md "Interests": the two lists differ only in Pets (signup) and Cosplay (settings). */
const COMMON_HEAD = [
  'Tech',
  'Gaming',
  'Music',
  'Movies',
  'Fitness',
  'Travel',
  'Anime',
  'Fashion',
  'Food',
  'Art',
  'Science',
  'Education',
  'Coding',
  'Sports',
  'Business',
  'News',
  'Photography',
  'Writing',
  'DIY',
  'Parenting',
  'Finance',
  'Comics',
  'Streaming',
] as const;

export const SIGNUP_INTERESTS: readonly string[] = [...COMMON_HEAD, 'Pets', 'History'];
export const SETTINGS_INTERESTS: readonly string[] = [...COMMON_HEAD, 'Cosplay', 'History'];

/**
 * The settings choices plus every interest the member holds outside them (a signup-only Pets),
 * docs/decisions.md "Interests outside the list": shown checked so saving never drops them silently, and still shown
 * after unchecking, so the member can change their mind before saving.
 */
export function choicesWithHeld(choices: readonly string[], held: readonly string[]): string[] {
  return [...choices, ...held.filter((interest) => !choices.includes(interest))];
}

/** Interests travel comma-joined in multipart forms. */
export function parseInterests(value: string | readonly string[] | undefined): string[] {
  const parts = typeof value === 'string' ? value.split(',') : (value ?? []);
  const seen = new Set<string>();
  const out: string[] = [];
  for (const raw of parts) {
    const item = raw.trim();
    if (item && !seen.has(item.toLowerCase())) {
      seen.add(item.toLowerCase());
      out.push(item);
    }
  }
  return out;
}
