package mn.a;

class Other {
    Shapes.Hidden h = new Shapes.Hidden();
}
