package io.jasyncio.context;

import org.junit.jupiter.api.Test;

import java.util.NoSuchElementException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** contextvars as a user calls them: get with and without a fallback, set and reset, run and copy. */
class ContextVarTest {

    @Test
    void getFallsBackToTheArgumentThenToTheDefault() {
        Context.empty().run(() -> {
            ContextVar<String> plain = ContextVar.of("plain");
            ContextVar<String> withDefault = ContextVar.withDefault("with-default", "d");
            assertEquals("context variable 'plain' is not set",
                    assertThrows(NoSuchElementException.class, plain::get).getMessage());
            assertEquals("fallback", plain.get("fallback"));
            assertEquals("d", withDefault.get());
            assertEquals("fallback", withDefault.get("fallback"), "the argument wins over the default");
            plain.set("set");
            withDefault.set("set too");
            assertEquals("set", plain.get("fallback"));
            assertEquals("set too", withDefault.get("fallback"));
        });
    }

    @Test
    void resetRestoresTheValueBeforeItsSetOnce() {
        Context.empty().run(() -> {
            ContextVar<Integer> var = ContextVar.of("n");
            ContextVar.Token<Integer> first = var.set(1);
            ContextVar.Token<Integer> second = var.set(2);
            var.reset(second);
            assertEquals(1, var.get());
            assertEquals("token has already been used once",
                    assertThrows(IllegalStateException.class, () -> var.reset(second)).getMessage());
            var.reset(first);
            assertFalse(Context.current().contains(var), "reset to before the first set: unset again");
            assertEquals(0, Context.current().size());
        });
    }

    @Test
    void aTokenBelongsToItsVariableAndItsContext() {
        ContextVar<String> a = ContextVar.of("a");
        ContextVar<String> b = ContextVar.of("b");
        Context outer = Context.empty();
        Context inner = Context.empty();
        outer.run(() -> {
            ContextVar.Token<String> token = a.set("x");
            @SuppressWarnings({"unchecked", "rawtypes"})
            ContextVar.Token<String> sameType = (ContextVar.Token) token;
            assertEquals("token was created by a different ContextVar",
                    assertThrows(IllegalArgumentException.class, () -> b.reset(sameType)).getMessage());
            inner.run(() -> assertEquals("token was created in a different Context",
                    assertThrows(IllegalArgumentException.class, () -> a.reset(token)).getMessage()));
            a.reset(token);
            assertFalse(outer.contains(a));
        });
    }

    @Test
    void runMakesAContextCurrentAndKeepsItsChanges() throws Exception {
        ContextVar<String> var = ContextVar.withDefault("v", "default");
        Context ctx = Context.empty();
        Context before = Context.current();
        ctx.run(() -> {
            assertSame(ctx, Context.current());
            var.set("inside");
        });
        assertSame(before, Context.current(), "run restores the caller's context");
        assertTrue(ctx.contains(var));
        assertEquals("inside", ctx.copy().call(var::get), "the change stayed in ctx");
        assertEquals("default", Context.empty().call(var::get));
    }

    @Test
    void copiesAreIndependent() throws Exception {
        ContextVar<String> var = ContextVar.of("v");
        Context original = Context.empty();
        original.run(() -> var.set("original"));
        Context copy = original.copy();
        copy.run(() -> var.set("changed in the copy"));
        assertEquals("original", original.call(var::get));
        assertEquals("changed in the copy", copy.call(var::get));
        original.run(() -> {
            Context snapshot = Context.copyCurrent();
            var.set("changed after copyCurrent");
            snapshot.run(() -> assertEquals("original", var.get()));
        });
    }
}
