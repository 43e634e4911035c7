package io.jasyncio.bench;

import io.jasyncio.http.server.routing.Router;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.util.concurrent.TimeUnit;

/**
 * Route matching alone ({@link Router#patternFor}: the tree walk a request's routing starts with,
 * without the parameters' decoding) in {@link RoutedHttpServer}'s 20-route table: a literal route,
 * a route with two parameters, a rest, an encoded segment, and a miss (the router's 404). Run with
 * {@code -prof gc}: matching allocates nothing unless a segment holds a {@code %}.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 5, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgs = {JvmFlags.FIXED_HEAP_MIN, JvmFlags.FIXED_HEAP_MAX, JvmFlags.PRE_TOUCH})
public class RouteMatchingBenchmark {
    @Param({"/health", "/api/v1/users/42/orders/7", "/static/css/site.css", "/api/v1/users/%34%32", "/nope/nope"})
    public String target;

    private Router router;

    @Setup
    public void build() {
        router = RoutedHttpServer.router(RoutedHttpServer.TWENTY_ROUTES);
        if (router.patternFor("GET", "/api/v1/users/42/orders/7") == null) {
            throw new IllegalStateException("the 20 routes lost the one benchmarked");
        }
    }

    @Benchmark
    public String match() {
        return router.patternFor("GET", target);
    }
}
