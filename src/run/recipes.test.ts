import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readlinkSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { parse, parseAllDocuments } from 'yaml';
import { packageRoot } from '../dialects/index.js';

const root = packageRoot();
const tmp = mkdtempSync(join(tmpdir(), 'recipes-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

/** The Dockerfile's instructions (continuation lines joined), split into stages. */
function dockerfile(): Array<{ from: string; name: string | null; steps: Array<[string, string]> }> {
  const text = readFileSync(join(root, 'deploy/Dockerfile'), 'utf8').replace(/\\\n/g, ' ');
  const stages: Array<{ from: string; name: string | null; steps: Array<[string, string]> }> = [];
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (!line || line.startsWith('#')) continue;
    const [, op, rest] = /^(\w+)\s+(.*)$/.exec(line)!;
    if (op.toUpperCase() === 'FROM') {
      const [from, , name] = rest.split(/\s+/);
      stages.push({ from, name: name ?? null, steps: [] });
    } else stages.at(-1)!.steps.push([op.toUpperCase(), rest]);
  }
  return stages;
}

/**
 * The runtime image's file system without Docker: /app holds what the final stage copies
 * from the build stage (this checkout's built files; the same sources the build stage
 * compiles), /usr/local/bin the launcher link. Returns the folder standing for /.
 */
/** `npm ci --omit=dev --offline` into the staged /app (its package.json copied, the lock lent for the install). */
function installProduction(app: string): void {
  cpSync(join(root, 'package.json'), join(app, 'package.json'));
  cpSync(join(root, 'package-lock.json'), join(app, 'package-lock.json'));
  const npm = spawnSync('npm', ['ci', '--omit=dev', '--offline', '--ignore-scripts', '--no-audit', '--no-fund'], { cwd: app, encoding: 'utf8' });
  if (npm.status !== 0) throw new Error(`npm ci --omit=dev --offline failed in the staged image: ${npm.stderr}`);
  rmSync(join(app, 'package-lock.json'));
}

let staged: string | null = null;
function stageImage(): string {
  if (staged) return staged;
  const image = (staged = join(tmp, 'image'));
  const final = dockerfile().at(-1)!;
  for (const [op, rest] of final.steps) {
    if (op === 'COPY') {
      const [, src, dest] = /^--from=build\s+\/app\/(\S+)\s+\.\/(\S+)$/.exec(rest)!;
      mkdirSync(join(image, 'app'), { recursive: true });
      // node_modules as the build stage leaves it: production dependencies only, installed
      // offline from the npm cache, so a runtime import of a devDependency fails here too.
      if (src === 'node_modules') installProduction(join(image, 'app'));
      else cpSync(join(root, src), join(image, 'app', dest), { recursive: true });
    }
    if (op === 'RUN' && rest.startsWith('ln -s')) {
      const [, target, link] = /^ln -s (\S+) (\S+)$/.exec(rest)!;
      mkdirSync(join(image, 'usr/local/bin'), { recursive: true });
      symlinkSync(join(image, target), join(image, link));
    }
  }
  return image;
}

describe('deploy/Dockerfile', () => {
  it('node:20-slim, builds the tool from sources that exist, runs as a non-root user', () => {
    const stages = dockerfile();
    expect(stages.map((s) => s.from)).toEqual(['node:20-slim', 'node:20-slim']);
    const build = stages[0].steps;
    expect(build.some(([op, rest]) => op === 'RUN' && rest.includes('npm ci') && !rest.includes('npm install'))).toBe(true);
    expect(build.some(([op, rest]) => op === 'RUN' && rest.includes('npm run build'))).toBe(true);
    for (const [op, rest] of build) if (op === 'COPY') for (const src of rest.split(/\s+/).slice(0, -1)) expect(existsSync(join(root, src)), src).toBe(true);
    const user = stages[1].steps.filter(([op]) => op === 'USER').at(-1);
    expect(user?.[1]).toBe('node');
  });

  it('copies into its build stage what `npm run build` reads: the build scripts and the samples that make the code caches, which the .dockerignore lets through', async () => {
    const { CODE_CACHE_SAMPLES } = (await import(new URL('../../scripts/build-bundles.mjs', import.meta.url).href)) as { CODE_CACHE_SAMPLES: [string, string][] };
    const copied = dockerfile()[0]
      .steps.filter(([op]) => op === 'COPY')
      .flatMap(([, rest]) => rest.split(/\s+/).slice(0, -1));
    expect(copied).toContain('scripts');
    const ignore = readFileSync(join(root, 'deploy/Dockerfile.dockerignore'), 'utf8').split('\n');
    for (const [sample] of CODE_CACHE_SAMPLES) {
      expect(copied, sample).toContain(sample);
      expect(ignore, sample).toContain(`!${sample}`);
    }
  });

  it("the image's command line (ENTRYPOINT + CMD) runs from the files the image holds", () => {
    const image = stageImage();
    const steps = dockerfile().at(-1)!.steps;
    const entry: string[] = JSON.parse(steps.find(([op]) => op === 'ENTRYPOINT')![1]);
    const cmd: string[] = JSON.parse(steps.find(([op]) => op === 'CMD')![1]);
    const argv = [...entry, ...cmd].map((a) => a.replace(/^\/app\//, `${image}/app/`));
    expect(argv[0]).toBe('node');
    const help = spawnSync(argv[0], argv.slice(1), { encoding: 'utf8', cwd: tmp });
    expect(help.status).toBe(0);
    expect(help.stdout + help.stderr).toMatch(/replay <sources\.\.>/);
    expect(help.stdout + help.stderr).toMatch(/merge <shards\.\.>/);
    // And a real job through the same entry point: the image needs nothing outside /app.
    const out = join(tmp, 'entry-run');
    const run = spawnSync(argv[0], [...argv.slice(1, entry.length), 'replay', join(root, 'corpora/samples/chess/book.tsv'), '--dialect', 'chess', '--out', out, '--quiet', '--jobs', '1'], { encoding: 'utf8', cwd: tmp });
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(existsSync(join(out, 'report.html'))).toBe(true);
  });
});

describe('deploy/kubernetes/replay-job.yaml', () => {
  // As the file's header says to apply it: the run's id substituted first.
  const docs = parseAllDocuments(readFileSync(join(root, 'deploy/kubernetes/replay-job.yaml'), 'utf8').replaceAll('RUN_ID_VALUE', '20261201'));
  const objects = docs.map((d) => {
    expect(d.errors).toEqual([]);
    return d.toJS() as Record<string, any>;
  });
  const jobs = objects.filter((o) => o.kind === 'Job');
  const indexed = jobs.find((j) => j.spec.completionMode === 'Indexed')!;
  const merge = jobs.find((j) => j !== indexed)!;
  const env = (c: any, name: string) => c.env.find((e: any) => e.name === name)?.value;

  it('an Indexed Job with the fields Kubernetes requires, and a merge Job', () => {
    for (const o of objects) {
      expect(typeof o.apiVersion).toBe('string');
      expect(typeof o.kind).toBe('string');
      expect(o.metadata.name).toMatch(/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/);
      expect(o.metadata.name.length).toBeLessThanOrEqual(63);
    }
    expect(jobs).toHaveLength(2);
    for (const j of jobs) {
      expect(j.apiVersion).toBe('batch/v1');
      const pod = j.spec.template.spec;
      expect(['Never', 'OnFailure']).toContain(pod.restartPolicy);
      expect(pod.securityContext.runAsNonRoot).toBe(true);
      expect(pod.containers.length).toBeGreaterThan(0);
      const volumes = new Set(pod.volumes.map((v: any) => v.name));
      for (const c of [...(pod.initContainers ?? []), ...pod.containers]) {
        expect(c.name).toMatch(/^[a-z0-9-]+$/);
        expect(typeof c.image).toBe('string');
        for (const m of c.volumeMounts) expect(volumes.has(m.name)).toBe(true);
      }
      const claims = pod.volumes.map((v: any) => v.persistentVolumeClaim?.claimName);
      for (const claim of claims) expect(objects.some((o) => o.kind === 'PersistentVolumeClaim' && o.metadata.name === claim)).toBe(true);
    }
    const n = indexed.spec.completions;
    expect(Number.isInteger(n) && n > 1).toBe(true);
    expect(indexed.spec.parallelism).toBeLessThanOrEqual(n);
    const container = indexed.spec.template.spec.containers[0];
    expect(container.args[0]).toContain('--shard $((JOB_COMPLETION_INDEX+1))/$SHARDS');
    expect(Number(env(container, 'SHARDS'))).toBe(n);
    expect(Number(env(merge.spec.template.spec.initContainers[0], 'SHARDS'))).toBe(n);
    expect(indexed.spec.podFailurePolicy.rules[0].onExitCodes.containerName).toBe(container.name);
  });

  it("the pods' command lines work: shards on a shared folder, then the merge Job's wait, merge, diff and promotion", () => {
    const image = stageImage();
    const data = join(tmp, 'data');
    mkdirSync(join(data, 'corpora'), { recursive: true });
    const lines = gunzipSync(readFileSync(join(root, 'corpora/samples/reference/games.ndjson.gz'))).toString('utf8').split('\n');
    writeFileSync(join(data, 'corpora', 'a.ndjson'), `${lines.slice(0, 12).join('\n')}\n`);
    writeFileSync(join(data, 'corpora', 'b.ndjson'), `${lines.slice(12, 20).join('\n')}\n`);
    const shell = (script: string, vars: Record<string, string>) =>
      spawnSync('/bin/sh', ['-c', script.replaceAll('/data/', `${data}/`)], {
        encoding: 'utf8',
        env: { ...process.env, PATH: `${image}/usr/local/bin:${process.env.PATH}`, ...vars },
      });
    // Three shards stand in for the twenty (the command reads N from SHARDS), with one dialect to keep it short.
    const shardScript = indexed.spec.template.spec.containers[0].args[0].replace('--all-dialects', '--dialect reference');
    for (const runId of ['20261201', '20261202']) {
      for (let i = 0; i < 3; i++) {
        const r = shell(shardScript, { RUN_ID: runId, SHARDS: '3', JOB_COMPLETION_INDEX: String(i) });
        expect(r.stderr).toBe('');
        expect(r.status).toBe(0);
      }
      const wait = shell(merge.spec.template.spec.initContainers[0].args[0], { RUN_ID: runId, SHARDS: '3' });
      expect(wait.status).toBe(0);
      // The merged run goes into the run history: the test's PostgreSQL when there is one, else a file.
      const history = process.env.DICE_DIALECTS_TEST_PG ?? join(tmp, 'history.db');
      const merged = shell(merge.spec.template.spec.containers[0].args[0], { RUN_ID: runId, DICE_DIALECTS_HISTORY: history });
      expect(merged.status).toBe(0);
      expect(merged.stderr).toMatch(new RegExp(`history: recorded .*/runs/${runId} as run \\d+`));
      expect(readFileSync(join(data, 'runs', runId, 'results.ndjson'), 'utf8').trim().split('\n')).toHaveLength(20);
      expect(readlinkSync(join(data, 'runs', 'last-good'))).toBe(`${data}/runs/${runId}`);
    }
    expect(readFileSync(join(data, 'runs', '20261202.diff.md'), 'utf8')).toMatch(/unchanged/i);
  }, 180_000);
});

describe('.github/workflows/nightly-sharded.yml', () => {
  const wf = parse(readFileSync(join(root, '.github/workflows/nightly-sharded.yml'), 'utf8'));
  it('an example CI never runs: by hand only; a matrix of N shards as artifacts, then merge and diff', () => {
    expect(Object.keys(wf.on)).toEqual(['workflow_dispatch']);
    const n = Number(wf.env.SHARDS);
    expect(wf.jobs.shard.strategy.matrix.shard).toEqual(Array.from({ length: n }, (_, i) => i + 1));
    const steps = wf.jobs.shard.steps;
    expect(steps.some((s: any) => String(s.run).includes('--shard ${{ matrix.shard }}/${{ env.SHARDS }}'))).toBe(true);
    expect(steps.some((s: any) => String(s.uses).startsWith('actions/upload-artifact') && s.with.name === 'shard-${{ matrix.shard }}')).toBe(true);
    expect(wf.jobs.merge.needs).toBe('shard');
    const merge = wf.jobs.merge.steps.map((s: any) => String(s.run ?? s.uses));
    expect(merge.some((s: string) => s.includes(' merge shards/shard-* --out runs/latest --history history/history.db'))).toBe(true);
    expect(merge.some((s: string) => s.includes(' history site --db history/history.db --out history-site'))).toBe(true);
    expect(wf.jobs.merge.steps.some((s: any) => String(s.uses).startsWith('actions/upload-artifact') && s.with.name === 'history-site')).toBe(true);
    expect(merge.some((s: string) => s.includes(' diff runs/last-good runs/latest'))).toBe(true);
  });
});
