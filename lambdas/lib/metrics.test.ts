import { afterEach, describe, expect, it, vi } from 'vitest';

// The counters reach CloudWatch as embedded-metric JSON lines on stdout, with the stage.
describe('metrics', () => {
  afterEach(() => {
    vi.unstubAllEnvs();
    vi.restoreAllMocks();
    vi.resetModules();
  });

  it('publishes what an invocation counted, in the Membership namespace, per stage', async () => {
    vi.stubEnv('STAGE', 'prod');
    vi.stubEnv('POWERTOOLS_METRICS_DISABLED', 'false');
    const lines: string[] = [];
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
      lines.push(String(chunk));
      return true;
    });
    const { count, flushMetrics } = await import('./metrics');
    count('OtpSent');
    count('OtpSent');
    flushMetrics();
    flushMetrics();
    const emf = lines.map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => '_aws' in l);
    expect(emf).toHaveLength(1);
    // CloudWatch sums the values of one line.
    expect(emf[0]).toMatchObject({ stage: 'prod', OtpSent: [1, 1], _aws: { CloudWatchMetrics: [{ Namespace: 'Membership' }] } });
  });

  it('publishes a count by dimension at once, as the stage total and per value', async () => {
    vi.stubEnv('STAGE', 'prod');
    vi.stubEnv('POWERTOOLS_METRICS_DISABLED', 'false');
    const lines: string[] = [];
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => {
      lines.push(String(chunk));
      return true;
    });
    const { countBy } = await import('./metrics');
    countBy('OtpSendFailed', 'reason', '131026');
    const emf = lines.map((l) => JSON.parse(l) as Record<string, unknown>).filter((l) => '_aws' in l);
    const dimensionSets = emf.map((l) => (l._aws as { CloudWatchMetrics: { Dimensions: string[][] }[] }).CloudWatchMetrics[0]!.Dimensions[0]);
    // Powertools adds the service name to every dimension set: alarms and widgets name both.
    expect(dimensionSets).toEqual([
      ['service', 'stage'],
      ['service', 'stage', 'reason'],
    ]);
    expect(emf[1]).toMatchObject({ service: 'membership', stage: 'prod', reason: '131026', OtpSendFailed: 1 });
    expect(emf[0]).not.toHaveProperty('reason');
  });
});
