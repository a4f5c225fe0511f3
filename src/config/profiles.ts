import Conf from 'conf';
import { chmodSync } from 'node:fs';

export interface Profile {
  key_id: string;
  key_secret: string;
  base_url: string;
  live: boolean;
}

interface Store {
  default?: string;
  profiles: Record<string, Profile>;
}

export const PROFILE_NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,39}$/;

/** Stored key profiles. The file is created 0600 because it holds key secrets. */
export class ProfileStore {
  private readonly conf: Conf<Store>;

  constructor(dir: string) {
    this.conf = new Conf<Store>({
      cwd: dir,
      configName: 'config',
      projectName: 'payctl',
      configFileMode: 0o600,
      defaults: { profiles: {} },
    });
    // conf applies the mode when it writes; a file created by an older version is tightened too.
    try {
      chmodSync(this.conf.path, 0o600);
    } catch {
      /* not written yet */
    }
  }

  get path(): string {
    return this.conf.path;
  }

  list(): Array<{ name: string; profile: Profile; isDefault: boolean }> {
    const store = this.conf.store;
    return Object.entries(store.profiles ?? {}).map(([name, profile]) => ({ name, profile, isDefault: store.default === name }));
  }

  get(name: string): Profile | undefined {
    return this.conf.store.profiles?.[name];
  }

  get defaultName(): string | undefined {
    return this.conf.store.default;
  }

  save(name: string, profile: Profile, makeDefault: boolean): void {
    const store = this.conf.store;
    const next: Store = { ...store, profiles: { ...store.profiles, [name]: profile } };
    if (makeDefault || !store.default) next.default = name;
    this.conf.store = next;
  }

  setDefault(name: string): void {
    this.conf.set('default', name);
  }

  remove(name: string): void {
    const store = this.conf.store;
    const profiles = { ...store.profiles };
    delete profiles[name];
    const next: Store = { profiles };
    if (store.default && store.default !== name) next.default = store.default;
    this.conf.store = next;
  }
}

/** `rzp_test_abcd…wxyz` style: enough to recognise a key, never enough to use it. */
export function maskSecret(secret: string): string {
  if (!secret) return '';
  return secret.length <= 8 ? '****' : `****${secret.slice(-4)}`;
}
