/**
 * The Kubernetes manifests, validated offline against the bundled Kubernetes JSON schemas
 * (kubernetes-models), and checked against the service: probe paths answer, the named port is
 * the service port, the grace period covers preStop plus the drain, THREADS follows the CPU
 * limit, and the Service, autoscaler and disruption budget point at the Deployment. The sidecar
 * overlay adds the upstream's URL from a ConfigMap, and readiness that follows the upstream.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Deployment } from 'kubernetes-models/apps/v1';
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2';
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1';
import { ConfigMap, Service } from 'kubernetes-models/v1';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { freePort } from '../../loadtest/server.js';
import { readConfig } from '../../src/server/config.js';
import { PROBE_TIMEOUT_MS } from '../../src/server/sidecar/readiness.js';
import { startFakeUpstream } from '../support/fake-upstream.js';
import { inlineApp } from './helpers.js';

const DIR = fileURLToPath(new URL('../../deploy/kubernetes/', import.meta.url));
const load = (file: string) => parse(readFileSync(join(DIR, file), 'utf8')) as Record<string, unknown>;

const deploymentData = load('deployment.yaml');
const deployment = new Deployment(deploymentData as ConstructorParameters<typeof Deployment>[0]);
const service = new Service(load('service.yaml') as ConstructorParameters<typeof Service>[0]);
const hpa = new HorizontalPodAutoscaler(load('hpa.yaml') as ConstructorParameters<typeof HorizontalPodAutoscaler>[0]);
const pdb = new PodDisruptionBudget(load('pdb.yaml') as ConstructorParameters<typeof PodDisruptionBudget>[0]);
const pod = deployment.spec!.template.spec!;
const container = pod.containers[0]!;
const env = new Map((container.env ?? []).map((e) => [e.name, e]));

describe('schemas', () => {
  it('every manifest validates against the Kubernetes schemas', () => {
    for (const model of [deployment, service, hpa, pdb]) expect(() => model.validate()).not.toThrow();
  });

  it('validation is real: a broken copy fails', () => {
    const broken = structuredClone(deploymentData) as { spec: { replicas: unknown } };
    broken.spec.replicas = 'two';
    expect(() => new Deployment(broken as ConstructorParameters<typeof Deployment>[0]).validate()).toThrow(/replicas/);
  });

  it('the kustomization lists every manifest', () => {
    const kustomization = load('kustomization.yaml') as { resources: string[] };
    expect([...kustomization.resources].sort()).toEqual(['deployment.yaml', 'hpa.yaml', 'pdb.yaml', 'service.yaml']);
  });
});

describe('Deployment', () => {
  it('probes paths the service answers, on the service port', async () => {
    const app = await inlineApp();
    try {
      const probes = [container.startupProbe, container.readinessProbe, container.livenessProbe];
      expect(probes.every((p) => p?.httpGet !== undefined)).toBe(true);
      expect(container.readinessProbe!.httpGet!.path).toBe('/readyz');
      expect(container.livenessProbe!.httpGet!.path).toBe('/healthz');
      for (const probe of probes) {
        const res = await app.inject({ method: 'GET', url: probe!.httpGet!.path! });
        expect(res.statusCode).toBe(200);
        expect(probe!.httpGet!.port).toBe('http');
      }
    } finally {
      await app.close();
    }
    const port = container.ports!.find((p) => p.name === 'http')!;
    expect(port.containerPort).toBe(8080);
    expect(env.get('PORT')?.value).toBe(String(port.containerPort));
    expect(env.get('HOST')?.value).toBe('0.0.0.0');
  });

  it('sets CPU and memory requests and limits, and ties THREADS to the CPU limit', () => {
    const { requests, limits } = container.resources!;
    for (const key of ['cpu', 'memory']) {
      expect(requests?.[key]).toBeDefined();
      expect(limits?.[key]).toBeDefined();
    }
    const threads = env.get('THREADS')!.valueFrom!.resourceFieldRef!;
    expect(threads.resource).toBe('limits.cpu');
    expect(threads.containerName).toBe(container.name);
  });

  it('gives the drain time to finish: grace period > preStop + SHUTDOWN_TIMEOUT_MS', () => {
    const preStop = container.lifecycle!.preStop!.sleep!.seconds;
    const shutdown = Number(env.get('SHUTDOWN_TIMEOUT_MS')!.value) / 1000;
    expect(preStop).toBeGreaterThan(0);
    expect(pod.terminationGracePeriodSeconds!).toBeGreaterThan(preStop + shutdown);
  });

  it('runs as non-root with a read-only root filesystem and no capabilities', () => {
    expect(pod.securityContext!.runAsNonRoot).toBe(true);
    expect(container.securityContext!.readOnlyRootFilesystem).toBe(true);
    expect(container.securityContext!.allowPrivilegeEscalation).toBe(false);
    expect(container.securityContext!.capabilities!.drop).toEqual(['ALL']);
  });

  it('rolls out without losing capacity', () => {
    expect(deployment.spec!.replicas!).toBeGreaterThanOrEqual(2);
    expect(deployment.spec!.strategy!.rollingUpdate!.maxUnavailable).toBe(0);
  });
});

describe('Service, autoscaler, disruption budget', () => {
  const podLabels = deployment.spec!.template.metadata!.labels!;

  it('the Service selects the pods and targets the named port', () => {
    for (const [key, value] of Object.entries(service.spec!.selector!)) expect(podLabels[key]).toBe(value);
    expect(service.spec!.ports![0]!.targetPort).toBe('http');
  });

  it('the autoscaler scales the Deployment on CPU', () => {
    expect(hpa.spec!.scaleTargetRef).toMatchObject({ apiVersion: 'apps/v1', kind: 'Deployment', name: deployment.metadata!.name });
    const metric = hpa.spec!.metrics![0]!;
    expect(metric.type).toBe('Resource');
    expect(metric.resource!.name).toBe('cpu');
    expect(hpa.spec!.minReplicas!).toBeGreaterThanOrEqual(2);
  });

  it('the disruption budget keeps a pod of this Deployment up', () => {
    for (const [key, value] of Object.entries(pdb.spec!.selector!.matchLabels!)) expect(podLabels[key]).toBe(value);
    expect(pdb.spec!.minAvailable).toBe(1);
  });
});

describe('sidecar overlay (deploy/kubernetes/sidecar)', () => {
  const SIDECAR = join(DIR, 'sidecar');
  const loadOverlay = (file: string) => parse(readFileSync(join(SIDECAR, file), 'utf8')) as Record<string, unknown>;
  const kustomization = loadOverlay('kustomization.yaml') as { resources: string[]; patches: { path: string }[] };
  const configMap = new ConfigMap(loadOverlay('upstream.yaml') as ConstructorParameters<typeof ConfigMap>[0]);
  const patch = loadOverlay('deployment-patch.yaml') as { metadata: { name: string }; spec: { template: { spec: { containers: Record<string, unknown>[] } } } };

  /** The patch merged as a strategic merge patch does for these fields: containers and env by name, probes field by field. */
  function patched(): Deployment {
    const merged = structuredClone(deploymentData) as typeof deploymentData & { spec: { template: { spec: { containers: Record<string, unknown>[] } } } };
    for (const change of patch.spec.template.spec.containers) {
      const target = merged.spec.template.spec.containers.find((c) => c.name === change.name)!;
      expect(target, `container ${String(change.name)}`).toBeDefined();
      const env = [...(target.env as { name: string }[])];
      for (const entry of change.env as { name: string }[]) {
        const at = env.findIndex((e) => e.name === entry.name);
        if (at >= 0) env[at] = entry;
        else env.push(entry);
      }
      target.env = env;
      target.readinessProbe = { ...(target.readinessProbe as object), ...(change.readinessProbe as object) };
    }
    return new Deployment(merged as unknown as ConstructorParameters<typeof Deployment>[0]);
  }

  it('builds on the base, adds the upstream ConfigMap, and patches the Deployment', () => {
    expect(kustomization.resources).toEqual(['../', 'upstream.yaml']);
    expect(kustomization.patches.map((p) => p.path)).toEqual(['deployment-patch.yaml']);
    expect(patch.metadata.name).toBe(deployment.metadata!.name);
    expect(() => configMap.validate()).not.toThrow();
    expect(() => patched().validate()).not.toThrow();
  });

  it('takes UPSTREAM_URL and UPSTREAM_TIMEOUT_MS from the ConfigMap, with values the service accepts', () => {
    const container = patched().spec!.template.spec!.containers[0]!;
    const env = new Map((container.env ?? []).map((e) => [e.name, e]));
    const values: Record<string, string> = {};
    for (const name of ['UPSTREAM_URL', 'UPSTREAM_TIMEOUT_MS']) {
      const ref = env.get(name)!.valueFrom!.configMapKeyRef!;
      expect(ref.name).toBe(configMap.metadata!.name);
      values[name] = configMap.data![ref.key]!;
      expect(values[name]).toBeDefined();
    }
    const config = readConfig(values, () => 2);
    expect(config.upstreamUrl).toBe('http://vllm:8000/v1');
    expect(config.upstreamTimeoutMs).toBe(300_000);
    // The base's own settings are still there.
    expect(env.get('SHUTDOWN_TIMEOUT_MS')?.value).toBe('15000');
  });

  it("readiness waits on the upstream: the probe's timeout covers the upstream probe, and /readyz follows the upstream", async () => {
    const probe = patched().spec!.template.spec!.containers[0]!.readinessProbe!;
    expect(probe.httpGet!.path).toBe('/readyz');
    expect(probe.timeoutSeconds! * 1000).toBeGreaterThan(PROBE_TIMEOUT_MS);
    const upstream = await startFakeUpstream({ answers: {} });
    const up = await inlineApp({ upstreamUrl: upstream.url });
    const down = await inlineApp({ upstreamUrl: `http://127.0.0.1:${await freePort()}/v1` });
    try {
      expect((await up.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200);
      expect(upstream.modelRequests).toBe(1);
      expect((await down.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(503);
      // Liveness never depends on the upstream.
      expect((await down.inject({ method: 'GET', url: container.livenessProbe!.httpGet!.path! })).statusCode).toBe(200);
    } finally {
      await up.close();
      await down.close();
      await upstream.close();
    }
  });
});
