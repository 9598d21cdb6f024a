package sg;

public class Square implements Shape {
    private final double side;

    public Square(double side) {
        this.side = side;
    }

    @Override
    public double area(double s, String label) {
        return side * side * s;
    }
}
