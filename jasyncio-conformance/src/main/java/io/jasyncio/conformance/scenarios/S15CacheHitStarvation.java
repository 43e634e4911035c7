package io.jasyncio.conformance.scenarios;

import io.jasyncio.conformance.Scenario;
import io.jasyncio.loop.Future;
import io.jasyncio.task.Task;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import static io.jasyncio.Asyncio.await;
import static io.jasyncio.Asyncio.createTask;
import static io.jasyncio.Asyncio.getRunningLoop;
import static io.jasyncio.Asyncio.sleep;

/** Scenario 15: a loop of cache hits never yields and starves other tasks; sleep(0) lets them interleave. */
public final class S15CacheHitStarvation extends Scenario {
    @Override
    public String name() {
        return "15_cache_hit_starvation";
    }

    private Map<String, Future<Integer>> cache;

    private int lookup(String key) {
        return await(cache.get(key));
    }

    private void runRound(boolean yieldEachTime) {
        int[] counter = {0};
        List<Integer> seen = new ArrayList<>();
        Task<Void> observer = createTask(() -> {
            for (int i = 0; i < 5; i++) {
                seen.add(counter[0]);
                sleep(0);
            }
        });
        Task<Integer> hitter = createTask(() -> {
            int total = 0;
            for (int i = 0; i < 1000; i++) {
                total += lookup("k");
                counter[0]++;
                if (yieldEachTime) {
                    sleep(0);
                }
            }
            return total;
        });
        await(observer);
        int total = await(hitter);
        print("yield_each_time=" + b(yieldEachTime) + " total=" + total + " observer saw "
                + seen.stream().map(String::valueOf).collect(Collectors.joining(",")));
    }

    @Override
    protected void run() {
        asyncioRun(() -> {
            Future<Integer> hit = getRunningLoop().createFuture();
            hit.setResult(1);
            cache = Map.of("k", hit);
            runRound(false);
            runRound(true);
            return null;
        });
    }
}
