export const STORAGE = Symbol('STORAGE');
export const PDF_EXTRACTOR = Symbol('PDF_EXTRACTOR');
