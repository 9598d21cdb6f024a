package bounds;

import java.util.Iterator;
import java.util.List;

/**
 * Type variables of several bounds: a call on one is of the bound that declares the method
 * (JLS 4.4: the variable's members are every bound's), whichever bound comes first.
 */
public final class Minimum {
    private Minimum() {}

    static <T extends Object & Cmp<? super T>> T min(List<? extends T> all) {
        Iterator<? extends T> i = all.iterator();
        T best = i.next();
        while (i.hasNext()) {
            T next = i.next();
            if (next.cmp(best) < 0) {
                best = next;
            }
        }
        return best;
    }

    static <T extends Number & Cmp<T>> long weigh(T a, T b) {
        return a.longValue() + a.cmp(b);
    }

    static <T extends Object & Comparable<? super T>> int order(T a, T b) {
        return a.compareTo(b);
    }

    /** A class's variable of two bounds, used in an instance method. */
    static final class Holder<V extends Object & Cmp<V>> {
        private V value;

        boolean below(V other) {
            return value.cmp(other) < 0;
        }
    }
}
