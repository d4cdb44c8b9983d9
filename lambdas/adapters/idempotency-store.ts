import {
  IdempotencyItemAlreadyExistsError,
  IdempotencyItemNotFoundError,
  IdempotencyRecordStatus,
  PERSISTENCE_ATTRIBUTE_KEY_MAPPINGS,
} from '@aws-lambda-powertools/idempotency';
import { BasePersistenceLayer, IdempotencyRecord } from '@aws-lambda-powertools/idempotency/persistence';
import { unmarshall } from '@aws-sdk/util-dynamodb';
import { type Db, DeleteCommand, GetCommand, isConditionFailed, PutCommand, UpdateCommand } from '../lib/db';

// Powertools idempotency records in DynamoDB over lambdas/lib/db.ts instead of the SDK's
// client (issue 16: `@aws-lambda-powertools/idempotency/dynamodb` brings in
// @aws-sdk/client-dynamodb). It writes what DynamoDBPersistenceLayer writes, in the same
// table with its default names (contracts/table-definitions.ts, `idempotency`): the key
// `id`, and `status`, `expiration` (seconds, the table's TTL), `in_progress_expiration`
// (milliseconds), `data` and `validation`; records either one wrote, the other reads.
// Only what the stack uses is offered: a simple key, no sort key or static partition value.

const KEY = 'id';
const { statusAttr, expiryAttr, inProgressExpiryAttr, dataAttr, validationKeyAttr } =
  PERSISTENCE_ATTRIBUTE_KEY_MAPPINGS;

/**
 * A record may be saved when its key is new (or the TTL removed it), when it expired but
 * is still there (TTL deletion lags), or when it is in progress and that invocation's
 * time has run out (the Lambda timed out or crashed mid-call): DynamoDBPersistenceLayer's condition.
 */
const SAVE_CONDITION = [
  'attribute_not_exists(#id)',
  '#expiry < :now',
  '(#status = :inprogress AND attribute_exists(#in_progress_expiry) AND #in_progress_expiry < :now_in_millis)',
].join(' OR ');

export interface DbPersistenceOptions {
  readonly db: Db;
  readonly tableName: string;
}

export class DbPersistenceLayer extends BasePersistenceLayer {
  readonly #db: Db;
  readonly #tableName: string;

  constructor(options: DbPersistenceOptions) {
    super();
    this.#db = options.db;
    this.#tableName = options.tableName;
  }

  protected override async _getRecord(idempotencyKey: string): Promise<IdempotencyRecord> {
    const { Item } = await this.#db.send(
      new GetCommand({ TableName: this.#tableName, Key: { [KEY]: idempotencyKey }, ConsistentRead: true }),
    );
    if (!Item) throw new IdempotencyItemNotFoundError();
    return toRecord(Item);
  }

  protected override async _putRecord(record: IdempotencyRecord): Promise<void> {
    const item: Record<string, unknown> = {
      [KEY]: record.idempotencyKey,
      [expiryAttr]: record.expiryTimestamp,
      [statusAttr]: record.getStatus(),
    };
    if (record.inProgressExpiryTimestamp !== undefined) item[inProgressExpiryAttr] = record.inProgressExpiryTimestamp;
    if (this.isPayloadValidationEnabled() && record.payloadHash !== undefined) {
      item[validationKeyAttr] = record.payloadHash;
    }
    const now = Date.now();
    try {
      await this.#db.send(
        new PutCommand({
          TableName: this.#tableName,
          Item: item,
          ConditionExpression: SAVE_CONDITION,
          ExpressionAttributeNames: {
            '#id': KEY,
            '#expiry': expiryAttr,
            '#in_progress_expiry': inProgressExpiryAttr,
            '#status': statusAttr,
          },
          ExpressionAttributeValues: {
            ':now': now / 1000,
            ':now_in_millis': now,
            ':inprogress': IdempotencyRecordStatus.INPROGRESS,
          },
          ReturnValuesOnConditionCheckFailure: 'ALL_OLD',
        }),
      );
    } catch (error) {
      if (!isConditionFailed(error)) throw error;
      // The record that stands in the way (DynamoDB's JSON, as the error carries it): the
      // caller answers from it (a completed result, or already in progress) without a read.
      const existing = error.Item && toRecord(unmarshall(error.Item as Parameters<typeof unmarshall>[0]));
      throw new IdempotencyItemAlreadyExistsError(
        `Failed to put record for already existing idempotency key: ${record.idempotencyKey}`,
        existing,
      );
    }
  }

  protected override async _updateRecord(record: IdempotencyRecord): Promise<void> {
    const sets = ['#expiry = :expiry', '#status = :status'];
    const names: Record<string, string> = { '#expiry': expiryAttr, '#status': statusAttr };
    const values: Record<string, unknown> = { ':expiry': record.expiryTimestamp, ':status': record.getStatus() };
    if (record.responseData !== undefined) {
      sets.push('#response_data = :response_data');
      names['#response_data'] = dataAttr;
      values[':response_data'] = record.responseData;
    }
    if (this.isPayloadValidationEnabled()) {
      sets.push('#validation_key = :validation_key');
      names['#validation_key'] = validationKeyAttr;
      values[':validation_key'] = record.payloadHash;
    }
    await this.#db.send(
      new UpdateCommand({
        TableName: this.#tableName,
        Key: { [KEY]: record.idempotencyKey },
        UpdateExpression: `SET ${sets.join(', ')}`,
        ExpressionAttributeNames: names,
        ExpressionAttributeValues: values,
      }),
    );
  }

  protected override async _deleteRecord(record: IdempotencyRecord): Promise<void> {
    await this.#db.send(new DeleteCommand({ TableName: this.#tableName, Key: { [KEY]: record.idempotencyKey } }));
  }
}

type RecordOptions = ConstructorParameters<typeof IdempotencyRecord>[0];

function toRecord(item: Record<string, unknown>): IdempotencyRecord {
  return new IdempotencyRecord({
    idempotencyKey: item[KEY] as string,
    status: item[statusAttr] as RecordOptions['status'],
    expiryTimestamp: item[expiryAttr] as number | undefined,
    inProgressExpiryTimestamp: item[inProgressExpiryAttr] as number | undefined,
    responseData: item[dataAttr] as RecordOptions['responseData'],
    payloadHash: item[validationKeyAttr] as string | undefined,
  });
}
