import { CONFIG } from '../../common/api/endpoints/config';
import { ERRORS } from '../../common/api/errors';

/**
 * The haproxy configuration of `start:cluster` (docs/cluster.md explains every line). Written for
 * Debian's haproxy 2.6; the server processes listen on 127.0.0.1 only, so the balancer is their one
 * caller and the only address whose X-Forwarded-* they believe (TRUST_PROXY).
 */
export interface BalancerConfig {
  /** Where clients connect. */
  bind: { host: string; port: number };
  /** The server processes, each `name` on 127.0.0.1:`port`. */
  servers: readonly { name: string; port: number }[];
  /** A PEM holding the certificate chain and its key: the balancer terminates TLS. */
  tlsPem?: string;
  /** haproxy's admin socket (server state, enable/disable), for operators and fault tests. */
  adminSocket: string;
  /** Add X-Served-By: <server name> to every answer (tests and diagnostics; it names our processes). */
  servedByHeader: boolean;
}

/** The cheap probe each server answers as soon as its event loop does (it does not ask the database). */
export const HEALTH_PATH = CONFIG.health.path;

/** 25 s between the notice stream's pings (NOTICE_STREAM_PING_MS) must fit well inside the idle timeouts. */
export const IDLE_TIMEOUT = '5m';

/** The backend holding the server processes (names s1…sN). */
export const BACKEND = 'servers';

/** The body of haproxy's own 5xx answers, escaped for a double-quoted haproxy string. */
const BALANCER_ERROR_BODY = JSON.stringify({ errorCode: ERRORS.INTERNAL.code, message: ERRORS.INTERNAL.message }).replace(/"/g, '\\"');

export function haproxyConfig(c: BalancerConfig): string {
  const bindHost = c.bind.host.includes(':') ? `[${c.bind.host}]` : c.bind.host;
  const lines = [
    'global',
    // Server up/down and errors on stderr; request lines are the servers' own (LOG_REQUESTS).
    '  log stderr format raw local0 notice',
    // One thread carries thousands of requests a second; the cores are the servers'.
    '  nbthread 1',
    // No maxconn: haproxy derives it from the file descriptor limit (ulimit -n) it is given.
    `  stats socket ${c.adminSocket} mode 600 level admin`,
    '  ssl-default-bind-options ssl-min-ver TLSv1.2',
    '',
    'defaults',
    '  mode http',
    '  log global',
    '  option dontlognull',
    // A dead process refuses at once: fail fast and re-dispatch to another (retries + redispatch
    // only replay a request that never reached a server, so no upload or merge runs twice).
    '  timeout connect 2s',
    '  retries 3',
    '  option redispatch 1',
    // Inactivity, not total time: a 10 GiB download or a streamed ZIP runs as long as bytes move;
    // the notice stream pings every 25 s; a merge of a large file answers after hashing it.
    `  timeout client ${IDLE_TIMEOUT}`,
    `  timeout server ${IDLE_TIMEOUT}`,
    // A client gets 30 s to send its request headers and keeps an idle connection 30 s.
    '  timeout http-request 30s',
    '  timeout http-keep-alive 30s',
    '  timeout queue 30s',
    '  timeout check 2s',
    // haproxy's own answers (a process cut mid-request, none in rotation, a timeout) are coded like
    // the server's (§8), not HTML: the clients read an errorCode and a Chinese message, and retry.
    ...[502, 503, 504].map((status) => `  http-error status ${status} content-type "application/json; charset=utf-8" string "${BALANCER_ERROR_BODY}"`),
    // The client's address for the servers (rate limits, action log): appended to any it sent.
    '  option forwardfor',
    // Keep-alive on both sides; idle server connections are shared between requests (each request
    // carries its own cookie and X-Forwarded-For, nothing is tied to a connection). No
    // http-server-close: it would open a connection to a server for every request.
    '  http-reuse safe',
    // Bodies stream through as they arrive (no http-buffer-request): chunk and range uploads are
    // not held in the balancer; answers stream back unbuffered (SSE, downloads), nothing compresses.
    '',
    'frontend drive',
    `  bind ${bindHost}:${c.bind.port}${c.tlsPem ? ` ssl crt ${c.tlsPem} alpn http/1.1` : ''}`,
    // The scheme and host the client used, replacing whatever the client claimed.
    '  http-request set-header X-Forwarded-Proto https if { ssl_fc }',
    '  http-request set-header X-Forwarded-Proto http if !{ ssl_fc }',
    '  http-request set-header X-Forwarded-Host %[req.hdr(host)]',
    `  default_backend ${BACKEND}`,
    '',
    `backend ${BACKEND}`,
    // Fewest open connections: long downloads and notice streams count against their process.
    '  balance leastconn',
    `  option httpchk GET ${HEALTH_PATH}`,
    '  http-check expect status 200',
    // Checked every second; out after 2 misses (each waits up to \`timeout check\`), back after 2 answers.
    // A process marked down has its requests cut at once (on-marked-down shutdown-sessions): a frozen
    // process (SIGSTOP, a paused VM) still accepts connections and answers nothing, and without the cut
    // its requests would wait \`timeout server\` (minutes) although it is known down. The clients see
    // the connection end: the engine retries (a chunk from where the server has it, a merge again), and
    // its retry goes to a process in rotation.
    '  default-server check inter 1s fall 2 rise 2 on-marked-down shutdown-sessions',
    ...(c.servedByHeader ? ['  http-response set-header X-Served-By %s'] : []),
    ...c.servers.map((s) => `  server ${s.name} 127.0.0.1:${s.port}`),
    '',
  ];
  return lines.join('\n');
}
