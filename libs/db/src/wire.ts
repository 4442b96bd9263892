import type { MessageRow } from './conversations.repository';

/** Renders a stored message in the spec's shape: `_id`, type, data, createdAt. */
export function toWireMessage(m: MessageRow) {
  return {
    _id: m.id,
    type: m.type,
    data: m.data,
    createdAt: m.createdAt.toISOString(),
    replyTo: m.replyTo,
  };
}
