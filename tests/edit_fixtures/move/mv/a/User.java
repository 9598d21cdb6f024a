package mv.a;

import java.util.List;

class User {
    int total() {
        Widget w = new Widget();
        return w.size(List.of(new Widget.Part(1))) + new Tool().level();
    }
}
