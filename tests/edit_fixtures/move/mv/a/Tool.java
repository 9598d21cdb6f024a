package mv.a;

public class Tool {
    int level() {
        return 3;
    }
}
