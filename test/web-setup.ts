import { TextDecoder, TextEncoder } from 'node:util';
import '@testing-library/jest-dom';

// jsdom lacks TextEncoder/TextDecoder, which react-router needs at import time.
Object.assign(globalThis, { TextEncoder, TextDecoder });
