package com.example.outline.records;

import java.io.Serializable;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.util.List;
import java.util.Objects;

/** Marks a component as validated. */
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.RECORD_COMPONENT, ElementType.FIELD, ElementType.PARAMETER})
@interface Checked {
    /** Minimum value. */
    int min() default 0;
}

/**
 * A point with a compact constructor.
 *
 * @param x horizontal coordinate
 * @param y vertical coordinate
 */
record Point(int x, int y) implements Serializable, Comparable<Point> {

    /** The origin. */
    static final Point ORIGIN = new Point(0, 0);

    /** Number of points created. */
    static int created;

    /** Compact canonical constructor validating input. */
    Point {
        if (x < -1000 || y < -1000) {
            throw new IllegalArgumentException("out of range");
        }
        created++;
    }

    /** Convenience constructor. */
    Point(int both) {
        this(both, both);
    }

    /** Static factory. */
    static Point of(int x, int y) {
        return new Point(x, y);
    }

    @Override
    public int compareTo(Point other) {
        return Integer.compare(x * x + y * y, other.x * other.x + other.y * other.y);
    }
}

/**
 * A range with an explicit canonical constructor.
 */
record Range(long start, long end) {

    /** Explicit canonical constructor. */
    Range(long start, long end) {
        this.start = Math.min(start, end);
        this.end = Math.max(start, end);
    }

    /** Length of the range. */
    long length() {
        return end - start;
    }
}

/**
 * A generic record with annotated components spread over lines.
 *
 * @param <T> element type
 */
record Page<T>(
        @Checked(min = 1) int number,
        @Deprecated
        List<T> items,
        String... tags) {

    /** Nested record describing a cursor. */
    record Cursor(String token, @Checked int offset) {
        /** Returns the next cursor. */
        Cursor next() {
            return new Cursor(token, offset + 1);
        }
    }

    /** Accessor overridden explicitly. */
    @Override
    public List<T> items() {
        return List.copyOf(items);
    }

    /** Whether the page is empty. */
    boolean isEmpty() {
        return items.isEmpty();
    }
}

/** An empty record. */
record Unit() {
}

/** Record implementing an interface with a generic bound. */
record Named<N extends CharSequence & Comparable<N>>(N name) {
    /** Compact constructor with a null check. */
    Named {
        Objects.requireNonNull(name);
    }
}
