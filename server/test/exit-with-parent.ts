/**
 * Preloaded (`node --import`) into every API process a test starts (server/test/processes.ts): the process's fd 3 is
 * a pipe from the test process, which the system closes when that process ends, however it ends (a failed or
 * timed-out test, a worker killed by its runner, Ctrl-C). The API then gets SIGTERM and shuts down as it always does
 * (server/src/main.ts): no server outlives the test that started it. Not stdin: the embedded database's runtime
 * (PGlite, Emscripten) reads stdin while it starts. The pipe does not keep the process alive.
 */
import { Socket } from 'node:net';

const parent = new Socket({ fd: 3, readable: true, writable: false });
parent.on('end', () => process.kill(process.pid, 'SIGTERM'));
parent.on('error', () => process.kill(process.pid, 'SIGTERM'));
parent.resume();
parent.unref();
