import { TextDecoder, TextEncoder } from 'node:util';
import '@testing-library/jest-dom';

// jsdom lacks TextEncoder/TextDecoder, which react-router needs at import time.
Object.assign(globalThis, { TextEncoder, TextDecoder });

// A component test that walks a dialog or a menu takes well under a second on an idle machine, but jsdom
// and React are CPU-bound: on a loaded 2-core CI machine the same walk took over Jest's default 5 s.
// The limit is for hung tests, not a speed check (speed lives in bench/).
jest.setTimeout(30_000);

// jsdom has no ResizeObserver, which Headless UI's floating menus (the attach menu, the profile dropdown) use to
// place themselves: an inert one, for every web test.
if (!('ResizeObserver' in globalThis)) {
  Object.assign(globalThis, {
    ResizeObserver: class {
      observe() {}
      unobserve() {}
      disconnect() {}
    },
  });
}
