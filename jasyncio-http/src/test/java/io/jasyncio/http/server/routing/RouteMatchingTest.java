package io.jasyncio.http.server.routing;

import io.jasyncio.http.HttpHeaders;
import io.jasyncio.http.HttpRequest;
import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The route tree on its own: which pattern a method and path find, the parameters, and the conflicts refused. */
class RouteMatchingTest {
    private static final String[] PATTERNS = {
            "GET /", "GET /users", "GET /users/{id}", "GET /users/me", "DELETE /users/{id}",
            "GET /users/{id}/posts/{post}", "GET /static/{path...}", "GET /static/index.html",
            "POST /users", "/any/{x}", "GET /any/{x}", "HEAD /head", "GET /head", "GET /a/", "GET /caf%C3%A9",
    };

    private static RouteTree tree(String... patterns) {
        RouteTree tree = new RouteTree();
        for (String p : patterns) {
            tree.add(new Route(RoutePattern.parse(p), request -> null, null, -1));
        }
        return tree;
    }

    /** The pattern that {@code method target} finds, or null. */
    private static String find(String method, String target) {
        Route r = tree(PATTERNS).find(method, target, 0, target.indexOf('?') < 0 ? target.length() : target.indexOf('?'));
        return r == null ? null : r.pattern.text;
    }

    private static Map<String, String> parameters(String pattern, String target) {
        Route route = new Route(RoutePattern.parse(pattern), request -> null, null, -1);
        RouteTree tree = new RouteTree();
        tree.add(route);
        int to = target.indexOf('?') < 0 ? target.length() : target.indexOf('?');
        Route found = tree.find("GET", target, 0, to);
        assertEquals(route, found, target);
        return route.withParameters(new HttpRequest("GET", target, HttpHeaders.empty()), target, 0, to).pathParameters();
    }

    @Test
    void theMostSpecificRouteWins() {
        assertEquals("GET /", find("GET", "/"));
        assertEquals("GET /users", find("GET", "/users"));
        assertEquals("GET /users/{id}", find("GET", "/users/7"));
        assertEquals("GET /users/me", find("GET", "/users/me"));
        assertEquals("DELETE /users/{id}", find("DELETE", "/users/me"), "the literal has no DELETE: the parameter's route does");
        assertEquals("GET /users/{id}/posts/{post}", find("GET", "/users/7/posts/9?x=1"));
        assertEquals("GET /static/index.html", find("GET", "/static/index.html"));
        assertEquals("GET /static/{path...}", find("GET", "/static/css/site.css"));
        assertEquals("GET /static/{path...}", find("GET", "/static/"));
        assertEquals("GET /any/{x}", find("GET", "/any/1"));
        assertEquals("/any/{x}", find("PATCH", "/any/1"));
        assertEquals("GET /a/", find("GET", "/a/"));
    }

    @Test
    void theRouterTellsWhichPatternAnswers() {
        Router router = Router.builder().get("/users/{id}", request -> null).route("/any", request -> null).build();
        assertEquals("GET /users/{id}", router.patternFor("GET", "/users/7?x=1"));
        assertEquals("GET /users/{id}", router.patternFor("HEAD", "http://example.com/users/7"), "absolute-form");
        assertEquals("/any", router.patternFor("DELETE", "/any"));
        assertNull(router.patternFor("POST", "/users/7"));
        assertNull(router.patternFor("OPTIONS", "*"));
        assertNull(router.patternFor("CONNECT", "example.com:443"));
        Router root = Router.builder().get("/", request -> null).build();
        assertEquals("GET /", root.patternFor("GET", "http://example.com"), "an absolute-form target without a path is /");
        assertEquals("GET /", root.patternFor("GET", "http://example.com?q=1"));
    }

    @Test
    void headRunsGetUnlessItHasItsOwnRoute() {
        assertEquals("GET /users/{id}", find("HEAD", "/users/7"));
        assertEquals("HEAD /head", find("HEAD", "/head"));
        assertEquals("GET /head", find("GET", "/head"));
    }

