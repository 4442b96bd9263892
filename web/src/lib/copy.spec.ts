import { copyText } from './copy';

describe('copyText', () => {
  const clipboard = Object.getOwnPropertyDescriptor(navigator, 'clipboard');
  afterEach(() => {
    if (clipboard) Object.defineProperty(navigator, 'clipboard', clipboard);
    else delete (navigator as { clipboard?: unknown }).clipboard;
    window.getSelection()?.removeAllRanges();
  });

  function snippet(): HTMLElement {
    const pre = document.createElement('pre');
    pre.textContent = '<script src="/widget.js"></script>';
    document.body.append(pre);
    return pre;
  }

  it('writes through the Clipboard API when the page has it', async () => {
    const writeText = jest.fn().mockResolvedValue(undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    await expect(copyText('code', snippet())).resolves.toBe('copied');
    expect(writeText).toHaveBeenCalledWith('code');
  });

  it.each([
    ['no Clipboard API (a plain-HTTP address)', undefined],
    ['a refused permission', { writeText: () => Promise.reject(new DOMException('denied', 'NotAllowedError')) }],
  ])('selects the snippet for Ctrl+C with %s', async (_case, value) => {
    Object.defineProperty(navigator, 'clipboard', { value, configurable: true });
    const pre = snippet();
    await expect(copyText('code', pre)).resolves.toBe('selected');
    expect(window.getSelection()?.toString()).toBe(pre.textContent);
  });

  it("says copied when the browser's copy command worked", async () => {
    Object.defineProperty(navigator, 'clipboard', { value: undefined, configurable: true });
    const execCommand = jest.fn().mockReturnValue(true);
    Object.defineProperty(document, 'execCommand', { value: execCommand, configurable: true });
    try {
      await expect(copyText('code', snippet())).resolves.toBe('copied');
      expect(execCommand).toHaveBeenCalledWith('copy');
    } finally {
      delete (document as { execCommand?: unknown }).execCommand;
    }
  });
});
