import { collect, group, lazy, pick, verb } from '../declare';

const listen = lazy(() => import('./listen'));
const verify = lazy(() => import('./verify'));
const doctor = lazy(() => import('./doctor'));

/**
 * The `webhooks` commands: a webhook workbench against the sandbox (listen, trigger, deliveries,
 * replay, enable) and checks of the user's own handler (verify, doctor).
 */
export const webhooks = group(
  'webhooks',
  "forward the sandbox's signed events to your handler; trigger, replay, verify, doctor",
  () => import('./handlers'),
  (webhooks, bind, run) => {
    verb(
      webhooks,
      'listen',
      'send every sandbox event to a handler on this machine until Ctrl-C, one line per delivery; ' +
        "signed with the sandbox's webhook secret (--print-secret shows it)",
      [
        'payctl webhooks listen --sandbox --print-secret >> .env',
        'payctl webhooks listen --sandbox --forward-to http://127.0.0.1:3000/webhooks',
        "payctl webhooks listen -p sandbox --forward-to 'http://localhost:3000/hooks?src=payctl' --events 'payment.*,refund.*' -o ndjson",
      ],
    )
      .option('--forward-to <url>', 'your handler, e.g. http://127.0.0.1:3000/webhooks (query string kept)')
      .option(
        '--events <globs>',
        "comma-separated event names or globs, e.g. 'payment.*,refund.processed' (default: all)",
      )
      .option(
        '--print-secret',
        "print the sandbox's webhook secret (PAYCTL_WEBHOOK_SECRET=…) for a .env file, and exit",
      )
      .action(
        bind(listen('listen'), ({ opts }) => ({
          ...pick(opts, 'forwardTo', 'events'),
          printSecret: Boolean(opts.printSecret),
        })),
      );
    verb(webhooks, 'trigger', 'make the sandbox state change that sends EVENT (and the events that follow from it)', [
      'payctl webhooks trigger payment.captured',
      'payctl webhooks trigger refund.processed --set order.amount=120000 --set refund.amount=20000',
      'payctl webhooks trigger refund.failed --set refund.amount=20000',
      'payctl webhooks trigger subscription.charged --set plan.period=weekly --set subscription.notes.plan=gold',
    ])
      .argument(
        '<event>',
        'payment.authorized|captured|failed, order.paid, refund.created|processed|failed, subscription.*',
      )
      .option(
        '--set <path=value>',
        'override a field of what is made (repeatable), e.g. order.amount=5000',
        collect,
        [],
      )
      .action(bind(run('triggerEvent'), ({ args: [event = ''], opts }) => ({ event, set: opts.set })));
    verb(webhooks, 'deliveries', 'every delivery attempt: time, status, latency, the first bytes of the answer', [
      'payctl webhooks deliveries',
      'payctl webhooks deliveries --event evt_DBJOWzybf0sJbb -o json',
    ])
      .option('--event <id>', "only this event (its original id, or a replay's)")
      .action(bind(run('listDeliveries'), ({ opts }) => pick(opts, 'event')));
    verb(webhooks, 'replay', 'send an event again to the listening handlers: the same bytes, same or new event id', [
      'payctl webhooks replay evt_DBJOWzybf0sJbb',
      'payctl webhooks replay evt_DBJOWzybf0sJbb --new-id',
    ])
      .argument('<event_id>', 'the event id (X-Razorpay-Event-Id), evt_…')
      .option('--new-id', 'under a new event id (tests de-duplication by entity, not only by event id)')
      .action(bind(run('replayEvent'), ({ args: [eventId = ''], opts }) => ({ eventId, newId: Boolean(opts.newId) })));
    verb(webhooks, 'enable', 'enable a webhook the sandbox disabled after 24 hours of failed deliveries', [
      'payctl webhooks enable',
      'payctl webhooks enable wh_DBJOWzybf0sJbb',
    ])
      .argument('[id]', 'the webhook id (default: every disabled one)')
      .action(bind(run('enableWebhook'), ({ args: [id] }) => ({ id })));
    verb(
      webhooks,
      'rotate-secret',
      'give the sandbox a new webhook secret for every event from now on; prints it like --print-secret',
      ['payctl webhooks rotate-secret -p sandbox >> .env', 'payctl webhooks rotate-secret --sandbox -o json'],
    ).action(bind(run('rotateSecret'), () => ({})));
    verb(
      webhooks,
      'verify',
      'check X-Razorpay-Signature against the body your handler received; if it fails, say why',
      [
        'payctl webhooks verify --signature 3f1c…e9 --secret-file .webhook-secret body.json',
        'payctl webhooks verify --sandbox --signature 3f1c…e9 - < body.json',
      ],
    )
      .argument('[file]', 'the raw body, or - for stdin (default)')
      .requiredOption('--signature <sig>', 'the X-Razorpay-Signature header as received')
      .option('--secret-file <file>', "the webhook secret (else PAYCTL_WEBHOOK_SECRET, stdin, or the sandbox's)")
      .action(
        bind(verify('verifySignature'), ({ args: [file], opts }) => ({
          file,
          ...pick(opts, 'signature', 'secretFile'),
        })),
      );
    verb(
      webhooks,
      'doctor',
      'a scored run against your handler: signatures, raw bytes, duplicates, order, speed; exit 1 if a check fails',
      [
        'payctl webhooks doctor -p sandbox --url http://127.0.0.1:3000/webhooks',
        "payctl webhooks doctor -p sandbox --url http://127.0.0.1:3000/webhooks --count-cmd 'curl -s localhost:3000/applied/{}'",
      ],
    )
      .requiredOption('--url <url>', 'your handler on this machine')
      .option(
        '--count-cmd <cmd>',
        'prints how many times the handler applied an entity ({} or $PAYCTL_ENTITY_ID is its id)',
      )
      .option(
        '--secret-file <file>',
        "the webhook secret your handler checks with (else PAYCTL_WEBHOOK_SECRET or the sandbox's)",
      )
      .action(bind(doctor('doctor'), ({ opts }) => pick(opts, 'url', 'countCmd', 'secretFile')));
  },
);
