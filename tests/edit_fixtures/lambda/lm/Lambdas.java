package lm;

import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.Callable;

public class Lambdas {
    private final Runnable hello = new Runnable() {
        @Override
        public void run() {
            String greeting = "hello";
            System.out.println(greeting);
        }
    };

    static int use(Op op, int x) {
        return op.apply(x);
    }

    static void submit(Runnable r) {
        r.run();
    }

    static void submit(Callable<Integer> c) throws Exception {
        c.call();
    }

    static Op doubler() {
        return new Op() {
            public int apply(int x) {
                return x * 2;
            }
        };
    }

    List<String> sorted(List<String> words, final int bonus) {
        List<String> out = new ArrayList<>(words);
        Comparator<String> byLength = new Comparator<String>() {
            @Override
            public int compare(String a, String b) {
                return a.length() - b.length() + bonus;
            }
        };
        Collections.sort(out, byLength);
        int n = use(new Op() {
            @Override
            public int apply(int x) {
                return x + bonus;
            }
        }, 3);
        System.out.println(n);
        return out;
    }

    void refused(int x) {
        Runnable self = new Runnable() {
            public void run() {
                System.out.println(this);
            }
        };
        Pair p = new Pair() {
            public int left() {
                return 1;
            }

            public int right() {
                return 2;
            }
        };
        Object o = new Runnable() {
            public void run() {}
        };
        submit(new Runnable() {
            public void run() {}
        });
        Op shadow = new Op() {
            public int apply(int y) {
                int x = y;
                return x;
            }
        };
        Op inherited = new Op() {
            public int apply(int y) {
                return name().length() + y + LIMIT;
            }
        };
        Task t = new Task() {
            public void go() {}
        };
        System.out.println(self.toString() + p + o + shadow + inherited + hello + t);
    }
}
