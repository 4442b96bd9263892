import type { SparkTestView, SparkView } from '@sparks/contracts';
import type { SparkRow, SparkTestRow } from '@sparks/db';

export function toSparkView(s: SparkRow): SparkView {
  // A deploy token left in an old row's options is never sent (tokens live hashed in `deployments`).
  const { deployToken: _deployToken, ...options } = s.options as SparkRow['options'] & { deployToken?: unknown };
  return {
    _id: s.id,
    sparkId: s.id,
    name: s.name,
    pin: s.pin,
    type: s.type,
    userId: s.userId,
    options,
    createdAt: s.createdAt.toISOString(),
    updatedAt: s.updatedAt.toISOString(),
  };
}

export function toTestView(t: SparkTestRow): SparkTestView {
  return { _id: t.id, sparkId: t.sparkId, name: t.name, params: t.params, createdAt: t.createdAt.toISOString() };
}
