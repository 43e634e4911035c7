// Node.js counterpart of TaskRoundTripBenchmark: per round, TASKS async functions are called,
// each awaits once (the nearest thing to asyncio.sleep(0)) and returns; Promise.all gathers them.
// Prints the best and median ns per task over ROUNDS rounds, after WARMUP rounds.
// Usage: node node_task_round_trip.js [tasks=100000] [rounds=20] [warmup=10]
'use strict';
const TASKS = Number(process.argv[2] || 100000);
const ROUNDS = Number(process.argv[3] || 20);
const WARMUP = Number(process.argv[4] || 10);

async function body(n) {
  await null;
  return n;
}

async function round() {
  const pending = new Array(TASKS);
  for (let i = 0; i < TASKS; i++) pending[i] = body(i);
  const results = await Promise.all(pending);
  if (results.length !== TASKS) throw new Error('lost tasks');
}

async function main() {
  for (let i = 0; i < WARMUP; i++) await round();
  const perTask = [];
  for (let i = 0; i < ROUNDS; i++) {
    const t0 = process.hrtime.bigint();
    await round();
    perTask.push(Number(process.hrtime.bigint() - t0) / TASKS);
  }
  perTask.sort((a, b) => a - b);
  const median = perTask[Math.floor(perTask.length / 2)];
  console.log(`RESULT impl=node tasks=${TASKS} best_ns_per_task=${perTask[0].toFixed(1)} median_ns_per_task=${median.toFixed(1)}`);
}

main();
