#!/usr/bin/env node
/**
 * Validates the deployment files against their schemas, offline (`npm run check:deploy`; the unit suite runs it
 * through deploy/deploy.spec.ts):
 *
 * - deploy/kubernetes/*.yaml: every document against the Kubernetes OpenAPI schema of its apiVersion and kind, as
 *   packaged by `kubernetes-models` (core and apps) and `@kubernetes-models/keda` (KEDA's CRDs); a kind with no
 *   schema here is an error, not a pass;
 * - docker-compose.yml: against the Compose Specification's JSON schema (compose-spec/compose-spec), as the
 *   `dclint` package ships it in schemas/compose.schema.json.
 *
 * Usage: node scripts/check-deploy.mjs [--compose FILE]... [FILE.yaml]...   (no arguments: the repo's files)
 * Exit code 0 when every file is valid, 1 with one line per problem otherwise.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';
import Ajv from 'ajv';
import { parseAllDocuments } from 'yaml';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const require = createRequire(import.meta.url);

/** The model module of an apiVersion (group/version), by package. */
function modelModule(apiVersion) {
  if (apiVersion === 'v1') return 'kubernetes-models/v1';
  const [group, version] = apiVersion.split('/');
  if (group === 'keda.sh') return `@kubernetes-models/keda/keda.sh/${version}`;
  if (group && version && !group.includes('.')) return `kubernetes-models/${group}/${version}`;
  if (group && version && group.endsWith('.k8s.io')) return `kubernetes-models/${group}/${version}`;
  return undefined;
}

function parseYaml(file) {
  const text = fs.readFileSync(file, 'utf8');
  return parseAllDocuments(text, { merge: true }).map((doc) => {
    if (doc.errors.length) throw new Error(doc.errors.map((e) => e.message).join('; '));
    return doc.toJS();
  });
}

async function checkManifest(file) {
  const problems = [];
  let docs;
  try {
    docs = parseYaml(file);
  } catch (err) {
    return [`${file}: not YAML: ${err.message}`];
  }
  for (const [index, doc] of docs.entries()) {
    if (doc === null || doc === undefined) continue; // an empty document (a trailing ---)
    const where = `${file} document ${index + 1}${doc?.kind ? ` (${doc.kind} ${doc?.metadata?.name ?? ''})` : ''}`;
    const specifier = typeof doc?.apiVersion === 'string' ? modelModule(doc.apiVersion) : undefined;
    let Model;
    try {
      Model = specifier ? (await import(specifier))[doc.kind] : undefined;
    } catch {
      Model = undefined;
    }
    if (!Model) {
      problems.push(`${where}: no schema for apiVersion ${doc?.apiVersion} kind ${doc?.kind}`);
      continue;
    }
    try {
      new Model(doc).validate();
    } catch (err) {
      problems.push(`${where}: ${err.message}`);
    }
  }
  return problems;
}

function checkCompose(file) {
  let docs;
  try {
    docs = parseYaml(file);
  } catch (err) {
    return [`${file}: not YAML: ${err.message}`];
  }
  // The Compose Specification's schema (draft-07) as dclint ships it (its package exports no path to it).
  const schemaFile = path.join(path.dirname(require.resolve('dclint/package.json')), 'schemas', 'compose.schema.json');
  const { $schema: _draft, ...schema } = JSON.parse(fs.readFileSync(schemaFile, 'utf8'));
  const ajv = new Ajv({ strict: false, allErrors: true });
  // Its formats, as the Compose Specification defines them.
  ajv.addFormat('duration', /^(\d+(\.\d+)?(ns|us|ms|s|m|h))+$/);
  ajv.addFormat('ports', /^((\[[0-9a-f:.]+\]|[0-9.]+):)?(\d+(-\d+)?:)?\d+(-\d+)?(\/(tcp|udp|sctp))?$/i);
  ajv.addFormat('expose', /^\d+(-\d+)?(\/(tcp|udp|sctp))?$/i);
  ajv.addFormat('subnet_ip_address', /^[0-9a-f:.]+\/\d{1,3}$/i);
  const validate = ajv.compile(schema);
  if (validate(docs[0])) return [];
  return validate.errors.map(
    (e) =>
      `${file}: ${e.instancePath || '/'} ${e.message}${e.params?.additionalProperty ? `: ${e.params.additionalProperty}` : ''}`,
  );
}

async function main(argv) {
  const compose = [];
  const manifests = [];
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--compose') compose.push(argv[++i]);
    else manifests.push(argv[i]);
  }
  if (compose.length === 0 && manifests.length === 0) {
    const dir = path.join(ROOT, 'deploy', 'kubernetes');
    for (const name of fs.readdirSync(dir).sort()) if (/\.ya?ml$/.test(name)) manifests.push(path.join(dir, name));
    compose.push(path.join(ROOT, 'docker-compose.yml'));
  }
  const problems = [];
  for (const file of manifests) problems.push(...(await checkManifest(file)));
  for (const file of compose) problems.push(...checkCompose(file));
  for (const line of problems) console.error(line);
  if (problems.length === 0)
    console.log(`valid: ${[...manifests, ...compose].map((f) => path.relative(ROOT, f)).join(', ')}`);
  return problems.length === 0 ? 0 : 1;
}

process.exitCode = await main(process.argv.slice(2));
