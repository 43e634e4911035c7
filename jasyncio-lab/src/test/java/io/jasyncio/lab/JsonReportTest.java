package io.jasyncio.lab;

import io.jasyncio.lab.experiments.Check;
import io.jasyncio.lab.experiments.Result;
import io.jasyncio.lab.experiments.Verdict;
import io.jasyncio.lab.report.JsonReport;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

@Timeout(value = 10, unit = TimeUnit.SECONDS)
class JsonReportTest {
    @Test
    @SuppressWarnings("unchecked")
    void awkwardValuesStayValidJson() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("quote\"and\\slash", "line\nbreak\ttab\u0001");
        m.put("nan", Double.NaN);
        m.put("whole", 3.0);
        m.put("fraction", 0.25);
        m.put("list", List.of(1, 2.5, "x"));
        m.put("array", new double[] {1.5, Double.POSITIVE_INFINITY});
        Result r = new Result("n", "t", "c \"quoted\"", Verdict.HOLDS, null, m, List.of(),
                List.of(new Check("e", true, "ev")), List.of(), 1.5);

        Map<String, Object> root = (Map<String, Object>) TinyJson.parse(JsonReport.render(List.of(r)));
        Map<String, Object> e = ((List<Map<String, Object>>) root.get("experiments")).get(0);
        assertEquals("holds", e.get("verdict"));
        assertEquals("c \"quoted\"", e.get("claim"));
        Map<String, Object> back = (Map<String, Object>) e.get("measurements");
        assertEquals("line\nbreak\ttab\u0001", back.get("quote\"and\\slash"));
        assertNull(back.get("nan"));
        assertEquals(3.0, back.get("whole"));
        assertEquals(0.25, back.get("fraction"));
        assertEquals(List.of(1.0, 2.5, "x"), back.get("list"));
        assertEquals(java.util.Arrays.asList(1.5, null), back.get("array"));
    }
}
