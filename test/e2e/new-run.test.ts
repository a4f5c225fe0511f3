import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { addProfile, run, sandboxForFile, seedCaptured } from './harness';
import { KEY, onTerminal } from './pty';

/**
 * Rerunning a finished bulk refund resumes it (nothing moves); a --new-run moves all its money again,
 * so the hint names that total, a terminal asks for it to be typed, and a script needs --yes with it.
 */
const sb = sandboxForFile();
let env: { PAYCTL_HOME: string };
let ids: string[];
let csv: string;
beforeAll(async () => {
  env = await addProfile(sb, 'shop');
  ids = await seedCaptured(sb, 3);
  csv = join(sb.home, 'refunds.csv');
  writeFileSync(csv, `payment_id,amount\n${ids.map((id) => `${id},1000`).join('\n')}\n`);
});
const args = () => ['-p', 'shop', 'payments', 'refund', '--input', csv!];
const counts = async () => {
  const refunds = (await sb.stats()).applied.refunds;
  return ids.map((id) => refunds[id]?.count ?? 0);
};

describe('a new run over a finished bulk refund', () => {
  it('the rerun of a finished run names the total a --new-run would move again; a script needs --yes with --new-run', async () => {
    const first = await run([...args(), '--yes'], { env });
    expect(first.code, first.stderr).toBe(0);
    const again = await run([...args(), '--yes'], { env });
    expect(again.code, again.stderr).toBe(0);
    expect(again.stderr).toMatch(
      /a --new-run would refund 3 payment\(s\), total ₹30\.00 \(3000 paise\) AGAIN, and asks for that total to be typed/,
    );
    const unconfirmed = await run([...args(), '--new-run'], { env });
    expect(unconfirmed.code, unconfirmed.stderr).toBe(2);
    expect(unconfirmed.stderr).toMatch(
      /ran before \(once\): this new run will refund 3 payment\(s\), total ₹30\.00 \(3000 paise\) AGAIN/,
    );
    expect(unconfirmed.stderr).toMatch(/pass --yes with --new-run/);
    expect(await counts()).toEqual([1, 1, 1]);
  });

  it('on a terminal the total must be typed: a wrong figure sends nothing (exit 8), the total itself runs it', async () => {
    const wrong = onTerminal([...args(), '--new-run'], { ...env, NO_COLOR: '1' });
    await wrong.waitFor(/Type the total \(₹30\.00 \(3000 paise\)\) to go ahead/);
    await wrong.type('3000', KEY.enter);
    expect(await wrong.exited).toBe(8);
    expect(wrong.text()).toMatch(/nothing was sent/);
    expect(await counts()).toEqual([1, 1, 1]);

    const right = onTerminal([...args(), '--new-run'], { ...env, NO_COLOR: '1' });
    await right.waitFor('Type the total');
    await right.type('₹30.00', KEY.enter);
    expect(await right.exited).toBe(0);
    expect(await counts()).toEqual([2, 2, 2]);
  });
});
