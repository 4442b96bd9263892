import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

import { parse } from 'yaml';

/**
 * The deployment files against their schemas (scripts/check-deploy.mjs: Kubernetes' OpenAPI schemas from
 * `kubernetes-models` and `@kubernetes-models/keda`, the Compose Specification's from `dclint`), offline. No
 * cluster or Docker engine runs here, so this is what keeps deploy/kubernetes and docker-compose.yml correct.
 */
const ROOT = path.resolve(__dirname, '..');
const SCRIPT = path.join(ROOT, 'scripts', 'check-deploy.mjs');

function check(...args: string[]) {
  const run = spawnSync(process.execPath, [SCRIPT, ...args], { cwd: ROOT, encoding: 'utf8', timeout: 60_000 });
  return { code: run.status, out: run.stdout, err: run.stderr };
}

let dir: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'deploy-check-'));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** A copy of a repo file with `edit` applied, in the scratch folder. */
function broken(file: string, edit: (text: string) => string): string {
  const text = fs.readFileSync(path.join(ROOT, file), 'utf8');
  const changed = edit(text);
  expect(changed).not.toBe(text);
  const target = path.join(dir, path.basename(file));
  fs.writeFileSync(target, changed);
  return target;
}

describe('deployment files', () => {
  it('deploy/kubernetes/*.yaml and docker-compose.yml are valid', () => {
    const { code, out, err } = check();
    expect(err).toBe('');
    expect(code).toBe(0);
    for (const file of ['api.yaml', 'config.yaml', 'keda-scaledobject.yaml', 'worker.yaml'])
      expect(out).toContain(`deploy/kubernetes/${file}`);
    expect(out).toContain('docker-compose.yml');
  }, 60_000);

  it('fails on a Deployment whose replicas is not a number', () => {
    const file = broken('deploy/kubernetes/worker.yaml', (t) => t.replace(/replicas: \d+/, 'replicas: two'));
    const { code, err } = check(file);
    expect(code).toBe(1);
    expect(err).toMatch(/Deployment .*replicas/);
  }, 60_000);

  it('fails on a KEDA ScaledObject without its scale target', () => {
    const file = broken('deploy/kubernetes/keda-scaledobject.yaml', (t) =>
      t.replace(/scaleTargetRef:/, 'scaleTarget:'),
    );
    const { code, err } = check(file);
    expect(code).toBe(1);
    expect(err).toMatch(/ScaledObject .*scaleTargetRef/);
  }, 60_000);

  it('fails on a kind it has no schema for, instead of passing it', () => {
    const file = path.join(dir, 'unknown.yaml');
    fs.writeFileSync(file, 'apiVersion: example.com/v1\nkind: Gadget\nmetadata:\n  name: x\n');
    const { code, err } = check(file);
    expect(code).toBe(1);
    expect(err).toContain('no schema for apiVersion example.com/v1 kind Gadget');
  }, 60_000);

  it('fails on a compose file with a misspelt service key', () => {
    const file = broken('docker-compose.yml', (t) => t.replace(/\n {4}depends_on:/, '\n    depends:'));
    const { code, err } = check('--compose', file);
    expect(code).toBe(1);
    expect(err).toMatch(/must NOT have additional properties: depends/);
  }, 60_000);
});

describe('docker-compose.yml passes the settings the README tells its users to set', () => {
  const compose = parse(fs.readFileSync(path.join(ROOT, 'docker-compose.yml'), 'utf8'), { merge: true }) as {
    services: Record<string, { environment?: Record<string, string> }>;
  };

  // README "Admins and disabled accounts" and "Docker Compose": the first admin comes from ADMIN_EMAILS, and the
  // disabled-account dialog names SUPPORT_EMAIL; unset in the environment or .env, they stay empty.
  it.each(['ADMIN_EMAILS', 'SUPPORT_EMAIL'])('%s reaches the api and the worker from the environment', (name) => {
    for (const service of ['api', 'worker']) {
      expect({ service, value: compose.services[service].environment?.[name] }).toEqual({
        service,
        value: `\${${name}:-}`,
      });
    }
  });
});

describe('queue counts across api replicas', () => {
  /**
   * Every api replica exports the same `bullmq_job_count` (they read one Redis), so a query that adds the
   * series up counts each job once per replica. Each selection must first take one value per queue and
   * state (`max by (queue, state)`), whatever is added up after it.
   */
  const ONCE = /max by \(queue, state\) \(bullmq_job_count\{[^}]*\}\)/g;
  const uses = (expr: string) => expr.match(/bullmq_job_count/g)?.length ?? 0;

  it('the KEDA trigger counts each waiting or prioritized job once', () => {
    const yaml = fs.readFileSync(path.join(ROOT, 'deploy', 'kubernetes', 'keda-scaledobject.yaml'), 'utf8');
    const query = /^\s*query: (.+)$/m.exec(yaml)?.[1].trim() ?? '';
    expect(query).toBe('sum(max by (queue, state) (bullmq_job_count{state=~"waiting|prioritized",queue!="usage"}))');
  });

  it("the Grafana dashboard's queue panels count each job once", () => {
    const dashboard = JSON.parse(
      fs.readFileSync(path.join(ROOT, 'deploy', 'grafana', 'sparks-dashboard.json'), 'utf8'),
    ) as { panels: Array<{ title: string; targets: Array<{ expr: string }> }> };
    const queued = dashboard.panels.flatMap((p) =>
      p.targets.filter((t) => uses(t.expr) > 0).map((t) => ({ panel: p.title, expr: t.expr })),
    );
    expect(queued.length).toBeGreaterThanOrEqual(2);
    for (const { panel, expr } of queued) {
      expect({ panel, once: expr.match(ONCE)?.length ?? 0 }).toEqual({ panel, once: uses(expr) });
    }
  });
});
