package pb;

import pa.Base;

/** In another package: its private run() overrides nothing (JLS 8.4.8.1). */
public class Far extends Base {
    private void run() {
        System.out.println("far");
    }

    public void use() {
        run();
    }
}
