package mv.c;

import mv.a.*;

public class Star {
    public int both() {
        return new Widget().size(java.util.List.of()) + Helper.size();
    }
}
