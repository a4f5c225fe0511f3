import { chmodSync, closeSync, fsyncSync, openSync, readFileSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { writableDir } from './writable';
import { join } from 'node:path';
import { UsageError } from '../contract/errors';
import { isJsonObject } from '../contract/values/json';
import { withFileLock } from './file-lock';

/** A stored profile: the secret itself (`key_secret`) or the command that prints it at use (`key_secret_command`). */
export interface Profile {
  key_id: string;
  key_secret?: string;
  key_secret_command?: string;
  base_url: string;
  live: boolean;
  /** A PEM file of CAs trusted for this profile's service, in addition to the system's. */
  ca_file?: string;
}

interface Store {
  default?: string;
  profiles: Record<string, Profile>;
}

/**
 * Stored key profiles in `config.json`, created 0600 because it may hold key secrets. Every change is a
 * read-modify-write under a lock file and lands by an atomic rename, so concurrent `profile add`, `use`,
 * `remove` and `sandbox start` never lose each other's change and a reader never sees half a file.
 */
export class ProfileStore {
  readonly path: string;

  constructor(private readonly dir: string) {
    this.path = join(dir, 'config.json');
    // A file written by an older version is tightened too.
    try {
      chmodSync(this.path, 0o600);
    } catch {
      /* not written yet */
    }
  }

  /** The file as stored, checked: a damaged one names itself and what to do (exit 2), never a JSON parser's message. */
  private read(): Store {
    let text: string;
    try {
      text = readFileSync(this.path, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { profiles: {} };
      throw err;
    }
    let store: unknown;
    try {
      store = JSON.parse(text);
    } catch {
      throw damagedFile(this.path, 'it is not valid JSON');
    }
    if (!isJsonObject(store)) throw damagedFile(this.path, 'it does not hold profiles');
    const profiles = (store as { profiles?: unknown }).profiles;
    if (profiles !== undefined && !isJsonObject(profiles)) throw damagedFile(this.path, 'it does not hold profiles');
    return { ...(store as object), profiles: (profiles ?? {}) as Record<string, Profile> } as Store;
  }

  private write(store: Store): void {
    writableDir(this.dir, 'config directory', 0o700);
    const temp = `${this.path}.${process.pid}.${process.getBuiltinModule('node:crypto').randomBytes(4).toString('hex')}.tmp`;
    const fd = openSync(temp, 'wx', 0o600);
    try {
      writeSync(fd, `${JSON.stringify(store, null, '\t')}\n`);
      fsyncSync(fd);
    } catch (err) {
      closeSync(fd);
      unlinkSync(temp);
      throw err;
    }
    closeSync(fd);
    renameSync(temp, this.path);
  }

  /** One read-modify-write under the lock. */
  private update(change: (store: Store) => Store): void {
    writableDir(this.dir, 'config directory', 0o700);
    withFileLock(this.path, () => this.write(change(this.read())));
  }

  list(): Array<{ name: string; profile: Profile; isDefault: boolean }> {
    const store = this.read();
    return Object.entries(store.profiles).map(([name, profile]) => ({
      name,
      profile,
      isDefault: store.default === name,
    }));
  }

  get(name: string): Profile | undefined {
    const profile = this.read().profiles[name] as Partial<Profile> | undefined;
    if (profile === undefined) return undefined;
    const has = (k: keyof Profile) => typeof profile?.[k] === 'string' && Boolean(profile[k]);
    const secret = has('key_secret') || has('key_secret_command');
    const missing = (['key_id', 'key_secret', 'base_url'] as const).filter((k) =>
      k === 'key_secret' ? !secret : !has(k),
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
    const name = this.read().default;
    return typeof name === 'string' ? name : undefined;
  }

  save(name: string, profile: Profile, makeDefault: boolean): void {
    this.update((store) => ({
      ...store,
      profiles: { ...store.profiles, [name]: profile },
      default: makeDefault || !store.default ? name : store.default,
    }));
  }

  /** Makes `name` the default; false (and nothing written) if no such profile exists any more. */
  setDefault(name: string): boolean {
    let found = false;
    this.update((store) => {
      found = name in store.profiles;
      return found ? { ...store, default: name } : store;
    });
    return found;
  }

  /** Removes `name`; false if it was not there. */
  remove(name: string): boolean {
    let found = false;
    this.update((store) => {
      found = name in store.profiles;
      const profiles = { ...store.profiles };
      delete profiles[name];
      const next: Store = { ...store, profiles };
      if (store.default === name) delete next.default;
      return next;
    });
    return found;
  }
}

function damagedFile(path: string, what: string): UsageError {
  return new UsageError(
    `the config file ${path} is damaged (${what}): fix it, ` +
      'or move it aside and add your profiles again with `payctl profile add`; nothing was sent',
  );
}
