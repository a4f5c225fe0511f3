import type Conf from 'conf';
import { chmodSync, readFileSync } from 'node:fs';
import { UsageError } from '../contract/errors';
import { isJsonObject } from '../contract/values/json';
import { withoutSignalHooks } from './signal-hooks';

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

/**
 * Stored key profiles. The file is created 0600 because it holds key secrets. Reads parse the file as
 * it is; conf (and its dependencies) load only for a write.
 */
export class ProfileStore {
  private conf?: Conf<Store>;
  readonly path: string;

  constructor(private readonly dir: string) {
    this.path = `${dir}/config.json`;
    // conf applies the mode when it writes; a file created by an older version is tightened too.
    try {
      chmodSync(this.path, 0o600);
    } catch {
      /* not written yet */
    }
  }

  /** conf over the same file, loaded without the signal listeners its dependencies install. */
  private async writer(): Promise<Conf<Store>> {
    if (this.conf) return this.conf;
    const { default: Conf } = await withoutSignalHooks(() => import('conf'));
    this.conf = damaged(
      this.path,
      () =>
        new Conf<Store>({
          cwd: this.dir,
          configName: 'config',
          projectName: 'payctl',
          configFileMode: 0o600,
          defaults: { profiles: {} },
        }),
    );
    return this.conf;
  }

  /** The file as stored, checked: a damaged one names itself and what to do (exit 2), never a JSON parser's message. */
  private get store(): Store {
    const store = damaged(this.path, () => {
      try {
        return JSON.parse(readFileSync(this.path, 'utf8')) as unknown;
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { profiles: {} };
        throw err;
      }
    });
    if (
      !isJsonObject(store) ||
      (store.profiles !== undefined && (typeof store.profiles !== 'object' || store.profiles === null))
    ) {
      throw damagedFile(this.path, 'it does not hold profiles');
    }
    return store as unknown as Store;
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

  async save(name: string, profile: Profile, makeDefault: boolean): Promise<void> {
    const conf = await this.writer();
    const store = this.store;
    const next: Store = { ...store, profiles: { ...store.profiles, [name]: profile } };
    if (makeDefault || !store.default) next.default = name;
    conf.store = next;
  }

  async setDefault(name: string): Promise<void> {
    const conf = await this.writer();
    damaged(this.path, () => conf.set('default', name));
  }

  async remove(name: string): Promise<void> {
    const conf = await this.writer();
    const store = this.store;
    const profiles = { ...store.profiles };
    delete profiles[name];
    const next: Store = { profiles };
    if (store.default && store.default !== name) next.default = store.default;
    conf.store = next;
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
