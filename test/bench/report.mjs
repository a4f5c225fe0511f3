// docs/benchmarks.md, written by `npm run bench` from the run it just made: when, on which Nodes and
// which machine, each target side by side, and every line the run printed.
import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { arch, cpus, loadavg, platform, release, totalmem } from 'node:os';

const machine = () => {
  const cores = cpus();
  let distro = '';
  try {
    distro = execFileSync('sh', ['-c', '. /etc/os-release && echo "$PRETTY_NAME"'], { encoding: 'utf8' }).trim();
  } catch {
    // not Linux, or no os-release: the kernel release says enough
  }
  return [
    `${cores.length} × ${cores[0]?.model.trim() ?? 'unknown CPU'}`,
    `${(totalmem() / 2 ** 30).toFixed(1)} GiB memory`,
    `${distro || platform()} (${platform()} ${release()}, ${arch()})`,
  ].join(', ');
};

/**
 * Writes `path`: `table` is the side-by-side rows (header first), `lines` each Node line's results
 * ({ node, log }), `command` what was run, `load` the load averages when the run started.
 */
export function writeBenchmarksPage(path, { table, lines, command, started, load }) {
  const md = (row) => `| ${row.join(' | ')} |`;
  const out = [
    '# Benchmarks',
    '',
    `Written by \`npm run bench\` (\`${command}\`): the figures of its last run. Ratios, never pass/fail`,
    'times: every contender runs interleaved with the others in one run, and each figure is a median.',
    '',
    `- date: ${started.toISOString().slice(0, 16).replace('T', ' ')} UTC`,
    `- the run took ${((Date.now() - started.getTime()) / 60_000).toFixed(1)} minutes`,
    `- Node: ${lines.map((l) => l.node).join(', ')}`,
    `- machine: ${machine()}`,
    `- load average when it started: ${load.map((l) => l.toFixed(2)).join(', ')} (1, 5, 15 minutes)`,
    '',
  ];
  if (table.length > 1) {
    out.push(
      '## Targets side by side',
      '',
      'Each target against its anchor, judged on the figure shown first: CPU time (user + system) for',
      'start-up, wall time for the rest; the other figure in brackets.',
      '',
    );
    out.push(md(table[0]), md(table[0].map(() => '---')), ...table.slice(1).map(md), '');
  }
  for (const line of lines) out.push(`## Node ${line.node}`, '', '```text', ...line.log, '```', '');
  writeFileSync(path, `${out.join('\n').trimEnd()}\n`);
}

export const loadNow = () => loadavg();
