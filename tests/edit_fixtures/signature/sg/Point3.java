package sg;

public class Point3 extends Point {
    final int z;

    public Point3(int x, int y, int z) {
        super(x, y);
        this.z = z;
    }
}
