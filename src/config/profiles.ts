import Conf from 'conf';
import { chmodSync } from 'node:fs';
import { UsageError } from '../contract/errors';
import { isJsonObject } from '../contract/values/json';

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

/** Stored key profiles. The file is created 0600 because it holds key secrets. */
export class ProfileStore {
  private readonly conf: Conf<Store>;

  constructor(dir: string) {
    this.conf = damaged(
      `${dir}/config.json`,
      () =>
        new Conf<Store>({
          cwd: dir,
          configName: 'config',
          projectName: 'payctl',
          configFileMode: 0o600,
          defaults: { profiles: {} },
        }),
    );
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

  /** The file as stored, checked: a damaged one names itself and what to do (exit 2), never a JSON parser's message. */
  private get store(): Store {
    const store = damaged(this.path, () => this.conf.store);
    if (
      !isJsonObject(store) ||
      (store.profiles !== undefined && (typeof store.profiles !== 'object' || store.profiles === null))
    ) {
      throw damagedFile(this.path, 'it does not hold profiles');
    }
    return store;
  }

  list(): Array<{ name: string; profile: Profile; isDefault: boolean }> {
    const store = this.store;
    return Object.entries(store.profiles ?? {}).map(([name, profile]) => ({
      name,
      profile,
      isDefault: store.default === name,
    }));
  }

  get(name: string): Profile | undefined {
    const profile = this.store.profiles?.[name] as Partial<Profile> | undefined;
    if (profile === undefined) return undefined;
    const missing = (['key_id', 'key_secret', 'base_url'] as const).filter(
      (k) => typeof profile?.[k] !== 'string' || !profile[k],
    );
    if (missing.length) {
      throw new UsageError(
        `profile "${name}" in ${this.path} is incomplete (no ${missing.join(', ')}): ` +
          `add it again with \`payctl profile add ${name}\`; nothing was sent`,
      );
    }
    return { ...profile, live: profile.live === true } as Profile;
  }

  get defaultName(): string | undefined {
    const name = this.store.default;
    return typeof name === 'string' ? name : undefined;
  }

  save(name: string, profile: Profile, makeDefault: boolean): void {
    const store = this.store;
    const next: Store = { ...store, profiles: { ...store.profiles, [name]: profile } };
    if (makeDefault || !store.default) next.default = name;
    this.conf.store = next;
  }

  setDefault(name: string): void {
    damaged(this.path, () => this.conf.set('default', name));
  }

  remove(name: string): void {
    const store = this.store;
    const profiles = { ...store.profiles };
    delete profiles[name];
    const next: Store = { profiles };
    if (store.default && store.default !== name) next.default = store.default;
    this.conf.store = next;
  }
}

function damagedFile(path: string, what: string): UsageError {
  return new UsageError(
    `the config file ${path} is damaged (${what}): fix it, ` +
      'or move it aside and add your profiles again with `payctl profile add`; nothing was sent',
  );
}

/** Runs a read of the config file; a file that is not JSON becomes one line naming it and what to do. */
function damaged<T>(path: string, read: () => T): T {
  try {
    return read();
  } catch (err) {
    if ((err as Error)?.name === 'SyntaxError') throw damagedFile(path, 'it is not valid JSON');
    throw err;
  }
}
