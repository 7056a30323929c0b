// A floor for a request decided durably: the bare SDK client of bench/sse-floors.ts, answering each
// request only once the request and its answer are committed, in one transaction a request, to a
// WAL SQLite file with the store's durability (synchronous=NORMAL) on a thread of its own — what any
// mediator that keeps its record before it answers pays at least: one crossing to the writing
// thread and back, and one commit. Nothing is checked, hashed, indexed or searched.
import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type * as acp from '@agentclientprotocol/sdk';
import { allow } from './sse-floors';

const WRITER = `
const { parentPort, workerData } = require('node:worker_threads');
const Database = require(workerData.sqlite);
const db = new Database(workerData.path);
db.pragma('journal_mode = WAL');
db.pragma('synchronous = NORMAL');
db.exec('CREATE TABLE requests (id INTEGER PRIMARY KEY, body TEXT NOT NULL);' +
  'CREATE TABLE decisions (id INTEGER PRIMARY KEY, request INTEGER NOT NULL, reply TEXT NOT NULL)');
const request = db.prepare('INSERT INTO requests (body) VALUES (?)');
const decision = db.prepare('INSERT INTO decisions (request, reply) VALUES (?, ?)');
const both = db.transaction((body, reply) => {
  decision.run(request.run(body).lastInsertRowid, reply);
});
parentPort.on('message', ({ id, body, reply }) => {
  both(body, reply);
  parentPort.postMessage(id);
});
`;

/** An answer that commits first to the new file `path`, and its thread (stopped by `close`). */
export function durableAnswer(path: string) {
  const sqlite = createRequire(import.meta.url).resolve('better-sqlite3');
  const worker = new Worker(WRITER, {
    eval: true,
    workerData: { sqlite, path },
  });
  const waiting = new Map<number, () => void>();
  let next = 0;
  worker.on('message', (id: number) => {
    waiting.get(id)?.();
    waiting.delete(id);
  });
  return {
    answer: (params: acp.RequestPermissionRequest): Promise<acp.RequestPermissionResponse> => {
      const reply = allow(params);
      const id = next++;
      return new Promise((resolve) => {
        waiting.set(id, () => resolve(reply));
        worker.postMessage({ id, body: JSON.stringify(params), reply: JSON.stringify(reply) });
      });
    },
    close: () => worker.terminate(),
  };
}