    @Test
    void noMatchIsNull() {
        assertNull(find("GET", "/nope"));
        assertNull(find("GET", "/users/"), "a parameter matches no empty segment");
        assertNull(find("GET", "/users/7/"), "a pattern matches the whole path");
        assertNull(find("GET", "/a"), "/a is not /a/");
        assertNull(find("GET", "/static"), "a rest matches one segment or more");
        assertNull(find("POST", "/users/7"));
    }

    @Test
    void segmentsAreComparedDecoded() {
        assertEquals("GET /users/me", find("GET", "/users/%6De"));
        assertEquals("GET /caf%C3%A9", find("GET", "/caf%c3%a9"));
        assertEquals("GET /users/{id}", find("GET", "/users/a%2Fb"), "an encoded slash stays inside its segment");
    }

    @Test
    void parametersAreDecodedValues() {
        assertEquals(Map.of("id", "1"), parameters("GET /users/{id}", "/users/%31"));
        assertEquals(Map.of("id", "a/b c"), parameters("GET /users/{id}", "/users/a%2Fb%20c"));
        assertEquals(Map.of("id", "7", "post", "é"), parameters("GET /users/{id}/posts/{post}", "/users/7/posts/%C3%A9?x=1"));
        assertEquals(Map.of("path", "css/a b.css"), parameters("GET /static/{path...}", "/static/css/a%20b.css"));
        assertEquals(Map.of("path", ""), parameters("GET /static/{path...}", "/static/"));
        assertEquals(Map.of("rest", "x//y/"), parameters("GET /{rest...}", "/x//y/"));
        assertEquals(Map.of("id", "100%"), parameters("GET /users/{id}", "/users/100%"), "a stray % stays as it is");
    }

    @Test
    void allowedMethodsAreEveryMatchingRoutes() {
        Set<String> methods = new TreeSet<>();
        tree(PATTERNS).collectMethods("/users/me", 0, 9, methods);
        assertEquals(Set.of("GET", "DELETE"), methods);
        methods.clear();
        tree(PATTERNS).collectMethods("/any/1", 0, 6, methods);
        assertEquals(Set.of("GET", "*"), methods);
    }

    @Test
    void conflictsAreRefusedWithBothPatterns() {
        assertConflict("GET /a/{x}", "GET /a/{y}", "both match GET /a/x");
        assertConflict("GET /a/{x}", "GET /a/{x}", "every request either matches");
        assertConflict("/a/{x}", "/{y}/b", "both match GET /a/b and neither is more specific");
        assertConflict("GET /users/{id}", "/users/me", "neither is more specific");
        assertConflict("/x/{p...}", "/x/{q...}", "both match GET /x/x");
        // no conflict: one is more specific, or they share no request
        for (String[] pair : new String[][]{{"GET /a/{x}", "GET /a/b"}, {"GET /a/{x}", "POST /a/{y}"},
                {"GET /a/{x}", "/a/{y}"}, {"/a/{x}", "/a/{x}/b"}, {"/s/{p...}", "/s/{x}"}, {"/s/{p...}", "/s"},
                {"GET /a", "HEAD /a"}, {"/a/", "/a/{x}"}}) {
            Router.builder().route(pair[0], request -> null).route(pair[1], request -> null).build();
        }
    }

    private static void assertConflict(String first, String second, String expected) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Router.builder().route(first, request -> null).route(second, request -> null).build());
        assertTrue(e.getMessage().contains("`" + first + "` and `" + second + "` conflict"), e.getMessage());
        assertTrue(e.getMessage().contains(expected), e.getMessage());
    }

    @Test
    void badPatternsAreRefusedWhenAdded() {
        for (String bad : new String[]{"users", "GET users", "/a/{}", "/a/{x...}/b", "/a/x{y}", "/{a}/{a}", "G(T /"}) {
            assertThrows(IllegalArgumentException.class, () -> Router.builder().route(bad, request -> null), bad);
        }
    }
}
