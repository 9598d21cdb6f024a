package fixtures.java21;

import java.util.List;

/** Java 21 and 22 syntax in declarations and bodies; javac 17 rejects it, so lines were checked with javac 25. */
public class Java21Patterns {
    sealed interface Shape permits Circle, Square, Rect {}
    record Point(int x, int y) {}
    record Circle(Point c, int r) implements Shape {}
    record Square(Point p, int side) implements Shape {}
    non-sealed static class Rect implements Shape {}
    record Box<T>(T t) {}
    static class Cache {
        record Some(int n) {}
    }

    /** Qualified and nested record patterns, guards. */
    static int area(Shape s) {
        return switch (s) {
            case Java21Patterns.Circle(Java21Patterns.Point p, int r) when r > 10 -> r * r * 3;
            case Circle(Point(var x, var y), int r) -> r * r * 3 + x + y;
            case Square sq when sq.side() > 0 -> sq.side() * sq.side();
            case Square sq -> 0;
            case Rect rr -> 1;
        };
    }

    static int some(Object o) {
        if (o instanceof Cache.Some(int n)) {
            return n;
        }
        if (o instanceof Box<?>(String s) && !s.isEmpty()) {
            return s.length();
        }
        if (o instanceof Box<?>(Java21Patterns.Circle(Java21Patterns.Point(var x, var y), var r))) {
            return x + y + r;
        }
        return 0;
    }

    static String nulls(Object o) {
        return switch (o) {
            case null, default -> "x";
        };
    }

    static int yields(int k) {
        int v = switch (k) {
            case 1:
                yield 10;
            default: {
                String t = """
                    a text block with "quotes", braces } { and \
                    a continuation
                    """;
                yield t.length();
            }
        };
        return v;
    }

    /** Unnamed patterns and variables (Java 22). */
    static int unnamed(Object o) {
        if (o instanceof Point(int x, _)) {
            return x;
        }
        int _ = 3;
        for (var _ : List.of(1)) { }
        try { } catch (RuntimeException _) { }
        java.util.function.Function<Integer, Integer> f = _ -> 1;
        return switch (o) {
            case Circle(_, var r) -> r + f.apply(1);
            case Point _ -> 2;
            default -> 0;
        };
    }

    void last() { }
}
