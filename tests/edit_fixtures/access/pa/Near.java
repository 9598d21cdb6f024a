package pa;

/** In Base's package: its run() overrides Base's. */
public class Near extends Base {
    @Override
    void run() {
        System.out.println("near");
    }
}
