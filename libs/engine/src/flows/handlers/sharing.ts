/** The builder's browser over SharePoint and OneDrive (issue 20; sharing.ts), as an intent and its dialog. */

import { browseStateSchema, SharingBrowser, type BrowseState } from '../sharing';
import type { Dialog, IntentHandler, Turn } from '../turn';
import { z } from 'zod';

const browsing = z.object({ name: z.literal('browse'), browse: browseStateSchema });

/** The browser on this conversation: its state is the dialog's. */
function browser(turn: Turn, state?: BrowseState): SharingBrowser {
  let browse = state;
  return new SharingBrowser(
    {
      lang: turn.lang,
      text: (c) => turn.text(c),
      action: turn.action,
      load: () => browse,
      store: (next) => {
        browse = next;
        turn.setDialog(next ? { name: 'browse', browse: next } : undefined);
      },
    },
    turn.ports.sharing,
  );
}

export const browseSharing: IntentHandler = {
  async run(turn) {
    await browser(turn).start();
  },
};

export const browseDialog: Dialog<typeof browsing> = {
  schema: browsing,
  async reply(turn, { browse }, text) {
    if (turn.intent(text)) return false;
    const done = await browser(turn, browse).answer(text);
    if (done === 'handled') return true;
    turn.setDialog(undefined);
    if (done === 'other') return false;
    // Done browsing: the builder goes on where it was (past the documents step once a file was read).
    await turn.askFrom(turn.state.step);
    return true;
  },
  // The hidden start keyword (a picked file was read) offers the browser again.
  resume: (turn, { browse }) => browser(turn, browse).again(),
};
