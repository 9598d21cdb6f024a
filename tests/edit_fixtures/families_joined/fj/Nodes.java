package fj;

final class Nodes {
    private Nodes() {
    }

    /** Its copyInto(T_ARR,int) implements Node's copyInto(T[],int) in OfRef and OfPrimitive's in OfInt. */
    abstract static class EmptyNode<T, T_ARR> implements Node<T> {
        public void copyInto(T_ARR array, int offset) {
        }

        public long count() {
            return 0;
        }

        static final class OfRef<T> extends EmptyNode<T, T[]> {
        }

        static final class OfInt extends EmptyNode<Integer, int[]> implements Node.OfInt {
            public int[] newArray(int count) {
                return new int[count];
            }
        }
    }

    static int[] filled(Node.OfInt n) {
        int[] array = n.newArray(2);
        n.copyInto(array, 0);
        return array;
    }
}
