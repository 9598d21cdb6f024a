package fam;

enum Op {
    PLUS {
        @Override
        int apply(int a, int b) {
            return a + b;
        }
    },
    TIMES {
        @Override
        int apply(int a, int b) {
            return a * b;
        }
    };

    abstract int apply(int a, int b);

    static int twice(Op op, int a) {
        return op.apply(a, a);
    }
}
