package sg;

public class Main {
    static double total(Shape a, Shape b) {
        return a.area(2.0, "a") + b.area(1.0, "b");
    }

    public static void main(String[] args) {
        Shape unit = new Shape() {
            @Override
            public double area(double scale, String label) {
                return scale;
            }
        };
        System.out.println(total(new Square(3), unit));
        int limit = 9;
        System.out.println(Util.clamp(Util.clamp(5, 0, 10), 1, limit) + Util.join("n", 1));
        System.out.println(Util.clamp(limit, 0, Util.twice(limit)));
        Point p = new Point(1, 2);
        System.out.println(p.x + new Point3(1, 2, 3).z + Util.ADD.apply(1, 2));
    }
}
