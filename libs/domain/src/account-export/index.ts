export { ZipSink } from './zip-sink';
export { writeAccountExport, safeName, type ReadStoredFile } from './write-export';
