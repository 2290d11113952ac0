import { describe, expect, it } from 'vitest';
import { CLAIM_UNCONTROLLED_PAGE, claimIfUncontrolled } from '../../../src/features/pwa/claim-uncontrolled-page';

/** A stand-in for the browser's ServiceWorker: a state, its statechange events and the messages it got. */
class FakeWorker extends EventTarget {
  readonly messages: unknown[] = [];
  constructor(public state: ServiceWorkerState) {
    super();
  }
  postMessage(message: unknown): void {
    this.messages.push(message);
  }
  moveTo(state: ServiceWorkerState): void {
    this.state = state;
    this.dispatchEvent(new Event('statechange'));
  }
}

const registration = (active: FakeWorker | null, more: { installing?: FakeWorker; waiting?: FakeWorker } = {}) => ({
  active,
  installing: more.installing ?? null,
  waiting: more.waiting ?? null,
});

describe('a page nothing controls asks the active service worker to take it', () => {
  it('asks an activated worker when the page has no controller', () => {
    const worker = new FakeWorker('activated');
    claimIfUncontrolled({ controller: null }, registration(worker));
    expect(worker.messages).toEqual([{ type: CLAIM_UNCONTROLLED_PAGE }]);
  });

  it('asks nothing when a worker already controls the page', () => {
    const worker = new FakeWorker('activated');
    claimIfUncontrolled({ controller: worker as unknown as ServiceWorker }, registration(worker));
    expect(worker.messages).toEqual([]);
  });

  it('asks nothing while a newer deployment installs or waits: that worker decides', () => {
    const worker = new FakeWorker('activated');
    claimIfUncontrolled({ controller: null }, registration(worker, { installing: new FakeWorker('installing') }));
    claimIfUncontrolled({ controller: null }, registration(worker, { waiting: new FakeWorker('installed') }));
    expect(worker.messages).toEqual([]);
  });

  it('asks nothing without a registration or an active worker (the first install claims the page itself)', () => {
    claimIfUncontrolled({ controller: null }, undefined);
    const installing = new FakeWorker('installing');
    claimIfUncontrolled({ controller: null }, registration(null, { installing }));
    expect(installing.messages).toEqual([]);
  });

  it('waits for an activating worker, then asks only if its own claim missed the page', () => {
    const missed = new FakeWorker('activating');
    claimIfUncontrolled({ controller: null }, registration(missed));
    expect(missed.messages).toEqual([]);
    missed.moveTo('activated');
    missed.moveTo('activated');
    expect(missed.messages).toEqual([{ type: CLAIM_UNCONTROLLED_PAGE }]);

    const reached = new FakeWorker('activating');
    const container: { controller: ServiceWorker | null } = { controller: null };
    claimIfUncontrolled(container, registration(reached));
    container.controller = reached as unknown as ServiceWorker;
    reached.moveTo('activated');
    expect(reached.messages).toEqual([]);
  });
});
