package bounds;

/**
 * Issue 53 (java.base's BoundMethodHandle.SpeciesData, 100-pick rename proof): a class that
 * extends an inner class of a parameterized outer class, `Specializer<…>.Species`: the calls of
 * the inner class's methods on it bind (its superclass was not read, so they were not bound).
 */
public abstract class Specializer<T, K> {
    public abstract class Species {
        public int getter(int i) {
            return i;
        }
    }

    static final class Handle {
        static final class Data extends Specializer<Handle, String>.Species {
            Data(Specializer<Handle, String> outer) {
                outer.super();
            }
        }

        static int use(Data data) {
            return data.getter(0) + data.getter(1);
        }
    }
}
