package io.jasyncio.http.server;

import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A whole body grows with the bytes received, pays for its growth from the budget, and gives it back. */
class WholeBodyTest {
    @Test
    void growsByDoublingUpToTheAnnouncedLengthNeverToIt() {
        assertEquals(256, WholeBody.grownCapacity(0, 10, 16 << 20), "10 bytes of an announced 16 MiB cost 256");
        assertEquals(512, WholeBody.grownCapacity(256, 300, 16 << 20));
        assertEquals(1000, WholeBody.grownCapacity(512, 600, 1000), "capped by the announced length");
        assertEquals(100, WholeBody.grownCapacity(0, 100, 100));
        assertEquals(5000, WholeBody.grownCapacity(256, 5000, -1), "chunked: at least what is needed");
    }

    @Test
    void theBudgetPaysForTheCapacityAndGetsItBack() {
        BodyBudget budget = new BodyBudget(1024);
        WholeBody body = new WholeBody(budget, 2000);
        assertTrue(body.append(ByteBuffer.wrap(new byte[200])));
        assertEquals(256, budget.used());
        assertTrue(body.append(ByteBuffer.wrap(new byte[200])));
        assertEquals(512, budget.used());
        assertTrue(body.append(ByteBuffer.wrap(new byte[400])));
        assertEquals(1024, budget.used());
        ByteBuffer over = ByteBuffer.wrap(new byte[300]);
        assertFalse(body.append(over), "growing to 2000 bytes is over the budget of 1024");
        assertEquals(300, over.remaining(), "nothing taken from a refused piece");
        assertEquals(1024, budget.used());
        assertEquals(800, body.toArray().length);
        body.release();
        assertEquals(0, budget.used());
        body.release();
        assertEquals(0, budget.used(), "given back once");
    }

    @Test
    void aContentLengthBodyIsHandedOverWithoutACopy() {
        BodyBudget budget = new BodyBudget(1 << 20);
        WholeBody body = new WholeBody(budget, 3);
        body.append(ByteBuffer.wrap(new byte[] {1, 2}));
        body.append(ByteBuffer.wrap(new byte[] {3}));
        byte[] bytes = body.toArray();
        assertArrayEquals(new byte[] {1, 2, 3}, bytes);
        assertTrue(bytes == body.toArray(), "the buffer itself, full");
    }
}
