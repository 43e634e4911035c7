package io.jasyncio.lab.experiments;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/** The lab's experiments, in tour order. */
public final class Experiments {
    private Experiments() {
    }

    public static List<Experiment> all() {
        return List.of(
                new IterationAnatomy(),
                new SnapshotKeepsIoAlive(),
                new LazyTimerPurge(),
                new IdleLoopSleeps(),
                new AwaitsThatDoNotYield(),
                new BlockedLoop(),
                new FasterLoops());
    }

    public static Optional<Experiment> byName(String name) {
        return all().stream().filter(e -> e.name().equals(name)).findFirst();
    }

    /** The experiments named (in tour order), or all of them when {@code names} is empty. */
    public static List<Experiment> select(List<String> names) {
        if (names.isEmpty()) {
            return all();
        }
        List<String> unknown = new ArrayList<>();
        for (String n : names) {
            if (byName(n).isEmpty()) {
                unknown.add(n);
            }
        }
        if (!unknown.isEmpty()) {
            throw new IllegalArgumentException("unknown experiment(s) " + unknown + "; see --list");
        }
        return all().stream().filter(e -> names.contains(e.name())).toList();
    }
}
