/**
 * What the sandbox's webhook admin routes (`/_sandbox/webhooks/…`) answer with: declared here, where
 * the sandbox that answers and the commands that read the answers both see it.
 */

/** A webhook as the admin API shows it: never a secret. */
export interface WebhookView {
  id: string;
  /** `start`: `sandbox start --webhook URL`; `listen`: one `webhooks listen` run. */
  kind: 'start' | 'listen';
  url: string;
  /** The event globs it takes; none: every event. */
  events: string[];
  /** Whether its owner is still there (a listener that stopped is sent nothing new). */
  live: boolean;
  /** Sandbox seconds when 24 hours of failed deliveries disabled it; null while enabled. */
  disabled_at: number | null;
  disabled_reason: string | null;
  /** Deliveries queued for it and not yet delivered (retrying, or held while it is disabled). */
  waiting: number;
}

/** The delivery's state after an attempt. */
export type AttemptState = 'delivered' | 'retrying' | 'failed';

/** One attempt at a delivery (`webhooks listen`, `webhooks deliveries`). */
export interface AttemptView {
  seq: number;
  delivery: number;
  webhook_id: string;
  event_id: string;
  event: string;
  attempt: number;
  /** Sandbox seconds. */
  at: number;
  /** The handler's HTTP status; null when it did not answer (see `error`). */
  status: number | null;
  latency_ms: number;
  error: string | null;
  /** The first bytes of the handler's answer. */
  response: string | null;
  state: AttemptState;
  url: string;
}

/** `POST /_sandbox/webhooks/listen`: a listener's own registration. */
export interface ListenView extends WebhookView {
  /** When this listener took over a stopped listener's registration that had been disabled: since when. */
  was_disabled: number | null;
}

/** `webhooks trigger`: what was made (`order_id`, `payment_id`, …) and the events it sent, in order. */
export interface TriggeredView {
  event: string;
  events: Array<{ id: string; event: string }>;
  [made: string]: unknown;
}
