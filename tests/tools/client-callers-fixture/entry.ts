/**
 * Fixture of tests/server/spec-coverage.test.ts: a tiny "client" whose entry point runs `start()`.
 * The scanner must find the calls `start` reaches and no other.
 */
import { start } from './live';

start();
