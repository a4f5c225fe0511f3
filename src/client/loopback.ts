/** True for this machine's own addresses: localhost, 127.0.0.0/8, ::1. */
export function isLoopback(origin: string): boolean {
  let host: string;
  try {
    host = new URL(origin).hostname.replace(/^\[|\]$/g, '');
  } catch {
    return false;
  }
  return host === 'localhost' || host.endsWith('.localhost') || /^127\.\d+\.\d+\.\d+$/.test(host) || host === '::1';
}

/**
 * A refused connection to this machine is final at once: nothing listens on that port (a stopped
 * local sandbox), and retrying for seconds will not start it. Elsewhere a refusal can be a server
 * restarting behind a balancer, and is retried.
 */
export function refusedLocally(origin: string, err: unknown): boolean {
  return (err as { code?: string } | null)?.code === 'ECONNREFUSED' && isLoopback(origin);
}
