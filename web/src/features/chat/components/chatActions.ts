import { createContext, useContext } from 'react';

export interface ChatActions {
  /** Sends a message into the chat (ignored while a reply is on its way); true once it is stored. */
  send: (text: string) => Promise<boolean>;
  /** A reply is on its way. */
  busy: boolean;
}

export const ChatActionsContext = createContext<ChatActions>({
  send: () => Promise.resolve(false),
  busy: false,
});

/** For content rendered inside a ChatPanel (its `welcome`): send into that chat. */
export function useChatActions(): ChatActions {
  return useContext(ChatActionsContext);
}
