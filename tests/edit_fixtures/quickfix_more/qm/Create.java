package qm;

import java.util.List;

class Create {
    long total(List<String> items) {
        long n = sum(items, 3);
        log("total");
        long max = limit;
        return Math.min(n, max);
    }

    void reset() {
        count = 0;
        step = 2L;
        step++;
    }

    static int size() {
        return capacity;
    }
}
