package fam;

interface Sized {
    long estimate();

    /** Base implements estimate() for its subclasses, without implementing Sized itself. */
    class Base {
        public long estimate() {
            return 0;
        }
    }

    class Impl extends Base implements Sized {
        static long both(Sized s, Impl i) {
            return s.estimate() + i.estimate();
        }
    }
}
