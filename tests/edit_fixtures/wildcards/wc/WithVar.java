package wc;

import java.util.List;

class WithVar {
    int count(List<? extends Number> numbers) {
        var first = numbers.get(0);
        System.out.println(numbers);
        return first.intValue();
    }
}
