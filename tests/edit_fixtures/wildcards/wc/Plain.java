package wc;

import java.util.List;

class Plain {
    void show(List<?> any, List<? super Integer> sinks, List<? extends Number> numbers) {
        System.out.println(any);
        System.out.println(sinks.size());
        System.out.println(numbers);
        System.out.println(numbers.get(0).intValue());
    }
}
