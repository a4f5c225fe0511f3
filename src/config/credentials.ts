import { AuthError, UsageError } from '../contract/errors';
import { checkBaseUrl } from './base-url';
import type { ProfileStore } from './profiles';
import { knownSecret } from './secrets';

/** A key is live when its id says so, wherever it comes from, as well as when its profile is marked live. */
export const isLiveKey = (keyId: string) => keyId.startsWith('rzp_live_');

export interface Credentials {
  keyId: string;
  /** Empty when `secretCommand` gives it: the command runs only when a request needs the secret. */
  keySecret: string;
  /** A shell command that prints the key secret (a secret manager), run at use. */
  secretCommand?: string;
  /** A PEM file of CAs the profile trusts for its service, in addition to the system's. */
  caFile?: string;
  baseUrl: string;
  live: boolean;
  /** Where they came from, for messages: a profile name, `environment` or `sandbox`. */
  source: string;
}

interface CredentialInputs {
  /** PAYCTL_KEY_ID and PAYCTL_KEY_SECRET. */
  keyEnv: { keyId?: string; keySecret?: string };
  /** -p or PAYCTL_PROFILE. */
  profile?: string;
  /** --base-url, else PAYCTL_BASE_URL. */
  baseUrl?: string;
  store: () => ProfileStore;
}

function baseUrlOrThrow(raw: string): string {
  const checked = checkBaseUrl(raw);
  if (!checked.ok) throw new UsageError(checked.error);
  return checked.value;
}

/**
 * The active credentials: PAYCTL_KEY_ID + PAYCTL_KEY_SECRET act as an ad-hoc profile and win over
 * stored ones; otherwise --profile, PAYCTL_PROFILE, then the default profile. --base-url and
 * PAYCTL_BASE_URL override the profile's URL.
 */
export function resolveCredentials(input: CredentialInputs): Credentials {
  const { keyId, keySecret } = input.keyEnv;
  const urlOverride = input.baseUrl;
  if (keyId && keySecret) {
    if (!urlOverride)
      throw new UsageError(
        'PAYCTL_KEY_ID and PAYCTL_KEY_SECRET need a base URL: set PAYCTL_BASE_URL or pass --base-url',
      );
    knownSecret(keyId, keySecret);
    return {
      keyId,
      keySecret,
      baseUrl: baseUrlOrThrow(urlOverride),
      live: isLiveKey(keyId),
      source: 'environment',
    };
  }
  const store = input.store();
  const name = input.profile ?? store.defaultName;
  if (!name) {
    throw new AuthError(
      'no credentials configured: run `payctl profile add NAME`, ' +
        'set PAYCTL_KEY_ID and PAYCTL_KEY_SECRET, or use --sandbox',
    );
  }
  const profile = store.get(name);
  if (!profile) throw new AuthError(`no profile named "${name}": see \`payctl profile list\``);
  knownSecret(profile.key_id, profile.key_secret);
  return {
    keyId: profile.key_id,
    keySecret: profile.key_secret ?? '',
    secretCommand: profile.key_secret ? undefined : profile.key_secret_command,
    caFile: profile.ca_file,
    baseUrl: baseUrlOrThrow(urlOverride ?? profile.base_url),
    live: profile.live || isLiveKey(profile.key_id),
    source: `profile ${name}`,
  };
}
