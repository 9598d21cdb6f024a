package mv.b;

import mv.a.Widget;

public class Client {
    public int use(Widget w) {
        return w.size(java.util.List.of(new mv.a.Widget.Part(2)));
    }
}
