package io.jasyncio.http.server.routing;

import io.jasyncio.http.PercentDecoding;

import java.util.Arrays;
import java.util.Set;

/**
 * The routes as a tree of path segments, built once: matching walks the request's raw path one
 * segment at a time, trying a literal child first, then a parameter, then a rest parameter, and
 * backs up when a branch ends without a route for the method. No regular expression, and no
 * allocation unless a segment holds a {@code %} (it is decoded to compare it). Among routes that
 * match, this finds the most specific, as {@link RoutePattern#relationTo} ranks them: the builder
 * refuses patterns that no order could rank (a conflict), so the first match in this order is it.
 */
final class RouteTree {
    private final Node root = new Node();

    /** A node: the segment position after its parent's; routes that end here hang on it. */
    private static final class Node {
        String[] literals = new String[0];
        Node[] literalChildren = new Node[0];
        Node parameterChild;
        /** Routes whose last segment is a parameter of the rest, matching from this node's next segment on. */
        final Leaf restLeaf = new Leaf();
        /** Routes that end at this node. */
        final Leaf leaf = new Leaf();

        Node literalChild(String literal) {
            for (int i = 0; i < literals.length; i++) {
                if (literals[i].equals(literal)) {
                    return literalChildren[i];
                }
            }
            Node child = new Node();
            literals = Arrays.copyOf(literals, literals.length + 1);
            literalChildren = Arrays.copyOf(literalChildren, literalChildren.length + 1);
            literals[literals.length - 1] = literal;
            literalChildren[literalChildren.length - 1] = child;
            return child;
        }

        /** The child for segment {@code path[from, to)}, compared decoded; or null. */
        Node findLiteral(String path, int from, int to) {
            String[] keys = literals;
            if (keys.length == 0) {
                return null;
            }
            int length = to - from;
            boolean encoded = path.indexOf('%', from, to) >= 0;
            String decoded = encoded ? PercentDecoding.decode(path, from, to, false) : null;
            for (int i = 0; i < keys.length; i++) {
                String key = keys[i];
                if (encoded ? key.equals(decoded) : key.length() == length && path.regionMatches(from, key, 0, length)) {
                    return literalChildren[i];
                }
            }
            return null;
        }
    }

    /** The routes that end at one place, by method. */
    private static final class Leaf {
        String[] methods = new String[0];
        Route[] routes = new Route[0];
        /** The route of no method, or null. */
        Route anyMethod;

        void add(Route route) {
            String method = route.pattern.method;
            if (method == null) {
                anyMethod = route;
                return;
            }
            methods = Arrays.copyOf(methods, methods.length + 1);
            routes = Arrays.copyOf(routes, routes.length + 1);
            methods[methods.length - 1] = method;
            routes[routes.length - 1] = route;
        }

        /** The route for {@code method}: its own, else GET's for HEAD, else the any-method one; or null. */
        Route routeFor(String method) {
            Route own = explicit(method);
            if (own == null && method.equals("HEAD")) {
                own = explicit("GET");
            }
            return own != null ? own : anyMethod;
        }

        private Route explicit(String method) {
            for (int i = 0; i < methods.length; i++) {
                if (methods[i].equals(method)) {
                    return routes[i];
                }
            }
            return null;
        }

        boolean isEmpty() {
            return methods.length == 0 && anyMethod == null;
        }

        void addMethodsTo(Set<String> allowed) {
            if (anyMethod != null) {
                allowed.add("*");
            }
            allowed.addAll(Arrays.asList(methods));
        }
    }

    void add(Route route) {
        RoutePattern p = route.pattern;
        Node node = root;
        for (int i = 0; i < p.kinds.length; i++) {
            switch (p.kinds[i]) {
                case LITERAL -> node = node.literalChild(p.segments[i]);
                case PARAMETER -> node = node.parameterChild != null ? node.parameterChild : (node.parameterChild = new Node());
                case REST -> {
                    node.restLeaf.add(route);
                    return;
                }
            }
        }
        node.leaf.add(route);
    }

    /**
     * The most specific route for {@code method} and the raw path {@code target[from, to)} (which
     * starts with {@code /}), or null.
     */
    Route find(String method, String target, int from, int to) {
        return find(root, method, target, from + 1, to);
    }

    private static Route find(Node node, String method, String path, int segment, int to) {
        int slash = path.indexOf('/', segment, to);
        boolean last = slash < 0;
        int end = last ? to : slash;
        Node literal = node.findLiteral(path, segment, end);
        if (literal != null) {
            Route r = last ? literal.leaf.routeFor(method) : find(literal, method, path, end + 1, to);
            if (r != null) {
                return r;
            }
        }
        if (node.parameterChild != null && end > segment) {
            Route r = last ? node.parameterChild.leaf.routeFor(method) : find(node.parameterChild, method, path, end + 1, to);
            if (r != null) {
                return r;
            }
        }
        return node.restLeaf.isEmpty() ? null : node.restLeaf.routeFor(method);
    }

    /**
     * Adds the methods of every route whose pattern matches the raw path {@code target[from, to)}
     * to {@code allowed} ({@code "*"} for a route of any method).
     */
    void collectMethods(String target, int from, int to, Set<String> allowed) {
        collect(root, target, from + 1, to, allowed);
    }

    private static void collect(Node node, String path, int segment, int to, Set<String> allowed) {
        int slash = path.indexOf('/', segment, to);
        boolean last = slash < 0;
        int end = last ? to : slash;
        Node literal = node.findLiteral(path, segment, end);
        if (literal != null) {
            if (last) {
                literal.leaf.addMethodsTo(allowed);
            } else {
                collect(literal, path, end + 1, to, allowed);
            }
        }
        if (node.parameterChild != null && end > segment) {
            if (last) {
                node.parameterChild.leaf.addMethodsTo(allowed);
            } else {
                collect(node.parameterChild, path, end + 1, to, allowed);
            }
        }
        node.restLeaf.addMethodsTo(allowed);
    }
}
