"""CPython counterpart of TaskRoundTripBenchmark: per round, TASKS tasks are created, each
does one asyncio.sleep(0) and returns; asyncio.gather collects them. Prints the best and median
ns per task over ROUNDS rounds, after WARMUP rounds. --uvloop runs it on uvloop.

Usage: python3 asyncio_task_round_trip.py [--uvloop] [tasks=100000] [rounds=10] [warmup=3]
"""
import asyncio
import sys
import time


async def body(n):
    await asyncio.sleep(0)
    return n


async def one_round(tasks):
    results = await asyncio.gather(*[asyncio.create_task(body(i)) for i in range(tasks)])
    assert len(results) == tasks


async def main(tasks, rounds, warmup):
    for _ in range(warmup):
        await one_round(tasks)
    per_task = []
    for _ in range(rounds):
        t0 = time.perf_counter_ns()
        await one_round(tasks)
        per_task.append((time.perf_counter_ns() - t0) / tasks)
    per_task.sort()
    return per_task[0], per_task[len(per_task) // 2]


if __name__ == "__main__":
    args = sys.argv[1:]
    use_uvloop = "--uvloop" in args
    args = [a for a in args if a != "--uvloop"]
    tasks = int(args[0]) if len(args) > 0 else 100000
    rounds = int(args[1]) if len(args) > 1 else 10
    warmup = int(args[2]) if len(args) > 2 else 3
    if use_uvloop:
        import uvloop
        uvloop.install()
    best, median = asyncio.run(main(tasks, rounds, warmup))
    impl = "uvloop" if use_uvloop else "asyncio"
    print(f"RESULT impl={impl} tasks={tasks} best_ns_per_task={best:.1f} median_ns_per_task={median:.1f}")
