import { FLOWS } from './index';
import { objectivesOf, withSparkState } from './objectives';

const builder = FLOWS.find((f) => f.objectivesKey === 'spark')!;
const deploy = FLOWS.find((f) => f.objectivesKey === 'deploy')!;

describe('withSparkState: what a Spark’s state completes (one rule for the api and the worker)', () => {
  const allButPublish = Object.fromEntries(
    builder.steps.filter((s) => s.objective && s.id !== 'deploy.publish').map((s) => [s.id, 'completed' as const]),
  );

  it('completes "Publish your Spark" while the Spark is published, to 100 %', () => {
    expect(objectivesOf(builder, withSparkState(builder, allButPublish, { published: false }), 'en').progress).toBe(92);
    const live = objectivesOf(builder, withSparkState(builder, allButPublish, { published: true }), 'es');
    expect(live.progress).toBe(100);
    expect(live.objectives.find((o) => o._id === 'deploy')).toMatchObject({ title: 'Publícalo', status: 'completed' });
  });

  it('changes nothing else, and nothing without a state or in a flow without that step', () => {
    const stored = { 'business.name': 'error' as const };
    expect(withSparkState(builder, stored, undefined)).toBe(stored);
    expect(withSparkState(builder, stored, { published: true })).toEqual({
      'business.name': 'error',
      'deploy.publish': 'completed',
    });
    expect(withSparkState(deploy, {}, { published: true })).toEqual({});
  });
});
