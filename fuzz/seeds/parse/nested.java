package com.example.outline.nested;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Outer type containing many kinds of nested types.
 */
class Outer {

    /** Comparator created with an anonymous class: its body is not outlined. */
    private final Comparator<String> byLength = new Comparator<String>() {
        @Override
        public int compare(String a, String b) {
            return Integer.compare(a.length(), b.length());
        }
    };

    /** A static nested class. */
    static class StaticNested {
        /** A value. */
        int value;

        /** Second level. */
        static class Level2 {
            /** Third level. */
            static class Level3 {
                /** Deepest method. */
                void deep() {
                }
            }
        }
    }

    /** An inner (non-static) class. */
    class Inner {
        /** Reads outer state. */
        int size() {
            return byLength.hashCode();
        }
    }

    /** An interface in a class. */
    interface Listener {
        /** Called on events. */
        void onEvent(String name);

        /** A class inside an interface. */
        class Adapter implements Listener {
            @Override
            public void onEvent(String name) {
            }
        }
    }

    /** An enum in a class. */
    enum Mode {
        /** Fast mode. */
        FAST,
        /** Slow mode. */
        SLOW
    }

    /** A record in a class. */
    record Pair(String left, String right) {
    }

    /**
     * Sorts names; declares a local class, which is not outlined.
     */
    List<String> sorted(List<String> names) {
        class LocalHelper {
            int weight(String s) {
                return s.length();
            }
        }
        LocalHelper helper = new LocalHelper();
        List<String> copy = new ArrayList<>(names);
        copy.sort(Comparator.comparingInt(helper::weight));
        return copy;
    }

    /** Uses an anonymous class inside a method body. */
    Runnable task() {
        return new Runnable() {
            int runs;

            @Override
            public void run() {
                runs++;
            }
        };
    }

    /** Declares a local record and a local interface. */
    int locals() {
        record Point(int x, int y) {
        }
        interface Shape {
            int area();
        }
        Shape s = () -> new Point(2, 3).x();
        return s.area();
    }

    /** Last method of Outer. */
    void done() {
    }
}

/** A second top-level type in the same file. */
class Sibling {
    /** Nested in the sibling. */
    static final class Leaf {
    }
}
