// `npm run local:reset`: wipes the local stack's data (tables, staff users, queue).
import { rmSync } from 'node:fs';
import { resolve } from 'node:path';
import { localConfigSchema } from './config';

const dir = resolve(localConfigSchema.parse(process.env).LOCAL_DATA_DIR);
rmSync(dir, { recursive: true, force: true });
process.stdout.write(`Removed ${dir}. The next npm start begins with empty tables and the seeded admin.\n`);
