export const PDF_EXTRACTOR = Symbol('PDF_EXTRACTOR');
/** The worker's own job producer: the sweep queues documents left with no job. */
export const INGEST_PRODUCER = Symbol('INGEST_PRODUCER');
