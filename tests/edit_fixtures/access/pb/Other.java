package pb;

import pa.Base;

/** In another package: its package-private run() is a new method, not Base's override. */
public class Other extends Base {
    void run() {
        System.out.println("other");
    }

    public Base anonymous() {
        return new Base() {
            void run() {
                System.out.println("anonymous");
            }
        };
    }
}
