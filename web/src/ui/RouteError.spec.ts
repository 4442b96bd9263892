import { describeRouteError } from './RouteError';

describe('describeRouteError', () => {
  it('shows the status text of a route error response', () => {
    const response = { status: 404, statusText: 'Not Found', internal: false, data: null };
    expect(describeRouteError(response)).toBe('Not Found');
  });

  it('falls back to the status when there is no status text', () => {
    expect(describeRouteError({ status: 503, statusText: '', internal: false, data: null })).toBe('503');
  });

  it('shows the message of a thrown Error', () => {
    expect(describeRouteError(new Error('Failed to fetch dynamically imported module'))).toBe(
      'Failed to fetch dynamically imported module',
    );
  });

  it('shows a thrown string and nothing for anything else', () => {
    expect(describeRouteError('boom')).toBe('boom');
    expect(describeRouteError(undefined)).toBe('');
  });
});
