import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BIN, run } from './harness';
import { needs } from '../tools';
import { shq, tmuxTerminal } from './tmux';
import { createProgram } from '../../src/cli/program';
import type { IO } from '../../src/commands/context';

const script = (shell: string) =>
  readFileSync(
    new URL(
      `../../completions/${shell === 'bash' ? 'payctl.bash' : shell === 'zsh' ? '_payctl' : 'payctl.fish'}`,
      import.meta.url,
    ),
    'utf8',
  );

const PROFILES = ['alpha-prod', 'beta-test'];

/** A directory with files to complete, payctl on PATH (as installed) and two stored profiles. */
const shell = { dir: '', home: '', env: {} as NodeJS.ProcessEnv };
beforeAll(async () => {
  shell.dir = mkdtempSync(join(tmpdir(), 'payctl-completion-'));
  shell.home = join(shell.dir, 'home');
  mkdirSync(join(shell.dir, 'bin'));
  writeFileSync(join(shell.dir, 'bin', 'payctl'), `#!/bin/sh\nexec ${shq(process.execPath)} ${shq(BIN)} "$@"\n`, {
    mode: 0o755,
  });
  for (const f of ['refunds.csv', 'refunds.txt', 'export.json']) writeFileSync(join(shell.dir, f), '');
  for (const name of PROFILES) {
    const res = await run(
      ['profile', 'add', name, '--key-id', 'rzp_test_completion', '--base-url', 'https://api.example.com/v1'],
      {
        env: { PAYCTL_HOME: shell.home, PAYCTL_KEY_SECRET: 'completion-test-secret' },
      },
    );
    expect(res.code, res.stderr).toBe(0);
  }
  shell.env = { ...process.env, PATH: `${join(shell.dir, 'bin')}:${process.env.PATH}`, PAYCTL_HOME: shell.home };
});
afterAll(() => rmSync(shell.dir, { recursive: true, force: true }));

