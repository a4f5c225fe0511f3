import type { PaymentStatus } from '../../contract/vocabulary';
import { UsageError } from '../../contract/errors';
import { idArg } from '../flags';

/** The filters of `payments list` that payctl applies itself: the service's list takes none of them. */
export interface PaymentFilters {
  status?: PaymentStatus;
  email?: string;
  contact?: string;
  order?: string;
  method?: string;
}

const digits = (s: string) => s.replace(/\D/g, '');

/**
 * One predicate for every filter given (all must hold), and the words the list is called by. An e-mail
 * matches whatever its case; a phone number by its digits, so `9876543210` finds `+919876543210`.
 */
export function paymentFilter(f: PaymentFilters): { keep?: (p: unknown) => boolean; noun: string } {
  const tests: ((p: Record<string, unknown>) => boolean)[] = [];
  const words: string[] = [];
  if (f.status !== undefined) tests.push((p) => p.status === f.status);
  if (f.email !== undefined) {
    const email = f.email.trim().toLowerCase();
    if (!email) throw new UsageError('--email is empty');
    tests.push((p) => typeof p.email === 'string' && p.email.toLowerCase() === email);
    words.push(`of ${email}`);
  }
  if (f.contact !== undefined) {
    const want = digits(f.contact);
    if (want.length < 4) throw new UsageError(`--contact ${f.contact}: give the phone number (at least 4 digits)`);
    tests.push((p) => {
      const got = digits(String(p.contact ?? ''));
      return got === want || got.endsWith(want) || want.endsWith(got);
    });
    words.push(`of ${f.contact}`);
  }
  if (f.order !== undefined) {
    const order = idArg(f.order, 'order');
    tests.push((p) => p.order_id === order);
    words.push(`on ${order}`);
  }
  if (f.method !== undefined) {
    const method = f.method.trim().toLowerCase();
    tests.push((p) => p.method === method);
    words.push(`by ${method}`);
  }
  const noun = [f.status ? `${f.status} payments` : 'payments', ...words].join(' ');
  if (!tests.length) return { noun };
  return {
    keep: (p) => {
      const row = (p ?? {}) as Record<string, unknown>;
      return tests.every((t) => t(row));
    },
    noun,
  };
}
