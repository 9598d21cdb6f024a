package mn.a;

import java.util.List;

/** Shapes, and a {@link Shapes.Box} of them. */
public class Shapes {
    public static final int SIDES = 4;

    private static int secret = 1;

    /** A box: see {@link #SIDES} and {@link Box#area()}. */
    @SuppressWarnings("unused")
    public static class Box {
        public final int w;

        public Box(int w) {
            this.w = w;
        }

        public int area() {
            return w * w * SIDES;
        }

        public static Box of(List<Integer> xs) {
            return new Box(xs.size());
        }

        public Corner corner() {
            return new Corner();
        }

        public static class Lid {
        }
    }

    public static class Corner {
    }

    public class Inner {
    }

    public static class Spy {
        int peek() {
            return secret;
        }
    }

    static class Hidden {
    }

    public interface Shape {
        int area();
    }

    public static class Entry {
    }

    public static class Sized extends Base {
        Sized() {
            super();
        }

        int twice() {
            return size() + this.size();
        }
    }

    public static class Peek extends Base {
        int other(Base b) {
            return b.size();
        }
    }

    static Shape unit() {
        return () -> 1;
    }

    static Box make() {
        return new Box(2);
    }

    static Shapes.Box.Lid lid() {
        return new Box.Lid();
    }
}
