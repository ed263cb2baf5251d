/**
 * The lower-cased keys a member is found by. A username and an email are matched on their keys,
 * so `Ada` and ` ada ` name the same member; every lookup and every write goes through these.
 */

/** The key a username is stored and matched under. */
export const usernameKey = (username: string): string => username.trim().toLowerCase();

/** The key an email is stored and matched under. */
export const emailKey = (email: string): string => email.trim().toLowerCase();

/** The lower-cased columns search reads; written whenever a username or name changes. */
export function searchKeys(username: string, firstName: string, lastName: string) {
  return {
    full_name_key: `${firstName} ${lastName}`.trim().toLowerCase(),
    last_name_key: lastName.trim().toLowerCase(),
    search_text: `${username} ${firstName} ${lastName}`.toLowerCase(),
  };
}
