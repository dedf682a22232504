/** Prints the README's field-grammar table (conformance/field/readme/table.ts). */
import { fieldTable } from '../field/readme/table.js';

process.stdout.write(`${fieldTable()}\n`);
