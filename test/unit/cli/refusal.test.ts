import { describe, expect, it } from 'vitest';
import { refusalLine } from '../../../src/cli/refusal';

const notFound = { code: 'BAD_REQUEST_ERROR', description: 'The id provided does not exist', reason: 'NA' };
const at = (method: string, path: string) => `${method} http://127.0.0.1:4000/v1${path}`;

describe('a service refusal in the user terms', () => {
  it.each([
    [
      'a read of a missing payment',
      { status: 400, service: notFound, where: at('GET', '/payments/pay_AAAAAAAAAAAAAA') },
      undefined,
      'no payment pay_AAAAAAAAAAAAAA on this account; the service says: The id provided does not exist (BAD_REQUEST_ERROR)',
    ],
    [
      'a refund whose first read finds no payment',
      { status: 400, service: notFound, where: at('GET', '/payments/pay_AAAAAAAAAAAAAA') },
      'refund',
      'cannot refund payment pay_AAAAAAAAAAAAAA: no payment pay_AAAAAAAAAAAAAA on this account; the service says: The id provided does not exist (BAD_REQUEST_ERROR)',
    ],
    [
      'a capture of a missing payment',
      { status: 400, service: notFound, where: at('POST', '/payments/pay_AAAAAAAAAAAAAA/capture') },
      'capture',
      'cannot capture payment pay_AAAAAAAAAAAAAA: no payment pay_AAAAAAAAAAAAAA on this account; the service says: The id provided does not exist (BAD_REQUEST_ERROR)',
    ],
    [
      'a capture refused for its state',
      {
        status: 400,
        service: { code: 'BAD_REQUEST_ERROR', description: 'This payment has already been captured', field: 'id' },
        where: at('POST', '/payments/pay_AAAAAAAAAAAAAA/capture'),
      },
      'capture',
      'cannot capture payment pay_AAAAAAAAAAAAAA: the service says: This payment has already been captured (BAD_REQUEST_ERROR, field id)',
    ],
    [
      'a missing record named in the body is not the path id',
      {
        status: 400,
        service: {
          code: 'BAD_REQUEST_ERROR',
          description: 'The fund account fa_1 does not exist',
          field: 'fund_account_id',
        },
        where: at('POST', '/customers/cust_AAAAAAAAAAAAAA/payouts'),
      },
      'payout',
      'cannot pay out from the wallet of customer cust_AAAAAAAAAAAAAA: the service says: The fund account fa_1 does not exist (BAD_REQUEST_ERROR, field fund_account_id)',
    ],
    [
      'a create',
      {
        status: 400,
        service: { code: 'BAD_REQUEST_ERROR', description: 'The amount is invalid', field: 'amount' },
        where: at('POST', '/orders'),
      },
      'create',
      'cannot create an order: the service says: The amount is invalid (BAD_REQUEST_ERROR, field amount)',
    ],
    [
      'no request to name',
      { status: 400, service: { description: 'Nope' } },
      undefined,
      'the service refused the request: Nope',
    ],
  ])('%s', (_name, err, verb, line) => {
    expect(refusalLine(err, verb)).toBe(line);
  });

  it('strips escape sequences from the service text', () => {
    const line = refusalLine({
      status: 400,
      service: { description: 'bad\x1b[2J\x1b]0;x\x07' },
      where: at('POST', '/orders'),
    });
    expect(line).not.toMatch(/\x1b/);
  });
});
