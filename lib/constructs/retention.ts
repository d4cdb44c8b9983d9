import { RemovalPolicy } from 'aws-cdk-lib';
import type { StageConfig } from '../stages';

/**
 * The removal policy of a resource holding what cannot be rebuilt from code (rows, staff
 * accounts, keys, logs), by the stage's `retainData`.
 *
 * Retained on update or delete (`DeletionPolicy: RetainExceptOnCreate`,
 * `UpdateReplacePolicy: Retain`), not plain RETAIN: RETAIN also keeps what a failed first
 * create rolls back, and with our fixed table names the retry then fails with "already
 * exists" until someone deletes the leftovers by hand. A resource that never held data is
 * deleted with its rollback; once created it is kept. Throw-away stages destroy.
 */
export function retainedDataPolicy(config: Pick<StageConfig, 'retainData'>): RemovalPolicy {
  return config.retainData ? RemovalPolicy.RETAIN_ON_UPDATE_OR_DELETE : RemovalPolicy.DESTROY;
}
