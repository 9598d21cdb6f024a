package fam;

class IntNode implements Node.OfInt {
    @Override
    public void copyInto(int[] array, int offset) {
        array[offset] = 1;
    }

    static void use(Node<Integer> boxed, IntNode n) {
        boxed.copyInto(new Integer[4], 0);
        n.copyInto(new int[4], 0);
        n.copyInto(new Integer[4], 0);
    }
}
