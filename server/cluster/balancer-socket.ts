import net from 'node:net';

/** One command on haproxy's admin socket; its whole answer. */
export function balancerCommand(socketPath: string, command: string, signal?: AbortSignal): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(socketPath);
    let answer = '';
    const abort = (): void => void socket.destroy(signal?.reason instanceof Error ? signal.reason : new Error('aborted'));
    signal?.addEventListener('abort', abort, { once: true });
    socket.setEncoding('utf8');
    socket.on('connect', () => socket.end(`${command}\n`));
    socket.on('data', (d: string) => (answer += d));
    socket.on('error', reject);
    socket.on('close', () => {
      signal?.removeEventListener('abort', abort);
      resolve(answer);
    });
  });
}

/**
 * Whether the balancer routes to each server now (`show servers state`: srv_op_state 2 = running,
 * i.e. its health checks pass), by server name.
 */
export async function serversInRotation(socketPath: string, backend: string, signal?: AbortSignal): Promise<Map<string, boolean>> {
  const answer = await balancerCommand(socketPath, `show servers state ${backend}`, signal);
  const lines = answer.split('\n').filter((l) => l && !l.startsWith('#') && !/^\d+$/.test(l.trim()));
  // be_id be_name srv_id srv_name srv_addr srv_op_state …
  return new Map(lines.map((l) => l.trim().split(/\s+/)).filter((f) => f.length > 5).map((f) => [f[3]!, f[5] === '2']));
}
