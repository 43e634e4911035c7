"""
Scenario 50: gather over children that are already done (asyncio 3.12+).

Since CPython 3.12, gather() looks at each child when it is called: a child that
is already done is accounted for at once, in argument order, instead of through
a done-callback one loop iteration later. If every child is done, gather returns
a future that is already done, and awaiting it does not yield.

Spec (run main with asyncio.run):
1. main creates two futures, one with result "one" and one with result "two",
   and a task `other` whose body prints "other ran". It calls gather(one, two)
   and prints "all done: gather done at once: <done>"; it awaits the gather and
   prints "results: one, two"; then prints "other ran before: <ran>" (false: the
   await did not yield), then awaits sleep(0) (other prints "other ran").
2. A failed future (ValueError "early") and a pending future: gather(failed,
   pending) is done at once; main prints "failed first: done at once: true",
   "failed first: ValueError: early" (its exception) and
   "failed first: pending child cancelled: false". main sets the pending
   future's result to "late", and awaits sleep(0).
3. gather(one, failed, return_exceptions=True): done at once, results printed
   as "with return_exceptions: one, ValueError: early".
4. The same done future twice: gather(one, one) is done at once: prints
   "duplicate: one, one".
5. A cancelled future (message "stop"): gather(cancelled) is done at once and
   fails: prints "cancelled child: done at once: true" and
   "cancelled child: CancelledError: stop".
6. A task that has finished (awaited first) and the future "one":
   gather(task, one) is done at once: prints "finished task: true".
7. A mix: gather(one, pending2) is not done; main sets pending2's result to
   "later" and prints "mix right after set_result: false" (the done-callback
   has not run yet); after sleep(0) it prints "mix after a turn: true" and
   "mix: one, later".
8. main prints "main done".
"""
import asyncio


def show(v):
    if isinstance(v, BaseException):
        msg = str(v)
        name = "CancelledError" if isinstance(v, asyncio.CancelledError) else type(v).__name__
        return name + (": " + msg if msg else "")
    return str(v)


def b(x):
    return "true" if x else "false"


async def main():
    loop = asyncio.get_running_loop()
    one = loop.create_future()
    one.set_result("one")
    two = loop.create_future()
    two.set_result("two")
    ran = []

    async def other_body():
        ran.append(True)
        print("other ran")

    other = asyncio.create_task(other_body())
    g = asyncio.gather(one, two)
    print("all done: gather done at once:", b(g.done()))
    results = await g
    print("results:", ", ".join(results))
    print("other ran before:", b(bool(ran)))
    await asyncio.sleep(0)

    failed = loop.create_future()
    failed.set_exception(ValueError("early"))
    pending = loop.create_future()
    g2 = asyncio.gather(failed, pending)
    print("failed first: done at once:", b(g2.done()))
    print("failed first:", show(g2.exception()))
    print("failed first: pending child cancelled:", b(pending.cancelled()))
    pending.set_result("late")
    await asyncio.sleep(0)

    g3 = asyncio.gather(one, failed, return_exceptions=True)
    print("with return_exceptions:", ", ".join(show(r) for r in g3.result()))

    g4 = asyncio.gather(one, one)
    print("duplicate:", ", ".join(g4.result()))

    cancelled = loop.create_future()
    cancelled.cancel("stop")
    g5 = asyncio.gather(cancelled)
    print("cancelled child: done at once:", b(g5.done()))
    print("cancelled child:", show(g5.exception()))

    async def quick():
        return "quick"

    task = asyncio.create_task(quick())
    await task
    g6 = asyncio.gather(task, one)
    print("finished task:", b(g6.done()))

    pending2 = loop.create_future()
    g7 = asyncio.gather(one, pending2)
    pending2.set_result("later")
    print("mix right after set_result:", b(g7.done()))
    await asyncio.sleep(0)
    print("mix after a turn:", b(g7.done()))
    print("mix:", ", ".join(g7.result()))
    await other
    print("main done")


asyncio.run(main())
