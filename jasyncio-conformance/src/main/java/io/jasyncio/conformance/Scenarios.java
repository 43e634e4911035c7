package io.jasyncio.conformance;

import io.jasyncio.conformance.scenarios.*;

import java.util.List;
import java.util.Optional;

/** Every ported scenario, in file order. Add a port here when it is written. */
public final class Scenarios {
    private Scenarios() {
    }

    public static List<Scenario> all() {
        return List.of(
                new S01CallSoonFifo(),
                new S16TaskStepOrder());
    }

    public static Optional<Scenario> byName(String name) {
        return all().stream().filter(s -> s.name().equals(name)).findFirst();
    }
}
