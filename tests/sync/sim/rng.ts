/** A seeded random source (mulberry32): the same seed replays the same run exactly. */
export class Rng {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  int(n: number): number {
    return Math.floor(this.next() * n);
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error('pick from nothing');
    return items[this.int(items.length)]!;
  }
}

/** The simulation's clock: only the simulation moves it. */
export class FakeClock {
  constructor(public ms = Date.UTC(2024, 4, 1, 2, 0, 0)) {}

  now = (): number => this.ms;

  advance(ms: number): void {
    this.ms += ms;
  }
}
