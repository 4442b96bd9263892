/** The builder's test verdicts (sent by the test page) and "create a new test" from any step. */

import { MAX_TESTS_PER_SPARK } from '@sparks/contracts';
import { route } from '../texts';
import type { IntentHandler } from '../turn';

export const testSatisfactory: IntentHandler = {
  async run(turn) {
    await turn.completeEvent('test.satisfactory', 'completed');
    turn.say('testOk');
    return turn.askFrom(turn.state.step);
  },
};

export const testNotSatisfactory: IntentHandler = {
  async run(turn) {
    await turn.completeEvent('test.satisfactory', 'error');
    turn.say('testKo');
    // The test is gone (the page deletes it with the answer): a way to the next one, once the changes are made.
    const again = turn.label('newTestButton');
    turn.localAction('buttons', (l) => ({ buttons: [{ label: l('newTestButton'), value: again }] }));
  },
};

/**
 * "Create a new test", from any step (the button after a test that went badly): a test the owner then opens; a
 * conversation that was at the test goes on from judging the new one. At the limit it says so, instead of
 * reopening an old test as the flow's own step does.
 */
export const newTest: IntentHandler = {
  writes: ['testId'],
  async run(turn) {
    const { tests, objectives } = turn.ports;
    if ((await tests.count()) >= MAX_TESTS_PER_SPARK)
      return turn.say('newTestLimit', { max: String(MAX_TESTS_PER_SPARK) });
    const testId = await tests.create();
    if (!testId) return turn.say('newTestNoSpark');
    turn.setVar('testId', testId);
    turn.action('event', { event: 'testCreated', testId });
    turn.say('newTestCreated');
    const steps = turn.flow.steps;
    const judge = steps.find((s) => s.answer.kind === 'event' && s.answer.event === 'test.satisfactory');
    const creates = steps.find((s) => s.effects?.some((e) => 'do' in e && e.do === 'createTest'));
    const at = turn.state.step;
    if (creates && at === creates.id && creates.objective) await objectives.setStatus(creates.id, 'completed');
    if (judge && (at === judge.id || at === creates?.id)) return turn.askFrom(judge.id);
    const vars = await turn.vars();
    turn.localAction('buttons', (l) => ({
      buttons: [{ label: l('newTestOpen'), goto: route('/spark/{sparkId}/test/{testId}', vars) }],
    }));
  },
};
