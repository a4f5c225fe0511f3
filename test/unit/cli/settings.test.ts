import { describe, expect, it } from 'vitest';
import { settingsFrom } from '../../../src/cli/settings';
import type { IO } from '../../../src/commands/context';

const io = { stdinIsTTY: false, stdoutIsTTY: false, stderrIsTTY: false } as IO;

/** The environment is read once, here: what handlers get of it is typed settings. */
describe('settings from flags and the environment', () => {
  it('-p wins over PAYCTL_PROFILE, which is used without it', () => {
    expect(settingsFrom({ profile: 'a' }, { PAYCTL_PROFILE: 'b' }, io).profile).toBe('a');
    expect(settingsFrom({}, { PAYCTL_PROFILE: 'b' }, io).profile).toBe('b');
    expect(settingsFrom({}, {}, io).profile).toBeUndefined();
  });

  it('environment credentials: an empty variable is unset', () => {
    expect(settingsFrom({}, { PAYCTL_KEY_ID: 'rzp_test_1', PAYCTL_KEY_SECRET: 's' }, io).keyEnv).toEqual({
      keyId: 'rzp_test_1',
      keySecret: 's',
    });
    expect(settingsFrom({}, { PAYCTL_KEY_ID: '', PAYCTL_KEY_SECRET: 's' }, io).keyEnv).toEqual({
      keyId: undefined,
      keySecret: 's',
    });
  });

  it('--base-url and PAYCTL_BASE_URL stay apart (profile add asks unless --base-url)', () => {
    const s = settingsFrom({}, { PAYCTL_BASE_URL: 'https://x.example/v1' }, io);
    expect([s.baseUrl, s.baseUrlEnv]).toEqual([undefined, 'https://x.example/v1']);
  });

  it('notices: off with PAYCTL_NO_NOTICES other than 0', () => {
    expect(settingsFrom({}, { PAYCTL_NO_NOTICES: '1' }, io).notices.enabled).toBe(false);
    expect(settingsFrom({}, { PAYCTL_NO_NOTICES: '0' }, io).notices.enabled).toBe(true);
    expect(settingsFrom({}, { TMUX_PANE: '%3' }, io).notices).toEqual({ enabled: true, terminal: '%3' });
  });

  it('PAYCTL_HOME puts every directory in one place; PAYCTL_MAX_RETRIES is kept as given', () => {
    const s = settingsFrom({}, { PAYCTL_HOME: '/tmp/h', PAYCTL_MAX_RETRIES: '2' }, io);
    expect(s.paths).toEqual({ config: '/tmp/h', data: '/tmp/h', state: '/tmp/h' });
    expect(s.maxRetries).toBe('2');
  });
});
