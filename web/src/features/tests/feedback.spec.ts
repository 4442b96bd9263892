import { getChatMode, setChatMode } from '../sparks/chatMode';
import { sendTestFeedback } from './feedback';

beforeEach(() => {
  localStorage.clear();
  setChatMode('Test');
});

function seedBuilderConversations() {
  localStorage.setItem(
    'chat_conversations',
    JSON.stringify({
      s1: { sessionId: 'conv-1', sparkId: 's1', messages: [] },
      s2: { sessionId: 'conv-2', sparkId: 's2', messages: [] },
    }),
  );
}

describe('sendTestFeedback (docs/product.md §4)', () => {
  it('goes to the Spark in Normal mode with its builder conversation forgotten, then sends the verdict 0.5 s later', async () => {
    seedBuilderConversations();
    const navigate = jest.fn();
    const send = jest.fn().mockResolvedValue({ ai: null, messages: [], sessionId: 'conv-1' });
    let scheduled: { run: () => void; ms: number } | null = null;

    const done = sendTestFeedback('s1', false, {
      navigate,
      currentPath: () => '/spark/s1',
      send,
      now: () => 1234,
      schedule: (run, ms) => {
        scheduled = { run, ms };
      },
    });

    expect(getChatMode()).toBe('Normal');
    expect(navigate).toHaveBeenCalledWith('/spark/s1');
    expect(JSON.parse(localStorage.getItem('chat_conversations')!)).toEqual({
      s2: { sessionId: 'conv-2', sparkId: 's2', messages: [] },
    });
    expect(send).not.toHaveBeenCalled();
    expect(scheduled!.ms).toBe(500);

    scheduled!.run();
    await done;
    expect(send).toHaveBeenCalledWith('s1', 'test not satisfactory');
    // The reply is in: the Spark page is opened again so it reloads its history.
    expect(navigate).toHaveBeenLastCalledWith('/spark/s1?refresh=1234', { replace: true });
  });

  it("sends 'test satisfactory' for Yes and leaves the user alone once they have moved on", async () => {
    const navigate = jest.fn();
    const send = jest.fn().mockResolvedValue({ ai: null, messages: [], sessionId: 'x' });
    await sendTestFeedback('s1', true, {
      navigate,
      currentPath: () => '/settings',
      send,
      schedule: (run) => run(),
    });
    expect(send).toHaveBeenCalledWith('s1', 'test satisfactory');
    expect(navigate).toHaveBeenCalledTimes(1);
  });

  it('logs a failed send and never throws', async () => {
    const error = jest.spyOn(console, 'error').mockImplementation(() => undefined);
    const navigate = jest.fn();
    await sendTestFeedback('s1', true, {
      navigate,
      currentPath: () => '/spark/s1',
      send: jest.fn().mockRejectedValue(new Error('down')),
      schedule: (run) => run(),
    });
    expect(error).toHaveBeenCalledWith('Failed to send message', expect.any(Error));
    expect(navigate).toHaveBeenCalledTimes(1);
    error.mockRestore();
  });
});
