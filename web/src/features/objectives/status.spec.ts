import { groupStatus, overallProgress } from './status';

const steps = (...statuses: Array<'pending' | 'completed' | 'error'>) => statuses.map((status) => ({ status }));

describe('objective group status (docs/product.md §4)', () => {
  it.each([
    [steps('completed', 'completed'), 'completed'],
    [steps('error', 'error'), 'error'],
    [steps('completed', 'pending'), 'inProgress'],
    [steps('error', 'pending'), 'inProgress'],
    [steps('error', 'completed'), 'inProgress'],
    [steps('pending', 'pending'), 'pending'],
    [steps(), 'pending'],
  ])('%j is %s', (list, status) => {
    expect(groupStatus(list)).toBe(status);
  });

  it('rounds the completed steps across all groups', () => {
    const group = (...statuses: Array<'pending' | 'completed' | 'error'>) => ({
      steps: statuses.map((status, i) => ({ _id: String(i), title: '', status })),
    });
    expect(overallProgress([])).toBe(0);
    expect(overallProgress([group('completed', ...Array<'pending'>(11).fill('pending'))])).toBe(8);
    expect(overallProgress([group('completed', 'error'), group('completed')])).toBe(67);
  });
});
