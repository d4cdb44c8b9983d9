import { IdempotencyItemAlreadyExistsError, IdempotencyItemNotFoundError } from '@aws-lambda-powertools/idempotency';
import { BasePersistenceLayer, type IdempotencyRecord } from '@aws-lambda-powertools/idempotency/persistence';

/**
 * Idempotency records in memory, with DynamoDB's put-if-absent semantics: the outbound
 * consumer's unit tests (its record store over DynamoDB is tested against DynamoDB Local
 * in test/integration/idempotency-store.test.ts).
 */
export class MemoryPersistence extends BasePersistenceLayer {
  readonly records = new Map<string, IdempotencyRecord>();
  protected override async _getRecord(key: string) {
    const record = this.records.get(key);
    if (!record) throw new IdempotencyItemNotFoundError();
    return record;
  }
  protected override async _putRecord(record: IdempotencyRecord) {
    const existing = this.records.get(record.idempotencyKey);
    if (existing && !existing.isExpired()) throw new IdempotencyItemAlreadyExistsError('exists', existing);
    this.records.set(record.idempotencyKey, record);
  }
  protected override async _updateRecord(record: IdempotencyRecord) {
    this.records.set(record.idempotencyKey, record);
  }
  protected override async _deleteRecord(record: IdempotencyRecord) {
    this.records.delete(record.idempotencyKey);
  }
}
