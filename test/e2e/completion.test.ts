import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { run } from './harness';

const script = (shell: string) => readFileSync(new URL(`../../completions/${shell === 'bash' ? 'payctl.bash' : shell === 'zsh' ? '_payctl' : 'payctl.fish'}`, import.meta.url), 'utf8');

describe('shell completions', () => {
  it.each(['bash', 'zsh', 'fish'])('the checked-in %s script is what the generator prints', async (shell) => {
    const res = await run(['completion', shell]);
    expect(res.code, res.stderr).toBe(0);
    expect(res.stdout, `regenerate with: node bin/payctl.js completion ${shell} > completions/…`).toBe(script(shell));
  });

  /** Completes the words as bash would, with the generated script loaded into a real bash. */
  function complete(line: string[], cword: number): string[] {
    const words = line.map((w) => `'${w}'`).join(' ');
    const file = fileURLToPath(new URL('../../completions/payctl.bash', import.meta.url));
    const res = spawnSync('bash', ['-c', `source "$0"; COMP_WORDS=(${words}); COMP_CWORD=${cword}; _payctl; printf '%s\\n' "\${COMPREPLY[@]}"`, file], {
      encoding: 'utf8',
    });
    expect(res.status, res.stderr).toBe(0);
    return res.stdout.split('\n').filter(Boolean);
  }

  it('completes `payctl pay` to payments', () => {
    expect(complete(['payctl', 'pay'], 1)).toContain('payments');
  });

  it('completes `payctl payments ` to its subcommands', () => {
    expect(complete(['payctl', 'payments', ''], 2).sort()).toEqual(expect.arrayContaining(['capture', 'get', 'list', 'refund']));
  });

  it('completes option values: output formats and plan periods', () => {
    expect(complete(['payctl', 'orders', 'list', '-o', ''], 4).sort()).toEqual(['csv', 'json', 'ndjson', 'table']);
    expect(complete(['payctl', 'plans', 'create', '--period', 'm'], 4)).toEqual(['monthly']);
  });

  it('completes options of the command being typed, past option values', () => {
    expect(complete(['payctl', '-o', 'json', 'payments', 'capture', '--am'], 5)).toEqual(['--amount']);
  });
});

describe('help', () => {
  it.each([['wallet', 'statement'], ['payments', 'refund'], ['sandbox', 'clock', 'advance'], ['orders']])('`payctl help %s` prints what `--help` prints', async (...path) => {
    const viaHelp = await run(['help', ...path]);
    const viaFlag = await run([...path, '--help']);
    expect(viaHelp.code).toBe(0);
    expect(viaFlag.code).toBe(0);
    expect(viaHelp.stdout).toBe(viaFlag.stdout);
    expect(viaHelp.stdout).toContain(`Usage: payctl ${path.join(' ')}`);
  });

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
