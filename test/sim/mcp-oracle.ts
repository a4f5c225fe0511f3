import type { AuditRecord } from '../../src/agent/audit';
import { verifyAudit } from '../../src/agent/audit';
import type { Caps } from '../../src/agent/rails';
import type { ToolResult } from '../../src/agent/results';
import type { SendRecord } from './network';
import type { Oracle } from './oracle';
import type { SimRefund, SimService } from './service';

/** What a tool call's answer says, as the assistant reads it. */
interface Said {
  outcome?: string;
  idempotency_key?: string;
  audit_log?: string;
  data?: { id?: unknown };
}

const keyOf = (r: SimRefund) => r.notes.payctl_key ?? r.key;

/**
 * The invariants of `payctl mcp`'s rails, by the simulation's ground truth: the caps hold for what the
 * service applied; one intended refund never goes out under a second key while the first may count; what
 * a call answers matches what the service did; the audit log's chain verifies and holds every intent
 * before its send, and every outcome the assistant was not told is missing from it.
 */
export class McpOracle {
  /** Outcomes the assistant was told were logged (no `audit_log` warning): each must be in the log. */
  private readonly logged: { who: string; key: string; event: AuditRecord['event'] }[] = [];

  constructor(
    private readonly oracle: Oracle,
    private readonly service: SimService,
    private readonly sends: SendRecord[],
    private readonly caps: Caps,
    private readonly auditPath: string,
  ) {}

  private fail(invariant: string, detail: string) {
    if (this.oracle.violations.length < 20) this.oracle.violations.push({ invariant, detail });
  }

  private ours(paymentId: string) {
    return this.service.refundsOf(paymentId, 'payctl');
  }

  /** Our refund sends carrying `key` that are on their way or being applied. */
  private landing(paymentId: string, key: string | undefined, other: boolean) {
    return this.sends.filter(
      (s) =>
        s.paymentId === paymentId &&
        s.method === 'POST' &&
        (other ? s.key !== key : s.key === key) &&
        (s.inTransit > 0 || this.service.processing.has(s.id)),
    );
  }

  /** A refund leaves: its intent is in the log for good, and no other key of this payment may count. */
  beforePost(who: string, s: SendRecord) {
    const records = verifyAudit(this.auditPath).records;
    if (!records.some((r) => r.event === 'sending' && r.key === s.key && r.arguments?.payment_id === s.paymentId))
      this.fail('sent-before-logged', `${who}: refund of ${s.paymentId} key ${s.key} sent with no 'sending' record`);
    const applied = this.ours(s.paymentId).filter((r) => keyOf(r) !== s.key);
    const onItsWay = this.landing(s.paymentId, s.key, true);
    if (applied.length || onItsWay.length)
      this.fail(
        'second-key',
        `${who}: refund of ${s.paymentId} sent with key ${s.key} while ${[
          ...applied.map((r) => `${r.id} (key ${keyOf(r)}) is applied`),
          ...onItsWay.map((x) => `send ${x.id} (key ${x.key}) may still land`),
        ].join(', ')}`,
      );
  }

  /** What one call answered, checked at the moment the assistant reads it. */
  onResult(who: string, proc: number, paymentId: string, result: ToolResult, planKey?: string) {
    const said = result.structuredContent as Said | undefined;
    const text = result.content.map((c) => c.text).join(' ');
    const posts = this.sends.filter((s) => s.proc === proc && s.method === 'POST');
    const at = `${who}: ${paymentId}`;
    const outcome = said?.outcome;
    // A 'not done' names no key: it is the plan's (given by the assistant, or sent by this call).
    const key = said?.idempotency_key ?? (outcome === 'not done' ? (planKey ?? posts[0]?.key) : undefined);
    if (!said) {
      if (posts.length)
        this.fail(
          'sent-but-untold',
          `${at}: a refund was sent, and the answer names no outcome: ${text.slice(0, 200)}`,
        );
      else if (!/nothing was sent/.test(text))
        this.fail('error-without-nothing-sent', `${at}: an error that does not say nothing was sent: ${text}`);
      return;
    }
    if (outcome === 'planned' || outcome === 'declined' || outcome === 'refused') {
      if (posts.length) this.fail('nothing-sent-but-sent', `${at} answered ${outcome}, yet sent send ${posts[0]!.id}`);
      return;
    }
    if (!key) {
      if (outcome !== 'not done')
        this.fail('write-without-key', `${at} answered ${outcome} and names no idempotency key`);
      return;
    }
    const carrying = this.ours(paymentId).filter((r) => keyOf(r) === key);
    if (outcome === 'done') {
      this.oracle.claim(who, paymentId, 'done', { refundId: String(said.data?.id ?? ''), proc });
      if (carrying.length !== 1)
        this.fail(
          'done-not-applied-once',
          `${at} answered done under key ${key}; refunds carrying it: ${carrying.length}`,
        );
    } else if (outcome === 'not done') {
      if (carrying.length || this.landing(paymentId, key, false).length)
        this.fail(
          'not-done-but-applied',
          `${at} answered not done under key ${key}: ${this.oracle.describe(paymentId)}`,
        );
    } else if (outcome !== 'unknown') return this.fail('unexpected-outcome', `${at} answered ${outcome}`);
    const event = outcome === 'done' ? 'done' : outcome === 'unknown' ? 'unknown' : 'failed';
    if (!said.audit_log) this.logged.push({ who, key, event });
  }

  finish() {
    const applied = this.service.refunds.filter((r) => r.actor === 'payctl');
    const total = applied.reduce((sum, r) => sum + r.amount, 0);
    const { maxAmount, maxTotal, maxWrites } = this.caps;
    const list = applied.map((r) => `${r.payment_id.slice(-3)} ${r.amount}`).join(', ');
    if (maxWrites !== undefined && applied.length > maxWrites)
      this.fail('cap-max-writes', `${applied.length} refunds applied (${list}), --max-writes ${maxWrites}`);
    if (maxTotal !== undefined && total > maxTotal)
      this.fail('cap-max-total', `${total} refunded in all (${list}), --max-total ${maxTotal}`);
    for (const r of applied)
      if (maxAmount !== undefined && r.amount > maxAmount)
        this.fail('cap-max-amount', `${r.id} of ${r.amount} applied, --max-amount ${maxAmount}`);
    const { records, problems } = verifyAudit(this.auditPath);
    if (problems.length) this.fail('audit-chain-broken', problems.join('; '));
    for (const r of applied)
      if (!records.some((x) => x.event === 'sending' && x.key === keyOf(r)))
        this.fail('applied-not-in-log', `${r.id} (key ${keyOf(r)}) applied, and no intent of it is in the log`);
    for (const l of this.logged)
      if (!records.some((x) => x.key === l.key && x.event === l.event))
        this.fail(
          'told-logged-but-not',
          `${l.who}: outcome ${l.event} of key ${l.key} not in the log, and not said so`,
        );
  }
}
