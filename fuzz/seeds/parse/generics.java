package com.example.outline.generics;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Utilities full of generic declarations.
 *
 * @param <K> key type
 * @param <V> value type
 */
class Registry<K extends Comparable<? super K>, V> {

    /** Entries in insertion order. */
    private final List<Map.Entry<K, V>> entries = new ArrayList<>();

    /** A generic constructor with its own type parameter. */
    <S extends Collection<? extends K>> Registry(S keys, V defaultValue) {
        for (K k : keys) {
            entries.add(Map.entry(k, defaultValue));
        }
    }

    /** Plain constructor. */
    Registry() {
    }

    /** Identity; the declaration line starts with the type parameters. */
    <T> T id(T t) {
        return t;
    }

    /** Static generic method with a recursive bound. */
    static <T extends Comparable<? super T>> T max(List<? extends T> items) {
        T best = null;
        for (T item : items) {
            if (best == null || item.compareTo(best) > 0) {
                best = item;
            }
        }
        return best;
    }

    /**
     * Type parameters span several lines.
     */
    <
        A,
        B extends Comparable<B>,
        C extends List<? super B>
    >
    Map<A, C> combine(A a, B b, Function<? super A, ? extends C> f) {
        return Map.of(a, f.apply(a));
    }

    /** Intersection bound. */
    public static <T extends Number & Comparable<T>> T clampMax(T a, T b) {
        return a.compareTo(b) > 0 ? b : a;
    }

    /** Wildcards only. */
    void copy(List<? super V> dst, List<? extends V> src) {
        dst.addAll(src);
    }

    /** Unbounded wildcard. */
    int count(Collection<?> any) {
        return any.size();
    }

    /** Returns a generic array type. */
    @SuppressWarnings("unchecked")
    <E> E[] array(int n) {
        return (E[]) new Object[n];
    }

    /** Nested generic type in the return type. */
    Map<K, List<Map.Entry<K, ? extends V>>> grouped() {
        return Map.of();
    }

    /** Returns a comparator for keys. */
    Comparator<Map.Entry<K, V>> byKey() {
        return Map.Entry.comparingByKey();
    }

    /**
     * Generic static nested class.
     *
     * @param <T> payload
     */
    static final class Box<T extends Comparable<? super T>> {
        /** Payload. */
        T value;

        /** Generic method in a generic class, shadowing nothing. */
        <U extends T> Box<T> with(U u) {
            value = u;
            return this;
        }
    }
}
