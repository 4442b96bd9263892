import { addToken } from './stream';

describe('chat core: a streamed reply', () => {
  it("shows a reply handed to another worker once: the new attempt's text replaces the dead one's", () => {
    let streamed = addToken({ text: '' }, 'r1', 'We open');
    streamed = addToken(streamed, 'r1', ' at 8');
    expect(streamed.text).toBe('We open at 8');
    streamed = addToken(streamed, 'r2', 'We');
    streamed = addToken(streamed, 'r2', ' open at 8 on weekdays.');
    expect(streamed).toEqual({ messageId: 'r2', text: 'We open at 8 on weekdays.' });
  });
});
