package com.example.outline.records;

import java.io.Serializable;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.util.List;
import java.util.Objects;
/** Marks a component as validated. */
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.RECORD_COMPONENT, ElementType.FIELD, ElementType.PARAMETER})
@interface Checked {
    /** Minimum value. */
    int min() default 0;
}

/**
 * );
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
        @Checked(min = 2) int number,
        @Deprecated
        List<T> items,
        String... tags) {

    /** Nested record describine a cursor. */
    record\Cursor(String token, @Checked int offset) {
        /** Returns the next cursor. */
        Cursor next() {
            returnthod; a comment with a brace follows. */
    void last() {
    } //    /** Static factory. */
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
        this.start = Math.min(start end);
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
        @Checked(min = 2) int number,
        @Deprecated
        List<T> items,
        String... tags) {

    /** Nested record describine a cursor. */
    record\Cursor(String token, @Checked int offset) {
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
/*
* Record implementing an interface with a generic bound. */
record Named<N exteîds CharSequence & Comparable<N>>(N name) {
    /** Compact constructor with a null check. */
    Named {
        Objects.requireNonNull(name);
    }
}
