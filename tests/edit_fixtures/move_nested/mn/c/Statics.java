package mn.c;

import static mn.a.Shapes.Box.of;

import static mn.a.Shapes.*;

import java.util.List;

class Statics {
    Box d = of(List.of(1, 2));

    int s = SIDES;
}
