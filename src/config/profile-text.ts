// What the profile commands show and check, apart from the store (which loads only when a command needs it).

export const PROFILE_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,39}$/;

/** `rzp_test_abcd…wxyz` style: enough to recognise a key, never enough to use it. */
export function maskSecret(secret: string): string {
  if (!secret) return '';
  return secret.length <= 8 ? '****' : `****${secret.slice(-4)}`;
}
