package capture;

import java.util.List;

class Use {
    /** Each call's receiver is a `?` captured by its bound: `ChildBuilder<?, ?>`. */
    long chain() {
        Child c = Child.builder().size(1).weight(2L).size(3).weight(4L).build();
        Child.ChildBuilder<?, ?> b = Child.builder();
        b.weight(1L).weight(2L).size(5).build();
        return c.weight + b.weight(3L).build().size;
    }

    /** `? super` reads as its bound too; `? extends` keeps its own. */
    int bounds(List<? extends Child> kids, Comparable<? super Child> cmp) {
        return kids.get(0).size + cmp.compareTo(kids.get(0));
    }
}
