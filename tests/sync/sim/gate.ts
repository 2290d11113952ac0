/**
 * Every call the engine makes to the simulated disk, the fake server and the journal passes a gate.
 * At each gate the simulation may interfere — let the users act (edits, renames, deletes on either
 * side), crash the engine (before the call takes effect, or after it did but before the engine
 * hears of it), or fail a server call the way a network does — all drawn from the seed.
 * Once the engine crashed, every further call of that engine instance fails: a crashed process does
 * nothing more; the next instance starts from the journal.
 */
export class CrashError extends Error {
  constructor() {
    super('engine crashed (simulated)');
    this.name = 'CrashError';
  }
}

export type Phase = 'before' | 'after';
export type Interfere = (label: string, phase: Phase, gate: Gate) => void;

export class Gate {
  dead = false;

  constructor(private readonly interfere: Interfere) {}

  check(): void {
    if (this.dead) throw new CrashError();
  }

  crash(): never {
    this.dead = true;
    throw new CrashError();
  }

  async run<T>(label: string, apply: () => T | Promise<T>): Promise<T> {
    this.check();
    await Promise.resolve();
    this.check();
    this.interfere(label, 'before', this);
    this.check();
    const result = await apply();
    this.check();
    this.interfere(label, 'after', this);
    this.check();
    return result;
  }
}
