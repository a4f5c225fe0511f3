import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Context } from '../context';

/** How long one terminal session counts as having read a notice. */
const REMEMBERED_SECONDS = 12 * 3600;

/**
 * The terminal session a command runs in: on Linux the session id and controlling terminal of
 * /proc/self/stat (every command typed in one shell window shares them, also in a pipe); elsewhere
 * the parent shell and the terminal's own session variable.
 */
export function terminalSession(terminal?: string): string {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const [, , , session, tty] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (session && tty) return `sid ${session} tty ${tty}`;
  } catch {
    // not Linux
  }
  return `ppid ${process.ppid} ${terminal ?? ''}`.trim();
}

/**
 * True the first time `name` is asked about in `session` within REMEMBERED_SECONDS, remembered in
 * the state directory. A state that cannot be read or written never fails a command: the notice is
 * then shown.
 */
export function firstInSession(stateDir: string, name: string, session: string, nowSeconds: number): boolean {
  const file = join(stateDir, 'notices.json');
  let seen: Record<string, unknown> = {};
  try {
    const parsed: unknown = JSON.parse(readFileSync(file, 'utf8'));
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) seen = parsed as Record<string, unknown>;
  } catch {
    // first notice on this machine, or a damaged file that is replaced below
  }
  const fresh = (at: unknown): at is number =>
    typeof at === 'number' && at <= nowSeconds && nowSeconds - at < REMEMBERED_SECONDS;
  const key = `${name} ${session}`;
  if (fresh(seen[key])) return false;
  const kept: Record<string, number> = {};
  for (const [k, at] of Object.entries(seen)) if (fresh(at)) kept[k] = at;
  kept[key] = nowSeconds;
  try {
    mkdirSync(stateDir, { recursive: true, mode: 0o700 });
    const tmp = `${file}.${process.pid}.tmp`;
    writeFileSync(tmp, JSON.stringify(kept), { mode: 0o600 });
    renameSync(tmp, file);
  } catch {
    // shown again next time: better than failing a command over a notice
  }
  return true;
}

/**
 * A notice on stderr, under the rule `payctl help environment` states (PAYCTL_NO_NOTICES): never when
 * stdout carries a machine format (a script reads that run), never with PAYCTL_NO_NOTICES=1, and once
 * per terminal session.
 */
export function noticeOnce(ctx: Context, name: string, message: string): void {
  const { settings } = ctx;
  if (!settings.notices.enabled) return;
  if (settings.format !== 'table' && !settings.out) return;
  if (
    !firstInSession(ctx.paths.state, name, terminalSession(settings.notices.terminal), Math.floor(ctx.nowMs() / 1000))
  )
    return;
  ctx.notice(message);
}
