package mn.c;

import java.util.List;
import mn.a.Shapes;

class Only {
    List<Shapes.Box> boxes = List.of(new Shapes.Box(5));
}
