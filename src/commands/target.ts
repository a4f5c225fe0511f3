import type { Credentials } from '../config/credentials';
import { paint } from '../output/style';

/**
 * Where a confirmed request goes, at the start of its question, so a live profile is seen before
 * money moves: `[LIVE profile prod]`, `[profile ci]`, `[sandbox]`, `[keys from PAYCTL_KEY_ID]`.
 */
export function targetLabel(creds: Credentials, color: boolean): string {
  if (creds.live) return `[${paint('red', paint('bold', 'LIVE', color), color)} ${creds.source}]`;
  if (creds.source === 'environment') return '[keys from PAYCTL_KEY_ID]';
  return `[${creds.source}]`;
}
