import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import { METRICS_NAMESPACE, type MetricName } from '../../contracts/metric-definitions';

// Business and health counters as CloudWatch embedded metrics (one JSON log line per
// flush, no API call). The stage is a dimension, so the per-stage dashboard and alarms
// read their own stage. Locally they are off (POWERTOOLS_METRICS_DISABLED) to keep the
// console readable. The names (and the namespace) are plain data in contracts/, where the dashboard and the
// alarms read them too: one list for what is published and what is watched.
export { type MetricName, metricNames } from '../../contracts/metric-definitions';

const metrics = new Metrics({
  namespace: METRICS_NAMESPACE,
  serviceName: 'membership',
  defaultDimensions: { stage: process.env.STAGE ?? 'unknown' },
});

export function count(name: MetricName, value = 1): void {
  metrics.addMetric(name, MetricUnit.Count, value);
}

/**
 * A count with one extra dimension (the provider's error code, the outbound kind),
 * published at once as two series: the total per stage (what alarms read, without a
 * SEARCH expression) and the breakdown per stage and `dimension` (what the dashboard splits by).
 */
export function countBy(name: MetricName, dimension: string, value: string): void {
  metrics.singleMetric().addMetric(name, MetricUnit.Count, 1);
  const single = metrics.singleMetric();
  single.addDimension(dimension, value);
  single.addMetric(name, MetricUnit.Count, 1);
}

/** Publishes what the invocation counted; silent when it counted nothing. */
export function flushMetrics(): void {
  if (metrics.hasStoredMetrics()) metrics.publishStoredMetrics();
}
