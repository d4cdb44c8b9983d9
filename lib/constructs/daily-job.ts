import { Duration } from 'aws-cdk-lib';
import * as cloudwatch from 'aws-cdk-lib/aws-cloudwatch';
import * as events from 'aws-cdk-lib/aws-events';
import * as targets from 'aws-cdk-lib/aws-events-targets';
import { Construct } from 'constructs';
import type { StageConfig } from '../stages';
import type { Alarms } from './alarms';
import type { ProjectFunction } from './project-function';

export interface DailyJobProps {
  readonly config: StageConfig;
  readonly alarms: Alarms;
  readonly job: ProjectFunction;
  /** What the job does, for the rule's description ("ages the report rollups"). */
  readonly does: string;
  /** The failure alarm: its construct id, name (after the stage's prefix) and what it means. */
  readonly alarm: { readonly id: string; readonly name: string; readonly description: string };
}

/** 00:00 IST is 18:30 UTC (Asia/Kolkata has no daylight saving). */
const MIDNIGHT_IST = { minute: '30', hour: '18' } as const;

/**
 * Runs a job daily at 00:00 IST, retried twice within two hours, with an alarm of its own
 * over an hour when it fails (the stage's per-function error alarms, monitoring.ts, leave
 * these functions out). The jobs are written so that a missed run is caught up by the next.
 */
export class DailyJob extends Construct {
  public readonly rule: events.Rule;

  constructor(scope: Construct, id: string, props: DailyJobProps) {
    super(scope, id);
    this.rule = new events.Rule(this, 'Daily', {
      description: `Membership ${props.config.stage}: ${props.does} at 00:00 IST`,
      schedule: events.Schedule.cron(MIDNIGHT_IST),
      targets: [new targets.LambdaFunction(props.job.function, { retryAttempts: 2, maxEventAge: Duration.hours(2) })],
    });
    props.alarms.add(props.alarm.id, {
      name: props.alarm.name,
      description: props.alarm.description,
      runbook: 'lambda-errors',
      metric: props.job.function.metricErrors({ period: Duration.hours(1), statistic: cloudwatch.Stats.SUM }),
      threshold: 1,
    });
  }
}
