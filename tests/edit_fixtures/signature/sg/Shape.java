package sg;

/** A plane shape. */
public interface Shape {
    /**
     * The area, scaled.
     *
     * @param scale the factor
     * @param label unused by most shapes
     * @return the scaled area
     */
    double area(double scale, String label);
}
