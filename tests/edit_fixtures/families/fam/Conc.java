package fam;

abstract class Conc<T, T_NODE extends Node<T>> implements Node<T> {
    protected final T_NODE left;

    Conc(T_NODE left) {
        this.left = left;
    }

    abstract static class OfPrimitive<E, T_ARR, T_NODE extends Node.OfPrimitive<E, T_ARR>>
            extends Conc<E, T_NODE> implements Node.OfPrimitive<E, T_ARR> {
        OfPrimitive(T_NODE left) {
            super(left);
        }

        @Override
        public void copyInto(T_ARR array, int offset) {
            left.copyInto(array, offset);
        }
    }
}