describe('shell completions', () => {
  it.each(['bash', 'zsh', 'fish'])(
    'the packaged %s script (written by the build) is what `payctl completion` prints',
    async (shell) => {
      const res = await run(['completion', shell]);
      expect(res.code, res.stderr).toBe(0);
      expect(res.stdout, 'npm run build writes completions/').toBe(script(shell));
    },
  );

  /** Completes the words as bash would, with the generated script loaded into a real bash. */
  function complete(line: string[], cword: number, cwd?: string): string[] {
    const words = line.map((w) => `'${w}'`).join(' ');
    const file = fileURLToPath(new URL('../../completions/payctl.bash', import.meta.url));
    const res = spawnSync(
      'bash',
      [
        '-c',
        `source "$0"; COMP_WORDS=(${words}); COMP_CWORD=${cword}; _payctl; printf '%s\\n' "\${COMPREPLY[@]}"`,
        file,
      ],
      {
        encoding: 'utf8',
        cwd: cwd ?? shell.dir,
        env: shell.env,
      },
    );
    expect(res.status, res.stderr).toBe(0);
    return res.stdout.split('\n').filter(Boolean);
  }

  it('completes `payctl pay` to payments', () => {
    expect(complete(['payctl', 'pay'], 1)).toContain('payments');
  });

  it('completes `payctl payments ` to its subcommands', () => {
    expect(complete(['payctl', 'payments', ''], 2).sort()).toEqual(
      expect.arrayContaining(['capture', 'get', 'list', 'refund']),
    );
  });

  it('completes option values: output formats and plan periods', () => {
    expect(complete(['payctl', 'orders', 'list', '-o', ''], 4).sort()).toEqual(['csv', 'json', 'ndjson', 'table']);
    expect(complete(['payctl', 'plans', 'create', '--period', 'm'], 4)).toEqual(['monthly']);
  });

  it('completes options of the command being typed, past option values', () => {
    expect(complete(['payctl', '-o', 'json', 'payments', 'capture', '--am'], 5)).toEqual(['--amount']);
    expect(complete(['payctl', 'payments', 'get', 'pay_29QQoUBi66xm2f', '--fi'], 4)).toEqual(['--fields']);
  });

  it('bash: files after --input, --out and --journal; nothing (not option names) where a value is typed', () => {
    expect(complete(['payctl', 'payments', 'refund', '--input', 'ref'], 4).sort()).toEqual([
      'refunds.csv',
      'refunds.txt',
    ]);
    expect(complete(['payctl', 'orders', 'list', '--out', 'ex'], 4)).toEqual(['export.json']);
    expect(complete(['payctl', 'payments', 'capture', '--journal', ''], 4)).toEqual(
      expect.arrayContaining(['export.json', 'refunds.csv']),
    );
    expect(complete(['payctl', 'payments', 'refund', '--amount', ''], 4)).toEqual([]);
  });

  it('bash: shells after `completion`, profile names after -p, --profile and `profile use`', () => {
    expect(complete(['payctl', 'completion', ''], 2)).toEqual(['bash', 'zsh', 'fish']);
    expect(complete(['payctl', '-p', ''], 2)).toEqual(PROFILES);
    expect(complete(['payctl', 'orders', 'list', '--profile', 'b'], 4)).toEqual(['beta-test']);
    expect(complete(['payctl', 'profile', 'use', ''], 3)).toEqual(PROFILES);
  });

  /** fish's own completion engine, asked as if Tab were pressed after `line`. */
  function fish(line: string): string[] {
    needs('fish');
    const file = fileURLToPath(new URL('../../completions/payctl.fish', import.meta.url));
    const res = spawnSync('fish', ['--no-config', '-c', `source ${file}; complete -C ${JSON.stringify(line)}`], {
      encoding: 'utf8',
      cwd: shell.dir,
      env: shell.env,
    });
    expect(res.status, res.stderr).toBe(0);
    return res.stdout
      .split('\n')
      .filter(Boolean)
      .map((l) => l.split('\t')[0]!);
  }

  it('fish: short options are declared, so `payctl -p <Tab>` lists profiles', () => {
    expect(fish('payctl -p ')).toEqual(PROFILES);
    expect(fish('payctl orders list --profile ')).toEqual(PROFILES);
    expect(fish('payctl -o ')).toEqual(['csv', 'json', 'ndjson', 'table']);
    expect(fish('payctl -p alpha-prod pay')).toEqual(['payments']);
  });

  it('fish: shells after `completion`, files after --input, options past an id', () => {
    expect(fish('payctl completion ').sort()).toEqual(['bash', 'fish', 'zsh']);
    expect(fish('payctl payments refund --input ref').sort()).toEqual(['refunds.csv', 'refunds.txt']);
    expect(fish('payctl profile use ')).toEqual(PROFILES);
    expect(fish('payctl payments get pay_29QQoUBi66xm2f --fi')).toEqual(['--fields']);
  });

  it('zsh: installed into fpath as docs/integrators.md says, the first Tab of a new shell with compinit completes', async () => {
    needs('zsh', 'tmux');
    const zdot = join(shell.dir, 'zdot');
    const zfunc = join(shell.dir, 'zfunc');
    mkdirSync(zdot);
    mkdirSync(zfunc);
    // docs/integrators.md: payctl completion zsh > "${fpath[1]}/_payctl"
    const out = await run(['completion', 'zsh']);
    writeFileSync(join(zfunc, '_payctl'), out.stdout);
    writeFileSync(
      join(zdot, '.zshrc'),
      `export PATH=${shq(join(shell.dir, 'bin'))}:$PATH\nfpath=(${shq(zfunc)} $fpath)\nautoload -Uz compinit && compinit -u -d ${shq(join(zdot, '.zcompdump'))}\nPS1='%% '\n`,
    );
    const term = tmuxTerminal({
      width: 100,
      command: `cd ${shq(shell.dir)} && exec zsh`,
      env: { ZDOTDIR: zdot, PAYCTL_HOME: shell.home, TERM: 'xterm' },
    });
    try {
      await term.waitFor(/^% $/m);
      term.keys('payctl -p ', 'Tab');
      await term.waitFor(/alpha-prod\s+beta-test/);
      term.keys('C-u', 'payctl completion ', 'Tab');
      await term.waitFor(/bash\s+fish\s+zsh/);
      term.keys('C-u', 'payctl profile use b', 'Tab');
      await term.waitFor(/% payctl profile use beta-test/);
      term.keys('C-u', 'payctl payments refund --input ref', 'Tab');
      await term.waitFor(/--input refunds\.$/m); // the common prefix first, as zsh does
      term.keys('Tab');
      await term.waitFor(/refunds\.csv\s+refunds\.txt/);
      term.keys('C-u', 'payctl pay', 'Tab');
      await term.waitFor(/% payctl payments *$/m);
      // The completion left PATH alone (a `local path` would have emptied it).
      term.keys('C-u', 'command -v payctl && echo path-ok', 'Enter');
      await term.waitFor(/^path-ok$/m);
    } finally {
      term.close();
    }
  });
});

