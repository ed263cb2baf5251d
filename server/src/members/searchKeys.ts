/** The lower-cased columns search reads; written whenever a username or name changes. */
export function searchKeys(username: string, firstName: string, lastName: string) {
  return {
    full_name_key: `${firstName} ${lastName}`.trim().toLowerCase(),
    last_name_key: lastName.trim().toLowerCase(),
    search_text: `${username} ${firstName} ${lastName}`.toLowerCase(),
  };
}
