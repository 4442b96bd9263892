// Testing Library's waitFor/findBy give up after 1 s by default: under load (the unit tier runs beside typecheck and
// lint in `npm test`) SparkTestPage's "adds a test" ran out of it. 5 s, like jest's own limit in web-setup.ts, is
// for hung conditions, not a speed check: a condition met sooner returns sooner. Plain JavaScript: the tests'
// TypeScript has no DOM types, which @testing-library/react's would bring into every test file.
const { configure } = require('@testing-library/react');

configure({ asyncUtilTimeout: 5_000 });
