import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';

import ts from 'typescript';

/**
 * The direction of the SPA's dependencies: routes → layout → features → ui and lib. The layout composes the
 * features; a feature never reaches back into the frame that hosts it, and the shared UI and helpers know
 * neither, so a feature's page can be rendered, tested or moved on its own. api/ is not held to it yet: its
 * client reads the session tokens from features/auth/tokens.ts.
 */
const FORBIDDEN: Record<string, readonly string[]> = {
  features: ['layout', 'routes', 'widget'],
  ui: ['features', 'layout', 'routes', 'widget'],
  lib: ['features', 'layout', 'routes', 'widget'],
  // The chat's framework-free core, shared by features/chat and the website widget: plain TypeScript.
  'chat-core': ['features', 'layout', 'routes', 'widget', 'ui', 'lib', 'api', 'i18n'],
  // The widget runs on customers' sites in its own small bundle: the chat core and nothing of the app.
  widget: ['features', 'layout', 'routes', 'ui', 'lib', 'api', 'i18n'],
};

const SRC = __dirname;

/**
 * Every module a source file names: static imports and re-exports (styles included), `import()`, `require()`
 * and the modules a test mocks or reads through jest (a test that mocks the layout depends on it).
 */
function importsOf(fileName: string, text: string): string[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, false, ts.ScriptKind.TSX);
  const found: string[] = [];
  const visit = (node: ts.Node) => {
    if ((ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier) {
      if (ts.isStringLiteral(node.moduleSpecifier)) found.push(node.moduleSpecifier.text);
    } else if (ts.isCallExpression(node) && node.arguments.length > 0 && ts.isStringLiteral(node.arguments[0])) {
      const callee = node.expression;
      const named =
        callee.kind === ts.SyntaxKind.ImportKeyword ||
        (ts.isIdentifier(callee) && callee.text === 'require') ||
        (ts.isPropertyAccessExpression(callee) &&
          ts.isIdentifier(callee.expression) &&
          callee.expression.text === 'jest');
      if (named) found.push(node.arguments[0].text);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

/** The top folder (or root module, without its extension) of `src/` a path is in; null outside `src/`. */
function areaOf(path: string): string | null {
  const inSrc = relative(SRC, path);
  if (inSrc.startsWith('..')) return null;
  return inSrc.split(sep)[0].replace(/\.[^.]+$/, '');
}

/** `file → specifier` for every relative import of a file under `from/` that lands in one of `targets`. */
function crossings(from: string, targets: readonly string[]): string[] {
  const root = join(SRC, from);
  return sourceFiles(root).flatMap((file) =>
    importsOf(file, readFileSync(file, 'utf8'))
      .filter((specifier) => specifier.startsWith('.'))
      .filter((specifier) => targets.includes(areaOf(resolve(dirname(file), specifier)) ?? ''))
      .map((specifier) => `${relative(SRC, file)} → ${specifier}`),
  );
}

/** The feature a path is in (`features/<name>/…`); null outside `src/features/`. */
function featureOf(path: string): string | null {
  const [top, name, ...rest] = relative(SRC, path).split(sep);
  return top === 'features' && name && rest.length > 0 ? name : null;
}

/**
 * Feature → the other features its files import (tests left out: a spec may render a neighbour's page), each edge
 * with one file that makes it.
 */
function featureGraph(): Map<string, Map<string, string>> {
  const graph = new Map<string, Map<string, string>>();
  for (const file of sourceFiles(join(SRC, 'features')).filter((f) => !/\.spec\.tsx?$/.test(f))) {
    const from = featureOf(file);
    if (!from) continue;
    const edges = graph.get(from) ?? new Map<string, string>();
    graph.set(from, edges);
    for (const specifier of importsOf(file, readFileSync(file, 'utf8'))) {
      if (!specifier.startsWith('.')) continue;
      const to = featureOf(resolve(dirname(file), specifier));
      if (to && to !== from && !edges.has(to)) edges.set(to, `${relative(SRC, file)} → ${specifier}`);
    }
  }
  return graph;
}

/** Every cycle of a graph, each once (from its smallest node), as `a → b → a`. */
function cyclesOf(graph: ReadonlyMap<string, ReadonlyMap<string, string>>): string[] {
  const found: string[] = [];
  const walk = (start: string, node: string, path: string[]) => {
    for (const next of graph.get(node)?.keys() ?? []) {
      if (next === start) found.push([...path, start].join(' → '));
      else if (next > start && !path.includes(next)) walk(start, next, [...path, next]);
    }
  };
  for (const start of [...graph.keys()].sort()) walk(start, start, [start]);
  return found;
}

describe('dependency direction of web/src', () => {
  it('finds static, dynamic, re-exported and mocked imports', () => {
    const text = [
      "import { a } from './a';",
      "import './b.css';",
      "export { c } from '../c';",
      "const D = lazy(() => import('./d'));",
      "jest.mock('../../e', () => ({}));",
      "const f = require('./f');",
      "const g = jest.requireActual('./g');",
    ].join('\n');
    expect(importsOf('sample.tsx', text)).toEqual(['./a', './b.css', '../c', './d', '../../e', './f', './g']);
  });

  it('places a path under its top folder of src/', () => {
    expect(areaOf(resolve(SRC, 'features/chat/pages', '../../../layout/MainLayout'))).toBe('layout');
    expect(areaOf(resolve(SRC, 'features/chat/pages', '../../sparks/hooks'))).toBe('features');
    expect(areaOf(resolve(SRC, 'features', '../routes'))).toBe('routes');
    expect(areaOf(resolve(SRC, '..', 'public'))).toBeNull();
  });

  it.each(Object.entries(FORBIDDEN))('nothing in %s/ imports from %j', (from, targets) => {
    expect(crossings(from, targets)).toEqual([]);
  });

  it('chat-core/ takes only types from packages (no React, i18next or zod in the widget)', () => {
    const values = sourceFiles(join(SRC, 'chat-core'))
      .filter((file) => !/\.spec\.tsx?$/.test(file))
      .flatMap((file) =>
        [...readFileSync(file, 'utf8').matchAll(/^(?:import|export)(?! type )[^;]*?from '([^.][^']*)'/gm)].map(
          (match) => `${relative(SRC, file)} → ${match[1]}`,
        ),
      );
    expect(values).toEqual([]);
  });

  it('finds the cycles of a graph', () => {
    const graph = new Map([
      ['a', new Map([['b', '']])],
      ['b', new Map([['c', '']])],
      [
        'c',
        new Map([
          ['a', ''],
          ['d', ''],
        ]),
      ],
      ['d', new Map<string, string>()],
    ]);
    expect(cyclesOf(graph)).toEqual(['a → b → c → a']);
    expect(
      cyclesOf(
        new Map([
          ['a', new Map([['b', '']])],
          ['b', new Map<string, string>()],
        ]),
      ),
    ).toEqual([]);
    expect(featureOf(resolve(SRC, 'features/chat/hooks/useChat.ts'))).toBe('chat');
    expect(featureOf(resolve(SRC, 'lib/router.ts'))).toBeNull();
  });

  it('no feature depends on itself through other features (features/* import one another without a cycle)', () => {
    const graph = featureGraph();
    const cycles = cyclesOf(graph).map((cycle) => {
      const names = cycle.split(' → ');
      const via = names.slice(0, -1).map((name, i) => graph.get(name)?.get(names[i + 1]));
      return `${cycle} (${via.join('; ')})`;
    });
    expect(cycles).toEqual([]);
  });
});
