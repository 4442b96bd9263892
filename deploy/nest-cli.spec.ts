import fs from 'node:fs';
import path from 'node:path';

/**
 * nest-cli.json against the TypeScript project references it must agree with. The Nest CLI builds a monorepo's
 * projects one by one in the order they are listed (`nest build --all`), each as its own TypeScript program that
 * reads the libraries it references from their dist folders; so every workspace with a tsconfig is a project,
 * each project's tsconfig is the one `tsc -b` builds, and a library comes before everything that references it.
 */
const ROOT = path.resolve(__dirname, '..');

interface Project {
  type: 'application' | 'library';
  root: string;
  sourceRoot: string;
  entryFile: string;
  compilerOptions: { tsConfigPath: string };
}
interface NestCli {
  monorepo: boolean;
  root: string;
  compilerOptions: { builder: string; tsConfigPath: string };
  projects: Record<string, Project>;
}

const cli = JSON.parse(fs.readFileSync(path.join(ROOT, 'nest-cli.json'), 'utf8')) as NestCli;

/** The folders (relative to the root) a tsconfig references, as written in its `references`. */
function referencesOf(tsconfig: string): string[] {
  const file = path.join(ROOT, tsconfig);
  const json = JSON.parse(fs.readFileSync(file, 'utf8')) as { references?: { path: string }[] };
  return (json.references ?? []).map((r) => path.relative(ROOT, path.resolve(path.dirname(file), r.path)));
}

/** The workspaces of package.json that build with a tsconfig of their own through `tsc -b` (not the web). */
function serverWorkspaces(): string[] {
  const libs = fs.readdirSync(path.join(ROOT, 'libs')).map((name) => `libs/${name}`);
  return [...libs, 'api', 'worker'].filter((dir) => fs.existsSync(path.join(ROOT, dir, 'tsconfig.json')));
}

/**
 * Projects inside a library's sources with a tsconfig of their own (`libs/domain/src/billing`, which `libs/db` builds
 * on while `libs/domain` builds on `libs/db`): their sources are at their root.
 */
function nestedProjects(): string[] {
  return fs
    .readdirSync(path.join(ROOT, 'libs'))
    .flatMap((lib) => {
      const src = path.join(ROOT, 'libs', lib, 'src');
      if (!fs.existsSync(src)) return [];
      return fs
        .readdirSync(src, { withFileTypes: true })
        .filter((d) => d.isDirectory())
        .map((d) => `libs/${lib}/src/${d.name}`);
    })
    .filter((dir) => fs.existsSync(path.join(ROOT, dir, 'tsconfig.json')));
}

describe('nest-cli.json', () => {
  const projects = Object.entries(cli.projects);

  it('is a monorepo whose default project is the api, built with tsc', () => {
    expect(cli.monorepo).toBe(true);
    expect(cli.root).toBe('api');
    expect(cli.compilerOptions.builder).toBe('tsc');
    expect(cli.compilerOptions.tsConfigPath).toBe('api/tsconfig.json');
  });

  it('lists every server workspace (and project nested in one) once, with the tsconfig, entry file and type it has', () => {
    const nested = nestedProjects();
    expect(projects.map(([, p]) => p.root).sort()).toEqual([...serverWorkspaces(), ...nested].sort());
    for (const [name, p] of projects) {
      expect(path.basename(p.root)).toBe(name);
      expect(p.compilerOptions.tsConfigPath).toBe(`${p.root}/tsconfig.json`);
      expect(p.sourceRoot).toBe(nested.includes(p.root) ? p.root : `${p.root}/src`);
      expect(p.type).toBe(p.root.startsWith('libs/') ? 'library' : 'application');
      expect(fs.existsSync(path.join(ROOT, p.sourceRoot, `${p.entryFile}.ts`))).toBe(true);
    }
  });

  it('lists a library before every project that references it (the order `nest build --all` builds in)', () => {
    const position = new Map(projects.map(([, p], i) => [p.root, i]));
    for (const [, p] of projects) {
      for (const dependency of referencesOf(p.compilerOptions.tsConfigPath)) {
        expect({ project: p.root, dependency, before: position.get(dependency)! < position.get(p.root)! }).toEqual({
          project: p.root,
          dependency,
          before: true,
        });
      }
    }
  });
});
