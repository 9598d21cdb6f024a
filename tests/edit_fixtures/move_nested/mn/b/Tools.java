package mn.b;

import java.util.Map.Entry;

import mn.a.Shapes;

public class Tools {
    static int use(Shapes.Box b) {
        return b.area();
    }

    Entry<String, String> pair;

    public static class Corner {
    }

    public class Part {
    }
}
