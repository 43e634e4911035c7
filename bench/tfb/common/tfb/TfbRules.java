package tfb;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;

/**
 * What the TechEmpower tests require of every server, shared by the three (compiled into each):
 * the random ids, the queries parameter's rule, the JSON of a world, the fortunes page.
 */
final class TfbRules {
    static final String HELLO = "Hello, World!";

    record World(int id, int randomNumber) {
    }

    record Fortune(int id, String message) {
    }

    private TfbRules() {
    }

    /** A World id (or a new randomNumber): uniform in 1..10000. */
    static int randomId() {
        return 1 + ThreadLocalRandom.current().nextInt(10_000);
    }

    /** The queries parameter: clamped to 1..500; 1 when absent or not an integer. */
    static int queries(String parameter) {
        try {
            return parameter == null ? 1 : Math.clamp(Integer.parseInt(parameter), 1, 500);
        } catch (NumberFormatException e) {
            return 1;
        }
    }

    static String json(World w) {
        return "{\"id\":" + w.id() + ",\"randomNumber\":" + w.randomNumber() + "}";
    }

    static String json(World[] worlds) {
        StringBuilder json = new StringBuilder(worlds.length * 32).append('[');
        for (int i = 0; i < worlds.length; i++) {
            json.append(i == 0 ? "" : ",").append(json(worlds[i]));
        }
        return json.append(']').toString();
    }

    /** The page: the database's fortunes and the one added at request time, sorted by message, escaped. */
    static String fortunesPage(List<Fortune> fromDatabase) {
        List<Fortune> fortunes = new ArrayList<>(fromDatabase);
        fortunes.add(new Fortune(0, "Additional fortune added at request time."));
        fortunes.sort(Comparator.comparing(Fortune::message));
        StringBuilder html = new StringBuilder(1200)
                .append("<!DOCTYPE html><html><head><title>Fortunes</title></head><body><table><tr><th>id</th><th>message</th></tr>");
        for (Fortune f : fortunes) {
            html.append("<tr><td>").append(f.id()).append("</td><td>");
            escapeHtml(f.message(), html);
            html.append("</td></tr>");
        }
        return html.append("</table></body></html>").toString();
    }

    private static void escapeHtml(String s, StringBuilder out) {
        for (int i = 0; i < s.length(); i++) {
            char ch = s.charAt(i);
            switch (ch) {
                case '<' -> out.append("&lt;");
                case '>' -> out.append("&gt;");
                case '&' -> out.append("&amp;");
                case '"' -> out.append("&quot;");
                case '\'' -> out.append("&#39;");
                default -> out.append(ch);
            }
        }
    }
}
