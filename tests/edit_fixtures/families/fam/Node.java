package fam;

interface Node<T> {
    void copyInto(T[] array, int offset);

    interface OfPrimitive<T, T_ARR> extends Node<T> {
        void copyInto(T_ARR array, int offset);

        T_ARR newArray(int n);

        default T_ARR asArray() {
            T_ARR a = newArray(4);
            copyInto(a, 0);
            return a;
        }
    }

    interface OfInt extends OfPrimitive<Integer, int[]> {
        @Override
        default void copyInto(Integer[] boxed, int offset) {
            int[] a = asArray();
            for (int i = 0; i < a.length; i++) {
                boxed[offset + i] = a[i];
            }
        }

        @Override
        default int[] newArray(int n) {
            return new int[n];
        }
    }
}
