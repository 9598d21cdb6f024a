package pa;

/** A class with a package-private method: only classes of package pa can override it. */
public class Base {
    void run() {
        System.out.println("base");
    }

    public void go() {
        run();
    }
}
