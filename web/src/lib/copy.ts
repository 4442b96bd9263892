/**
 * Copies `text` for the user: the Clipboard API where the page may use it; else (a plain-HTTP
 * address, where browsers offer no `navigator.clipboard`, or a refused permission) the text of
 * `element` is selected and the browser's copy command is tried. Answers `'copied'`, or `'selected'`
 * when only the selection could be made (the user presses Ctrl+C / ⌘C).
 */
export async function copyText(text: string, element: HTMLElement | null): Promise<'copied' | 'selected'> {
  try {
    if (!navigator.clipboard) throw new Error('no Clipboard API');
    await navigator.clipboard.writeText(text);
    return 'copied';
  } catch {
    const selection = window.getSelection();
    if (element && selection) {
      const range = document.createRange();
      range.selectNodeContents(element);
      selection.removeAllRanges();
      selection.addRange(range);
    }
    let copied = false;
    try {
      copied = typeof document.execCommand === 'function' && document.execCommand('copy');
    } catch {
      copied = false;
    }
    return copied ? 'copied' : 'selected';
  }
}
