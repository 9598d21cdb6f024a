package fj;

import java.util.function.IntFunction;

/** java.base's Node in small: two copyInto families that EmptyNode joins. */
public interface Node<T> {
    void copyInto(T[] array, int offset);

    long count();

    interface OfPrimitive<T, T_ARR> extends Node<T> {
        void copyInto(T_ARR array, int offset);

        T_ARR newArray(int count);

        default T[] asArray(IntFunction<T[]> generator) {
            T[] boxed = generator.apply((int) count());
            copyInto(boxed, 0);
            return boxed;
        }
    }

    interface OfInt extends OfPrimitive<Integer, int[]> {
        @Override
        default void copyInto(Integer[] boxed, int offset) {
            int[] array = newArray((int) count());
            copyInto(array, 0);
            for (int i = 0; i < array.length; i++) {
                boxed[offset + i] = array[i];
            }
        }
    }
}
