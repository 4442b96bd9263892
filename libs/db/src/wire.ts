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

/** Messages in the spec's shape, each answer with the reader's own rating when they gave one (issue 35). */
export function toRatedWireMessages(
  rows: MessageRow[],
  ratings: Map<string, { rating: 'up' | 'down'; comment: string | null }>,
) {
  return rows.map((m) => {
    const wire = toWireMessage(m);
    const rated = ratings.get(m.id);
    return rated ? { ...wire, feedback: { rating: rated.rating, comment: rated.comment } } : wire;
  });
}
