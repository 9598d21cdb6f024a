package mn.c;

import mn.a.Shapes;
import mn.a.Shapes.Box;

/** Uses {@link Shapes.Box} and {@link mn.a.Shapes.Box#area()}. */
public class Client {
    Box a = new Box(1);

    Shapes.Box b = new Shapes.Box(2);

    mn.a.Shapes.Box c = new mn.a.Shapes.Box(3);

    Shapes.Box.Lid lid = new Shapes.Box.Lid();

    int n = Shapes.SIDES;

    Shapes.Shape s = () -> 2;
}
