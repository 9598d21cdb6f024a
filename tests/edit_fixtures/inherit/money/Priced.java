package money;

import java.io.IOException;
import java.util.function.Function;

/** Something with a price; generic, with a method of its own type parameter. */
public interface Priced<T extends Comparable<T>> {
    T price();

    default String label() {
        return "priced";
    }

    <R> R convert(Function<? super T, ? extends R> rate) throws IOException;
}
