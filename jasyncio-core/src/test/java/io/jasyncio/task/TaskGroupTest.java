package io.jasyncio.task;

import io.jasyncio.loop.CancelledError;
import io.jasyncio.testing.EveryEngine;
import io.jasyncio.testing.EveryLoop;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.ArrayList;
import java.util.List;

import static io.jasyncio.Asyncio.await;
import static io.jasyncio.Asyncio.createTask;
import static io.jasyncio.Asyncio.currentTask;
import static io.jasyncio.task.VirtualTime.run;
import static io.jasyncio.Asyncio.sleep;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

@Timeout(10)
@EveryLoop
@EveryEngine
class TaskGroupTest {

    @Test
    void theGroupWaitsForEveryChild() {
        List<Task<String>> tasks = new ArrayList<>();
        run(() -> {
            TaskGroup.run(tg -> {
                tasks.add(tg.createTask(() -> sleep(0.03, "a")));
                tasks.add(tg.createTask(() -> sleep(0.01, "b")));
            });
            return null;
        });
        assertEquals("a", tasks.get(0).result());
        assertEquals("b", tasks.get(1).result());
    }

    @Test
    void aFailingBodyCancelsTheChildrenAndIsInTheGroup() {
        IllegalStateException boom = new IllegalStateException("body failed");
        List<Task<String>> tasks = new ArrayList<>();
        ExceptionGroup group = run(() -> assertThrows(ExceptionGroup.class, () -> TaskGroup.run(tg -> {
            tasks.add(tg.createTask(() -> sleep(10, "never")));
            sleep(0.01);
            throw boom;
        })));
        assertTrue(tasks.get(0).isCancelled());
        assertEquals(List.of(boom), group.exceptions());
        assertEquals("unhandled errors in a TaskGroup", group.message());
        assertEquals("unhandled errors in a TaskGroup (1 sub-exception)", group.getMessage());
    }

    @Test
    void aChildFailureAndTheBodysOwnFailureAreBothKeptChildFirst() {
        IllegalStateException child = new IllegalStateException("child");
        IllegalArgumentException body = new IllegalArgumentException("body");
        ExceptionGroup group = run(() -> assertThrows(ExceptionGroup.class, () -> TaskGroup.run(tg -> {
            tg.createTask(() -> {
                sleep(0.01);
                throw child;
            });
            try {
                sleep(10);
            } catch (CancelledError cancelledByTheGroup) {
                throw body;
            }
        })));
        assertEquals(List.of(child, body), group.exceptions());
        assertEquals("unhandled errors in a TaskGroup (2 sub-exceptions)", group.getMessage());
    }

    @Test
    void theParentIsNotLeftCancelledAfterAChildFailure() {
        run(() -> {
            assertThrows(ExceptionGroup.class, () -> TaskGroup.run(tg -> {
                tg.createTask(() -> {
                    throw new IllegalStateException("x");
                });
                sleep(10);
            }));
            assertEquals(0, currentTask().cancelling());
            sleep(0.01); // not cancelled here
            return null;
        });
    }

    @Test
    void nestedGroupsCarryTheInnerGroupInsideTheOuter() {
        IllegalStateException deep = new IllegalStateException("deep");
        ExceptionGroup outer = run(() -> assertThrows(ExceptionGroup.class, () -> TaskGroup.run(tg -> {
            tg.createTask(() -> TaskGroup.run(inner -> inner.createTask(() -> {
                sleep(0.01);
                throw deep;
            })));
            tg.createTask(() -> sleep(10));
        })));
        ExceptionGroup inner = assertInstanceOf(ExceptionGroup.class, outer.exceptions().get(0));
        assertSame(deep, inner.exceptions().get(0));
        assertEquals(1, outer.exceptions().size(), "the sibling was cancelled, not failed");
    }

    @Test
    void cancellationFromOutsideLeavesAsCancelledErrorAfterTheChildrenFinish() {
        List<String> trace = new ArrayList<>();
        run(() -> {
            Task<Void> parent = createTask(() -> TaskGroup.run(tg -> {
                tg.createTask(() -> {
                    try {
                        sleep(10);
                    } catch (CancelledError e) {
                        sleep(0.01);
                        trace.add("child cleaned up");
                        throw e;
                    }
                });
                sleep(10);
            }));
            sleep(0.01);
            parent.cancel();
            assertThrows(CancelledError.class, () -> await(parent));
            assertTrue(parent.isCancelled());
            return null;
        });
        assertEquals(List.of("child cleaned up"), trace);
    }

    @Test
    void aFinishedGroupRefusesNewTasks() {
        run(() -> {
            TaskGroup[] kept = {null};
            TaskGroup.run(tg -> kept[0] = tg);
            assertThrows(IllegalStateException.class, () -> kept[0].createTask(() -> 1));
            return null;
        });
    }

    @Test
    void aLongLivedGroupForgetsItsFinishedTasks() {
        int batches = 50;
        int perBatch = 100;
        List<Integer> runningAfterEachBatch = new ArrayList<>();
        run(() -> {
            TaskGroup.run(tg -> {
                for (int b = 0; b < batches; b++) {
                    for (int i = 0; i < perBatch; i++) {
                        tg.createTask(() -> sleep(0, "short"));
                    }
                    assertEquals(perBatch, tg.tasks().size(), "the batch just created is running");
                    sleep(0); // each task takes its first step (and sleeps 0)
                    sleep(0); // ...then finishes
                    sleep(0); // ...and its done-callback has left the group
                    runningAfterEachBatch.add(tg.tasks().size());
                }
            });
            return null;
        });
        assertEquals(batches, runningAfterEachBatch.size());
        assertTrue(runningAfterEachBatch.stream().allMatch(n -> n == 0),
                "a finished task leaves the group, so 5,000 short tasks are not held: " + runningAfterEachBatch);
    }

    @Test
    void tasksListsTheRunningOnesInCreationOrder() {
        run(() -> {
            TaskGroup group = TaskGroup.call(tg -> {
                Task<String> slow = tg.createTask(() -> sleep(0.02, "slow"));
                Task<String> fast = tg.createTask(() -> sleep(0.01, "fast"));
                assertEquals(List.of(slow, fast), tg.tasks());
                sleep(0.015);
                assertEquals(List.of(slow), tg.tasks(), "the fast one is done and gone");
                return tg;
            });
            assertEquals(List.of(), group.tasks(), "every task is done once the group has exited");
            return null;
        });
    }

    @Test
    void outsideATaskItIsRefused() {
        assertThrows(IllegalStateException.class, () -> TaskGroup.run(tg -> {
        }));
    }
}