describe('zsh at 80x24: after a group, its commands', () => {
  /** Each group and its commands, from the command tree the program declares. */
  const groups = createProgram(() => (async () => undefined) as never, {} as IO, {})
    .commands.filter((c) => c.commands.filter((sub) => !sub.name().startsWith('__')).length)
    .map((c) => [c.name(), c.commands.map((sub) => sub.name())] as const);

  it('Tab after every group lists its commands and no option; after a `-`, the options', async () => {
    needs('zsh', 'tmux');
    const zdot = join(shell.dir, 'zdot-groups');
    mkdirSync(zdot);
    writeFileSync(join(zdot, '_payctl'), (await run(['completion', 'zsh'])).stdout);
    writeFileSync(
      join(zdot, '.zshrc'),
      `export PATH=${shq(join(shell.dir, 'bin'))}:$PATH\nfpath=(${shq(zdot)} $fpath)\nautoload -Uz compinit && compinit -u -d ${shq(join(zdot, '.zcompdump'))}\nPS1='%% '\n`,
    );
    const term = tmuxTerminal({
      width: 80,
      height: 24,
      command: `cd ${shq(shell.dir)} && exec zsh`,
      env: { ZDOTDIR: zdot, PAYCTL_HOME: shell.home, TERM: 'xterm' },
    });
    /** What the terminal shows below `line` once Tab has listed every word of `words` there. */
    const tab = async (line: string, words: readonly string[]) => {
      const mark = `mark-${line.replace(/\W+/g, '-')}`;
      term.keys('C-u', 'clear', 'Enter');
      term.keys(`echo ${mark}`, 'Enter');
      await term.waitFor(new RegExp(`^${mark}$`, 'm'));
      term.keys(line, 'Tab');
      const all = words.map((w) => `(?=[\\s\\S]*(^|\\s)${w}(\\s|$))`).join('');
      const screen = await term.waitFor(new RegExp(`^${mark}\\n% ${line}\\n${all}`, 'm'));
      return screen
        .slice(screen.lastIndexOf(`${mark}\n`))
        .split('\n')
        .slice(2)
        .join('\n');
    };
    try {
      await term.waitFor(/^% $/m);
      expect(groups.length).toBeGreaterThanOrEqual(10);
      for (const [group, commands] of groups) {
        if (commands.length === 1) {
          // One command: zsh writes it on the line.
          term.keys('C-u', `payctl ${group} `, 'Tab');
          await term.waitFor(new RegExp(`^% payctl ${group} ${commands[0]} +$`, 'm'));
          continue;
        }
        const below = await tab(`payctl ${group} `, commands);
        expect(below, group).not.toMatch(/--base-url|--profile|--dry-run/);
      }
      const options = await tab('payctl orders --', ['--base-url', '--dry-run', '--profile']);
      expect(options).not.toMatch(/(^|\s)create(\s|$)/m);
    } finally {
      term.close();
    }
  });
});

describe('help', () => {
  it.each([['wallet', 'statement'], ['payments', 'refund'], ['sandbox', 'clock', 'advance'], ['orders']])(
    '`payctl help %s` prints what `--help` prints',
    async (...path) => {
      const viaHelp = await run(['help', ...path]);
      const viaFlag = await run([...path, '--help']);
      expect(viaHelp.code).toBe(0);
      expect(viaFlag.code).toBe(0);
      expect(viaHelp.stdout).toBe(viaFlag.stdout);
      expect(viaHelp.stdout).toContain(`Usage: payctl ${path.join(' ')}`);
    },
  );

  it.each([
    [['paymnets'], 'payments'],
    [['payments', 'refnd'], 'refund'],
    [['wallet', 'statment'], 'statement'],
  ])('an unknown command %j suggests %s and exits 2', async (args, suggestion) => {
    const res = await run(args);
    expect(res.code).toBe(2);
    expect(res.stderr).toContain(`Did you mean ${suggestion}?`);
  });
});
