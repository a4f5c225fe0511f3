import { homedir } from 'node:os';
import { join } from 'node:path';

export interface PayctlPaths {
  config: string;
  data: string;
  state: string;
}

/**
 * Where payctl keeps things. `PAYCTL_HOME` puts everything in one directory (tests and CI use it);
 * otherwise the platform's usual config, data and state directories.
 */
export function payctlPaths(env: NodeJS.ProcessEnv, platform = process.platform): PayctlPaths {
  if (env.PAYCTL_HOME) return { config: env.PAYCTL_HOME, data: env.PAYCTL_HOME, state: env.PAYCTL_HOME };
  const home = env.HOME || homedir();
  if (platform === 'darwin') {
    const base = join(home, 'Library');
    return {
      config: join(base, 'Preferences', 'payctl'),
      data: join(base, 'Application Support', 'payctl'),
      state: join(base, 'Application Support', 'payctl', 'state'),
    };
  }
  if (platform === 'win32') {
    const appData = env.APPDATA || join(home, 'AppData', 'Roaming');
    const local = env.LOCALAPPDATA || join(home, 'AppData', 'Local');
    return { config: join(appData, 'payctl'), data: join(local, 'payctl'), state: join(local, 'payctl', 'state') };
  }
  return {
    config: join(env.XDG_CONFIG_HOME || join(home, '.config'), 'payctl'),
    data: join(env.XDG_DATA_HOME || join(home, '.local', 'share'), 'payctl'),
    state: join(env.XDG_STATE_HOME || join(home, '.local', 'state'), 'payctl'),
  };
}

export const sandboxDbPath = (paths: PayctlPaths) => join(paths.data, 'sandbox.db');
