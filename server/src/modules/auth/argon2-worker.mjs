// Worker thread for password hashing (see password-hashing.ts). Plain JS so it loads without a TS loader.
// Linux nice values are per thread: lowering this thread's priority lets the event loop and PostgreSQL
// win the CPU whenever they have work, while hashing soaks up what is left.
import { setPriority } from 'node:os';
import { parentPort, workerData } from 'node:worker_threads';
import { hashSync, verifySync } from '@node-rs/argon2';

try {
  setPriority(workerData?.nice ?? 10);
} catch {
  // not permitted on this platform: run at normal priority
}

parentPort?.on('message', (message) => {
  const { id, kind, password, hash, options } = message;
  try {
    const value = kind === 'hash' ? hashSync(password, options) : verifySync(hash, password, options);
    parentPort?.postMessage({ id, value });
  } catch (error) {
    parentPort?.postMessage({ id, error: error instanceof Error ? error.message : String(error) });
  }
});
