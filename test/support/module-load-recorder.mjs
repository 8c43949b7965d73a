// `node --import ./module-load-recorder.mjs …`: appends the URL of every module the process
// resolves through the ES module loader to the file named by MODULE_LOAD_RECORD, one per line.
import { register } from 'node:module';

register(new URL('./module-load-recorder-hooks.mjs', import.meta.url), { data: { file: process.env.MODULE_LOAD_RECORD } });
