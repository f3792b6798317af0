/** How the back office names a person: first and last name, or the e-mail address when the profile has none. */
export function displayName(first: string | null | undefined, last: string | null | undefined, email: string): string {
  const full = `${first ?? ""} ${last ?? ""}`.trim();
  return full || email;
}
