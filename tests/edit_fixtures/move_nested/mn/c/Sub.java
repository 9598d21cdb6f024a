package mn.c;

import mn.a.Shapes;

class Sub extends Shapes {
    Box e = new Box(4);
}
