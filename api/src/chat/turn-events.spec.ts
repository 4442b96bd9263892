import { TurnEvents } from './turn-events';

async function read<T>(events: AsyncIterable<T>): Promise<T[]> {
  const seen: T[] = [];
  for await (const e of events) seen.push(e);
  return seen;
}

describe('TurnEvents', () => {
  it('yields what was pushed before and while reading, then ends', async () => {
    const q = new TurnEvents<number>();
    q.push(1);
    const reading = read(q);
    q.push(2);
    await Promise.resolve();
    q.push(3);
    q.end();
    q.push(4);
    expect(await reading).toEqual([1, 2, 3]);
  });

  it('tells its owner when the consumer stops early', async () => {
    const returned = jest.fn();
    const q = new TurnEvents<number>(returned);
    q.push(1);
    q.push(2);
    for await (const e of q) if (e === 1) break;
    expect(returned).toHaveBeenCalledTimes(1);
  });

  it('does not call back when it ended by itself', async () => {
    const returned = jest.fn();
    const q = new TurnEvents<number>(returned);
    q.end();
    expect(await read(q)).toEqual([]);
    expect(returned).not.toHaveBeenCalled();
  });
});
