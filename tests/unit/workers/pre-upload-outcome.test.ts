import { describe, expect, it } from 'vitest';
import { checkAnswer } from './check-answer';
import { heldChoices } from '../../../src/features/transfer/state-labels';
import { outcomeOf } from '../../../workers/engine/pre-upload-checks';


describe('a same-name clash the caller may not replace', () => {
  it('is held as existsNotYours, and only rename or give up is offered', () => {
    const outcome = outcomeOf(checkAnswer({ suggestedName: 'a (1).txt',  exists: true, existingFileId: 'f', replaceable: false }));
    expect(outcome).toMatchObject({ state: 'held', holdReason: 'existsNotYours' });
    expect(heldChoices('existsNotYours').map((c) => (c.kind === 'decide' ? c.decision : c.kind))).toEqual(['rename', 'giveUp']);
  });
  it('a clash with a replaceable file still offers a new version', () => {
    expect(outcomeOf(checkAnswer({ suggestedName: 'a (1).txt',  exists: true, existingFileId: 'f' }))).toMatchObject({ holdReason: 'exists' });
    expect(heldChoices('exists').map((c) => (c.kind === 'decide' ? c.decision : c.kind))).toEqual(['newVersion', 'rename', 'giveUp']);
  });
});
