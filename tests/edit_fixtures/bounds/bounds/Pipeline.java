package bounds;

import java.util.Iterator;
import java.util.List;
import java.util.function.BinaryOperator;

/**
 * Issue 53 (java.base's DistinctOps, 100-pick rename proof): an anonymous class declares a
 * method named like inherited ones it does not override (an overload); a call that only its
 * own method can take is its own, and a call on the result binds to the result's type.
 */
public abstract class Pipeline<A, B> {
    public interface Node<T> {
        Iterator<T> split();
    }

    abstract <P> Node<B> evaluate(List<P> list);

    public B reduce(B identity, BinaryOperator<B> op) {
        return identity;
    }

    public static <T> Pipeline<T, T> distinct() {
        return new Pipeline<T, T>() {
            <P> Node<T> reduce(Pipeline<?, T> helper, List<P> list) {
                return () -> null;
            }

            @Override
            <P> Node<T> evaluate(List<P> list) {
                return reduce(this, list);
            }

            Iterator<T> first(List<String> list) {
                return reduce(this, list).split();
            }
        };
    }
}
