/** A page of a list: answered as `{ data: items, meta: { total, page, limit } }`. */
export class Paged<T> {
  constructor(
    readonly items: T[],
    readonly meta: { total: number; page: number; limit: number },
  ) {}
}
