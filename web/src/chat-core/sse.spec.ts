import { EventStreamParser } from './sse';

describe('EventStreamParser', () => {
  it('answers the data of complete events, across chunks, skipping comments', () => {
    const parser = new EventStreamParser();
    expect(parser.push('data: {"type":"his')).toEqual([]);
    expect(parser.push('tory"}\n\n: keep-alive\n\ndata: {"type":"token"}\n')).toEqual(['{"type":"history"}']);
    expect(parser.push('\ndata: {"type":"done"}\r\n\r\n')).toEqual(['{"type":"token"}', '{"type":"done"}']);
  });

  it('joins multi-line data and keeps a last event without its blank line', () => {
    const parser = new EventStreamParser();
    expect(parser.push('event: x\ndata: a\ndata:b\n\n')).toEqual(['a\nb']);
    parser.push('data: tail');
    expect(parser.flush()).toEqual(['tail']);
  });
});
