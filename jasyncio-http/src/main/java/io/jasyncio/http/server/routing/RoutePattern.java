package io.jasyncio.http.server.routing;

import io.jasyncio.http.PercentDecoding;

import java.util.ArrayList;
import java.util.List;

/**
 * A parsed route pattern, Go 1.22 ServeMux style: {@code [METHOD ]/literal/{name}/{rest...}}. A
 * segment is a literal (percent-decoded, compared with the request's decoded segment), a
 * {@code {name}} that matches one non-empty segment, or, last only, a {@code {name...}} that
 * matches the rest of the path (one segment or more, an empty one included: {@code /static/}).
 * No method matches every method; {@code GET} matches {@code HEAD} too.
 */
final class RoutePattern {
    enum Kind { LITERAL, PARAMETER, REST }

    /** How two patterns relate: the requests they match, and which is more specific. */
    enum Relation { DISJOINT, EQUAL, MORE_SPECIFIC, LESS_SPECIFIC, OVERLAPPING }

    final String text;
    /** Null: any method. */
    final String method;
    final Kind[] kinds;
    /** A literal segment's decoded text, or a parameter's name. */
    final String[] segments;
    /** The parameters' names, in order. */
    final String[] parameterNames;

    private RoutePattern(String text, String method, Kind[] kinds, String[] segments, String[] parameterNames) {
        this.text = text;
        this.method = method;
        this.kinds = kinds;
        this.segments = segments;
        this.parameterNames = parameterNames;
    }

    static RoutePattern parse(String text) {
        String method = null;
        String path = text;
        int space = text.indexOf(' ');
        if (space >= 0) {
            method = text.substring(0, space);
            path = text.substring(space + 1).stripLeading();
            if (method.isEmpty() || !method.chars().allMatch(RoutePattern::isTokenChar)) {
                throw new IllegalArgumentException("route pattern `" + text + "`: the method must be a token, as GET");
            }
        }
        if (!path.startsWith("/")) {
            throw new IllegalArgumentException("route pattern `" + text + "`: the path must start with /");
        }
        String[] raw = path.substring(1).split("/", -1);
        Kind[] kinds = new Kind[raw.length];
        String[] segments = new String[raw.length];
        List<String> names = new ArrayList<>();
        for (int i = 0; i < raw.length; i++) {
            String s = raw[i];
            if (s.startsWith("{") && s.endsWith("}")) {
                boolean rest = s.endsWith("...}");
                String name = s.substring(1, s.length() - (rest ? 4 : 1));
                if (name.isEmpty() || !name.chars().allMatch(c -> Character.isLetterOrDigit(c) || c == '_')) {
                    throw new IllegalArgumentException("route pattern `" + text + "`: bad parameter name in " + s);
                }
                if (rest && i != raw.length - 1) {
                    throw new IllegalArgumentException("route pattern `" + text + "`: " + s + " may only be the last segment");
                }
                if (names.contains(name)) {
                    throw new IllegalArgumentException("route pattern `" + text + "`: parameter {" + name + "} twice");
                }
                names.add(name);
                kinds[i] = rest ? Kind.REST : Kind.PARAMETER;
                segments[i] = name;
            } else if (s.indexOf('{') >= 0 || s.indexOf('}') >= 0) {
                throw new IllegalArgumentException("route pattern `" + text + "`: a parameter must be a whole segment: " + s);
            } else {
                kinds[i] = Kind.LITERAL;
                segments[i] = PercentDecoding.decode(s);
            }
        }
        return new RoutePattern(text, method, kinds, segments, names.toArray(String[]::new));
    }

    private static boolean isTokenChar(int c) {
        return c > 32 && c < 127 && "\"(),/:;<=>?@[\\]{}".indexOf(c) < 0;
    }

    /** How the requests this pattern matches relate to {@code other}'s: by path, then by method. */
    Relation relationTo(RoutePattern other) {
        Relation path = pathRelationTo(other);
        Relation methods = methodRelationTo(other);
        if (path == Relation.DISJOINT || methods == Relation.DISJOINT) {
            return Relation.DISJOINT;
        }
        if (path == Relation.EQUAL) {
            return methods;
        }
        if (methods == Relation.EQUAL || methods == path) {
            return path;
        }
        return Relation.OVERLAPPING; // more specific by one, less by the other: ambiguous
    }

    private Relation methodRelationTo(RoutePattern other) {
        String a = method;
        String b = other.method;
        if (a == null || b == null) {
            return a == b ? Relation.EQUAL : a == null ? Relation.LESS_SPECIFIC : Relation.MORE_SPECIFIC;
        }
        if (a.equals(b)) {
            return Relation.EQUAL;
        }
        if (a.equals("GET") && b.equals("HEAD")) {
            return Relation.LESS_SPECIFIC;
        }
        return a.equals("HEAD") && b.equals("GET") ? Relation.MORE_SPECIFIC : Relation.DISJOINT;
    }

    private Relation pathRelationTo(RoutePattern other) {
        boolean thisMore = false;
        boolean otherMore = false;
        for (int i = 0; ; i++) {
            boolean thisEnded = i == kinds.length;
            boolean otherEnded = i == other.kinds.length;
            if (thisEnded && otherEnded) {
                break;
            }
            Kind a = thisEnded ? null : kinds[i];
            Kind b = otherEnded ? null : other.kinds[i];
            if (a == Kind.REST || b == Kind.REST) {
                // a rest matches one segment or more: a pattern that ends here matches none of its paths
                if (thisEnded || otherEnded) {
                    return Relation.DISJOINT;
                }
                thisMore |= b == Kind.REST && a != Kind.REST;
                otherMore |= a == Kind.REST && b != Kind.REST;
                break;
            }
            if (thisEnded || otherEnded) {
                return Relation.DISJOINT;
            }
            if (a == Kind.LITERAL && b == Kind.LITERAL) {
                if (!segments[i].equals(other.segments[i])) {
                    return Relation.DISJOINT;
                }
            } else if (a == Kind.LITERAL) {
                if (segments[i].isEmpty()) {
                    return Relation.DISJOINT; // a parameter matches no empty segment
                }
                thisMore = true;
            } else if (b == Kind.LITERAL) {
                if (other.segments[i].isEmpty()) {
                    return Relation.DISJOINT;
                }
                otherMore = true;
            }
        }
        return thisMore && otherMore ? Relation.OVERLAPPING
                : thisMore ? Relation.MORE_SPECIFIC : otherMore ? Relation.LESS_SPECIFIC : Relation.EQUAL;
    }

    /** A request both patterns match, to show in a conflict's message (when they overlap). */
    String commonExample(RoutePattern other) {
        StringBuilder path = new StringBuilder();
        int n = Math.max(kinds.length, other.kinds.length);
        for (int i = 0; i < n; i++) {
            Kind a = i < kinds.length ? kinds[i] : Kind.REST;
            Kind b = i < other.kinds.length ? other.kinds[i] : Kind.REST;
            path.append('/').append(a == Kind.LITERAL ? segments[i] : b == Kind.LITERAL ? other.segments[i] : "x");
            if (a == Kind.REST && b == Kind.REST) {
                break;
            }
        }
        String m = method != null ? method : other.method != null ? other.method : "GET";
        if (method != null && other.method != null && !method.equals(other.method)) {
            m = "HEAD"; // GET and HEAD
        }
        return m + " " + path;
    }

    boolean hasParameters() {
        return parameterNames.length > 0;
    }

    @Override
    public String toString() {
        return text;
    }
}
