import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { FairTurns, installFairTurns } from '../../../server/http/fair-turns';

/**
 * Fair turns (server/http/fair-turns.ts). The clock is the test's: it moves only when a job says so,
 * so "a job used up the phase's budget" is a fact of the test, not a race with the machine's load.
 */
const BUDGET = 4;

function fakeClock() {
  let t = 1000;
  return { now: () => t, spend: (ms: number) => (t += ms) };
}

/** Counts event-loop iterations: one tick per check phase (an immediate re-queued from an immediate runs in the next one). */
function iterationCounter() {
  let iteration = 0;
  let running = true;
  const tick = () => {
    iteration++;
    if (running) setImmediate(tick);
  };
  setImmediate(tick);
  return { current: () => iteration, stop: () => (running = false) };
}

const settle = (turns: FairTurns) =>
  new Promise<void>((resolve) => {
    const check = () => (turns.queued === 0 ? resolve() : setImmediate(check));
    check();
  });

describe('FairTurns', () => {
  it('runs requests at once, in the same turn, while the phase has budget left', () => {
    const clock = fakeClock();
    const turns = new FairTurns({ budgetMs: BUDGET, now: clock.now });
    const ran: number[] = [];
    for (let i = 0; i < 50; i++) turns.admit(() => ran.push(i));
    expect(ran).toEqual(Array.from({ length: 50 }, (_, i) => i));
    expect(turns.queued).toBe(0);
  });

  it('past the budget, later requests wait for later turns, one turn each when each spends a budget, in arrival order', async () => {
    const clock = fakeClock();
    const turns = new FairTurns({ budgetMs: BUDGET, now: clock.now });
    const loop = iterationCounter();
    const ran: Array<{ job: number; iteration: number }> = [];
    const job = (i: number) => () => {
      ran.push({ job: i, iteration: loop.current() });
      clock.spend(BUDGET);
    };
    // Five requests read in one poll phase: the first runs, four wait.
    for (let i = 0; i < 5; i++) turns.admit(job(i));
    expect(ran.map((r) => r.job)).toEqual([0]);
    expect(turns.queued).toBe(4);
    await settle(turns);
    loop.stop();
    expect(ran.map((r) => r.job)).toEqual([0, 1, 2, 3, 4]);
    // Each waiting request had an iteration of its own: between two of them the loop came round (and
    // its poll phase could accept a connection).
    const iterations = ran.slice(1).map((r) => r.iteration);
    expect(new Set(iterations).size).toBe(4);
    expect([...iterations].sort((a, b) => a - b)).toEqual(iterations);
  });

  it('a request that arrives while others wait goes behind them, even when the phase it arrives in has budget left', async () => {
    const clock = fakeClock();
    const turns = new FairTurns({ budgetMs: BUDGET, now: clock.now });
    const ran: string[] = [];
    turns.admit(() => {
      ran.push('a');
      clock.spend(BUDGET);
    });
    turns.admit(() => {
      ran.push('b');
      clock.spend(BUDGET);
    });
    turns.admit(() => ran.push('c'));
    // A later phase (a timer), with a fresh budget: d must still come after b and c.
    await new Promise<void>((resolve) =>
      setTimeout(() => {
        turns.admit(() => ran.push('d'));
        resolve();
      }, 0),
    );
    await settle(turns);
    expect(ran).toEqual(['a', 'b', 'c', 'd']);
  });

  it('cheap waiting requests share one turn (the budget, not a count, ends a turn)', async () => {
    const clock = fakeClock();
    const turns = new FairTurns({ budgetMs: BUDGET, now: clock.now });
    const loop = iterationCounter();
    const ran: number[] = [];
    turns.admit(() => clock.spend(BUDGET));
    for (let i = 0; i < 20; i++) turns.admit(() => ran.push(loop.current()));
    await settle(turns);
    loop.stop();
    expect(ran).toHaveLength(20);
    expect(new Set(ran).size).toBe(1);
  });
});

describe('installFairTurns on a busy HTTP server', () => {
  let server: http.Server | null = null;
  const agents: http.Agent[] = [];
  afterEach(async () => {
    for (const a of agents.splice(0)) a.destroy();
    server?.closeAllConnections();
    await new Promise((resolve) => server?.close(resolve));
    server = null;
  });

  /**
   * Libuv accepts one connection per event-loop iteration (libuv#3696). BUSY kept-alive clients ask
   * again as soon as they are answered, each request spending a whole budget of the (test's) clock;
   * then NEWCOMERS connect at once and ask once each. Counted in answers, not milliseconds: how many
   * answers the busy clients got while a newcomer waited. Without fair turns an iteration answers
   * about every busy client, so the k-th newcomer waits ~k × BUSY / 2 answers (the last waited 1,430
   * here; that is the load bench's p99 of 7 s); with them an iteration answers about one request, so
   * each newcomer waits about its place in line (the last waited 90).
   */
  it('accepts and answers newcomers while kept-alive clients keep it busy: nobody waits for more than the line ahead', async () => {
    const BUSY = 40;
    const NEWCOMERS = 60;
    const clock = fakeClock();
    let busyAnswers = 0;
    server = http.createServer((req, res) => {
      clock.spend(BUDGET);
      if (req.url === '/busy') busyAnswers++;
      res.end('ok');
    });
    installFairTurns(server, { budgetMs: BUDGET, now: clock.now });
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as AddressInfo).port;

    const get = (agent: http.Agent, path: string) =>
      new Promise<void>((resolve, reject) => {
        http
          .get({ host: '127.0.0.1', port, path, agent }, (res) => {
            res.resume();
            res.on('end', resolve);
          })
          .on('error', reject);
      });

    let stop = false;
    const busy = Array.from({ length: BUSY }, async () => {
      const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
      agents.push(agent);
      while (!stop) await get(agent, '/busy');
    });
    // Every busy client connected and answered a few times: the server is in its steady loop.
    while (busyAnswers < BUSY * 5) await new Promise((r) => setImmediate(r));

    const waits = await Promise.all(
      Array.from({ length: NEWCOMERS }, async () => {
        const agent = new http.Agent({ keepAlive: false });
        agents.push(agent);
        const before = busyAnswers;
        await get(agent, '/new');
        return busyAnswers - before;
      }),
    );
    stop = true;
    await Promise.all(busy);

    // The line ahead of the last newcomer: at most every busy client and every newcomer, twice over.
    expect(Math.max(...waits)).toBeLessThan(2 * (BUSY + NEWCOMERS));
  });
});
