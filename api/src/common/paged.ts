/** A list answered with extra facts: `{ data: items, meta }` (pages, progress…). */
export class Paged<T, M extends object = { total: number; page: number; limit: number }> {
  constructor(
    readonly items: T[],
    readonly meta: M,
  ) {}
}
