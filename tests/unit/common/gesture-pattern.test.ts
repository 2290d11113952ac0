import { describe, expect, it } from 'vitest';
import { dotAfterKey, dotAt, dotBetween, dotCentre, dotLabel, GESTURE_DOTS, joinDot, patternProblem, type Pattern } from '../../../common/gesture/pattern';

/** The pad's logic (src/components/GesturePad.tsx), also what the server accepts. */
const draw = (...dots: number[]): Pattern => dots.reduce<Pattern>((p, d) => joinDot(p, d), []);

describe('joining dots', () => {
  it('adds each dot once, in order', () => {
    expect(draw(0, 1, 4, 1, 7, 0)).toEqual([0, 1, 4, 7]);
  });
  it('joins a dot the line runs straight over, unless it is used already', () => {
    expect(draw(0, 2)).toEqual([0, 1, 2]);
    expect(draw(0, 8)).toEqual([0, 4, 8]);
    expect(draw(6, 0)).toEqual([6, 3, 0]);
    expect(draw(1, 7)).toEqual([1, 4, 7]);
    expect(draw(4, 0, 8)).toEqual([4, 0, 8]);
    // A knight's move passes no dot.
    expect(draw(0, 5)).toEqual([0, 5]);
  });
  it('knows the dot half way only where there is one', () => {
    expect(dotBetween(2, 6)).toBe(4);
    expect(dotBetween(3, 5)).toBe(4);
    expect(dotBetween(0, 1)).toBeNull();
    expect(dotBetween(0, 7)).toBeNull();
  });
  it('ignores what is not a dot', () => {
    expect(joinDot([0], 9)).toEqual([0]);
    expect(joinDot([0], -1)).toEqual([0]);
    expect(joinDot([0], 1.5)).toEqual([0]);
  });
});

describe('what a pattern may be', () => {
  it('needs at least 4 dots', () => {
    expect(patternProblem([0, 1, 2])).toBe('tooShort');
    expect(patternProblem([0, 1, 2, 5])).toBeNull();
    expect(patternProblem(draw(0, 1, 2, 5, 8, 7, 6, 3, 4))).toBeNull();
  });
  it('refuses what a pad could not have drawn', () => {
    expect(patternProblem([0, 1, 0, 3])).toBe('repeated');
    expect(patternProblem([0, 2, 5, 8])).toBe('skipsADot');
    expect(patternProblem([1, 0, 2, 5])).toBeNull();
    expect(patternProblem([0, 1, 9, 4])).toBe('notADot');
    expect(patternProblem(['0', 1, 2, 3])).toBe('notADot');
  });
});

describe('finding the dot under the pointer', () => {
  const size = 240;
  it('hits each dot at its centre and near it', () => {
    for (let dot = 0; dot < GESTURE_DOTS; dot++) {
      const c = dotCentre(dot, size);
      expect(dotAt(c.x, c.y, size)).toBe(dot);
      expect(dotAt(c.x + 20, c.y - 10, size)).toBe(dot);
    }
  });
  it('misses between dots and outside the pad, so a diagonal does not catch neighbours', () => {
    expect(dotAt(80, 80, size)).toBeNull();
    expect(dotAt(-1, 40, size)).toBeNull();
    expect(dotAt(40, 241, size)).toBeNull();
    // The diagonal from 0 to 8 passes the corners of 1, 3, 5 and 7 without joining them.
    const path: number[] = [];
    for (let t = 0; t <= 1; t += 0.01) {
      const dot = dotAt(40 + t * 160, 40 + t * 160, size);
      if (dot !== null && !path.includes(dot)) path.push(dot);
    }
    expect(path).toEqual([0, 4, 8]);
  });
});

describe('keyboard', () => {
  it('moves the focus with the arrow keys and stops at the edges', () => {
    expect(dotAfterKey(4, 'ArrowUp')).toBe(1);
    expect(dotAfterKey(4, 'ArrowDown')).toBe(7);
    expect(dotAfterKey(4, 'ArrowLeft')).toBe(3);
    expect(dotAfterKey(4, 'ArrowRight')).toBe(5);
    expect(dotAfterKey(0, 'ArrowUp')).toBe(0);
    expect(dotAfterKey(2, 'ArrowRight')).toBe(2);
    expect(dotAfterKey(7, 'Home')).toBe(0);
    expect(dotAfterKey(1, 'End')).toBe(8);
    expect(dotAfterKey(4, 'Enter')).toBeNull();
  });
  it('names each dot by row and column', () => {
    expect(dotLabel(0)).toBe('第1行第1列');
    expect(dotLabel(5)).toBe('第2行第3列');
  });
});
