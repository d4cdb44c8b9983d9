import { Duration } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import { Construct } from 'constructs';
import type { StageConfig } from '../stages';
import type { Alarms } from './alarms';
import type { ProjectFunction } from './project-function';

export interface RollupsAgeingProps {
  readonly config: StageConfig;
  readonly alarms: Alarms;
  readonly job: ProjectFunction;
}

/** 00:00 IST is 18:30 UTC (Asia/Kolkata has no daylight saving). */
const AGEING_SCHEDULE = { minute: '30', hour: '18' } as const;

/**
 * Runs the rollups ageing job daily at 00:00 IST. A missed or failed run costs nothing
 * but reads: reports correct ages on the fly until the next run catches up on every
 * day since the last one. A failed run alarms.
 */
export class RollupsAgeing extends Construct {
  public readonly rule: events.Rule;

  constructor(scope: Construct, id: string, props: RollupsAgeingProps) {
    super(scope, id);
    this.rule = new events.Rule(this, 'Daily', {
      description: `Membership ${props.config.stage}: ages the report rollups at 00:00 IST`,
      schedule: events.Schedule.cron(AGEING_SCHEDULE),
      targets: [new targets.LambdaFunction(props.job.function, { retryAttempts: 2, maxEventAge: Duration.hours(2) })],
    });

    // Its own alarm, over an hour (the job runs daily and is retried): the stage's
    // per-function error alarms (monitoring.ts) leave this function out.
    props.alarms.add('RollupsAgeingFailures', {
      name: 'rollups-ageing-failed',
      description:
        "the daily rollups ageing job failed; reports stay exact (ages corrected on read) and the next run catches up. Read the job's log before tomorrow's run.",
      runbook: 'lambda-errors',
      metric: props.job.function.metricErrors({ period: Duration.hours(1), statistic: cloudwatch.Stats.SUM }),
      threshold: 1,
    });
  }
}
