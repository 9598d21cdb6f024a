package mv.a;

public class Helper {
    public static int size() {
        return 1;
    }

    static int hidden() {
        return 2;
    }
}
