import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseAllDocuments } from 'yaml';
import { describe, expect, it } from 'vitest';
import { packageRoot } from '../dialects/paths.js';
import { tempDir } from '../test-support/temp-dir.js';
import { BIN, cli } from './test-support/runs.js';

const root = packageRoot();
/* eslint-disable @typescript-eslint/no-explicit-any */
const read = (file: string) =>
  parseAllDocuments(readFileSync(join(root, file), 'utf8')).map((d) => {
    expect(d.errors).toEqual([]);
    return d.toJS() as Record<string, any>;
  });

describe('deploy/kubernetes/dashboard.yaml', () => {
  const objects = read('deploy/kubernetes/dashboard.yaml');
  const deployment = objects.find((o) => o.kind === 'Deployment')!;
  const service = objects.find((o) => o.kind === 'Service')!;
  const pod = deployment.spec.template.spec;
  const container = pod.containers[0];

  it('a Deployment and a Service whose selectors, ports and probes agree', () => {
    expect(objects.map((o) => `${o.apiVersion} ${o.kind}`)).toEqual(['apps/v1 Deployment', 'v1 Service']);
    for (const o of objects) expect(o.metadata.name).toMatch(/^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/);
    expect(deployment.spec.selector.matchLabels).toEqual(deployment.spec.template.metadata.labels);
    expect(service.spec.selector).toEqual(deployment.spec.template.metadata.labels);
    expect(service.spec.type).toBe('ClusterIP');
    const port = container.ports.find((p: any) => p.name === service.spec.ports[0].targetPort);
    expect(port.containerPort).toBe(8378);
    expect(container.args[0]).toContain(`--port ${port.containerPort}`);
    for (const probe of [container.readinessProbe, container.livenessProbe]) expect(probe.httpGet.port).toBe('http');
    expect(pod.securityContext.runAsNonRoot).toBe(true);
    const volumes = new Set(pod.volumes.map((v: any) => v.name));
    for (const m of container.volumeMounts) expect(volumes.has(m.name) && m.readOnly).toBe(true);
    // The same Secret as the merge Job, which records into it.
    const jobs = read('deploy/kubernetes/replay-job.yaml').filter((o) => o.kind === 'Job');
    const merge = jobs.find((j) => j.spec.completionMode !== 'Indexed')!.spec.template.spec.containers[0];
    const secret = (c: any) => c.env.find((e: any) => e.name === 'DICE_DIALECTS_HISTORY').valueFrom.secretKeyRef;
    expect(secret(container)).toEqual(secret(merge));
    expect(merge.args[0]).toContain('--history "$DICE_DIALECTS_HISTORY"');
  });

  it("the pod's command line serves the dashboard and its probes answer 200", async () => {
    const dir = tempDir('history-k8s-');
    const db = process.env.DICE_DIALECTS_TEST_PG ?? join(dir, 'h.db');
    expect(cli(['history', 'migrate', '--db', db]).code).toBe(0);
    // As the pod runs it, but on this machine's loopback and any free port (tests never listen beyond 127.0.0.1).
    const script = container.args[0].replace('dice-dialects', `"${process.execPath}" "${BIN}"`).replace('--host 0.0.0.0', '--host 127.0.0.1').replace('--port 8378', '--port 0');
    const child = spawn('/bin/sh', ['-c', script], { env: { ...process.env, DICE_DIALECTS_HISTORY: db }, stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      const url = await new Promise<string>((resolve, reject) => {
        let out = '';
        child.stdout.on('data', (c) => {
          out += String(c);
          const m = /^(http:\/\/127\.0\.0\.1:\d+\/)/m.exec(out);
          if (m) resolve(m[1]);
        });
        child.once('exit', (code) => reject(new Error(`serve exited ${code}`)));
      });
      for (const probe of [container.readinessProbe, container.livenessProbe]) expect((await fetch(new URL(probe.httpGet.path, url))).status).toBe(200);
    } finally {
      const gone = once(child, 'exit');
      child.kill('SIGTERM');
      await gone;
    }
  });
});
