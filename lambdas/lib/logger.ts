import { Logger } from '@aws-lambda-powertools/logger';

// Structured JSON logs. Personal data never goes in: numbers are masked with
// maskPhone() from rules/phone before they reach a log call, codes and tokens never do.
export const logger = new Logger({ serviceName: 'membership' });
