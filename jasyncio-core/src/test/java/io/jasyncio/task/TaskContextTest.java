package io.jasyncio.task;

import io.jasyncio.context.Context;
import io.jasyncio.context.ContextVar;
import io.jasyncio.testing.EveryEngine;
import io.jasyncio.testing.EveryLoop;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static io.jasyncio.Asyncio.await;
import static io.jasyncio.Asyncio.createEagerTask;
import static io.jasyncio.Asyncio.createTask;
import static io.jasyncio.Asyncio.currentTask;
import static io.jasyncio.Asyncio.run;
import static io.jasyncio.Asyncio.sleep;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

@Timeout(10)
@EveryLoop
@EveryEngine
class TaskContextTest {
    private static final ContextVar<String> REQUEST = ContextVar.withDefault("request", "none");

    @Test
    void eachTaskWorksOnACopyOfItsCreatorsContext() {
        run(() -> {
            REQUEST.set("parent");
            Task<String> a = createTask(() -> {
                String inherited = REQUEST.get();
                REQUEST.set("a");
                sleep(0.01);
                return inherited + "->" + REQUEST.get();
            });
            Task<String> b = createTask(() -> {
                String inherited = REQUEST.get();
                REQUEST.set("b");
                sleep(0.01);
                return inherited + "->" + REQUEST.get();
            });
            REQUEST.set("parent changed later");
            assertEquals("parent->a", await(a));
            assertEquals("parent->b", await(b));
            assertEquals("parent changed later", REQUEST.get(), "children's sets do not leak back");
            return null;
        });
    }

    @Test
    void combinatorsRunBodiesInTheCallingTasksContext() {
        run(() -> {
            REQUEST.set("caller");
            String seen = io.jasyncio.Asyncio.timeout(1, () -> {
                sleep(0);
                return REQUEST.get();
            });
            assertEquals("caller", seen);
            return null;
        });
    }

    // A task shares its creator's bindings until it changes its context or asks for it: these
    // pin that the context it then gets is one object, the same in every step and from every side.

    @Test
    void aTaskRunsEveryStepInOneContextTheSameAsItsGetContext() {
        run(() -> {
            Task<Boolean> t = createTask(() -> {
                Context first = Context.current();
                sleep(0);
                Context second = Context.current();
                sleep(0);
                return first == second && second == Context.current() && first == currentTask().getContext();
            });
            assertEquals(true, await(t));
            return null;
        });
    }

    @Test
    void aTokenSetInOneStepResetsInALaterOne() {
        run(() -> {
            Task<String> t = createTask(() -> {
                ContextVar.Token<String> token = REQUEST.set("mine");
                String sameStep = REQUEST.get();
                sleep(0);
                String nextStep = REQUEST.get();
                REQUEST.reset(token);
                String afterReset = REQUEST.get();
                sleep(0);
                return sameStep + "," + nextStep + "," + afterReset + "," + REQUEST.get();
            });
            assertEquals("mine,mine,none,none", await(t));
            return null;
        });
    }

    @Test
    void theContextTakenBeforeTheFirstStepIsTheOneTheTaskRunsIn() {
        run(() -> {
            Task<String> t = createTask(() -> {
                return REQUEST.get();
            });
            t.getContext().run(() -> REQUEST.set("given before it started"));
            assertEquals("given before it started", await(t));
            assertEquals("none", REQUEST.get(), "the creator's context is not the task's");
            return null;
        });
    }

    @Test
    void theContextAskedForInANestedRunIsTheOneTheStepGoesOnIn() {
        run(() -> {
            Task<String> t = createTask(() -> {
                Context own = Context.empty().call(() -> currentTask().getContext());
                own.run(() -> REQUEST.set("set through the task's context"));
                String seen = REQUEST.get();
                sleep(0);
                return seen + (Context.current() == own ? "" : " (another context after the yield)");
            });
            assertEquals("set through the task's context", await(t));
            return null;
        });
    }

    @Test
    void anEagerChildCanTakeItsParentsContextDuringTheParentsStep() {
        run(() -> {
            Task<String> parent = createTask(() -> {
                Task<?> self = currentTask();
                Context[] parentsContext = new Context[1];
                Task<String> child = createEagerTask(() -> {
                    parentsContext[0] = self.getContext();
                    REQUEST.set("child");
                    sleep(0);
                    return REQUEST.get();
                });
                REQUEST.set("parent");
                String seenThroughIt = parentsContext[0].call(REQUEST::get);
                assertSame(parentsContext[0], Context.current());
                assertNotSame(parentsContext[0], child.getContext());
                return seenThroughIt + "/" + await(child);
            });
            assertEquals("parent/child", await(parent));
            return null;
        });
    }
}
