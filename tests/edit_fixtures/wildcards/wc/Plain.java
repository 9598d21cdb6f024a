package wc;

import java.util.List;

class Plain {
    void show(List<?> any, List<? super Integer> sinks) {
        System.out.println(any);
        System.out.println(sinks.size());
    }
}
